/**
 * Runs the reference agent over stdio: `node --import tsx agent/cli.ts [flags]` (see
 * `agent/options.ts` for flags, `agent/scenarios.ts` for what a prompt can ask for).
 * Exits when stdin closes.
 */
import { Readable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { createReferenceAgent } from './app.ts';
import { AgentUsageError, parseAgentArgs } from './options.ts';

let options: ReturnType<typeof parseAgentArgs>;
try {
  options = parseAgentArgs(process.argv.slice(2));
} catch (error) {
  if (error instanceof AgentUsageError) {
    process.stderr.write(`reference agent: ${error.message}\n`);
    process.exit(2);
  }
  throw error;
}

/** Writes to stdout, resolving once Node has taken the bytes (so raw lines stay in order). */
function writeOut(data: Uint8Array | string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(data, (error) => (error ? reject(error) : resolve()));
  });
}

process.stdout.on('error', () => process.exit(0));
const output = new WritableStream<Uint8Array>({ write: (chunk) => writeOut(chunk) });
const input = Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>;
const connection = createReferenceAgent(options, (line) => writeOut(`${line}\n`)).connect(
  ndJsonStream(output, input),
);
void connection.closed.then(() => process.exit(0));
