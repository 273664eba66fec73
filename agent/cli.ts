/**
 * Runs the reference agent over stdio: `node --import tsx agent/cli.ts [flags]` (see
 * `agent/options.ts` for flags, `agent/scenarios/index.ts` for what a prompt can ask for).
 * Exits when stdin closes.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { createReferenceAgent } from './app.ts';
import { withCallsLog } from './calls-log.ts';
import { AgentUsageError, parseAgentArgs } from './options.ts';
import { withStringRequestIds } from './string-ids.ts';

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

const decoder = new TextDecoder();
/**
 * Under `--sent-log`: appends `<sessionId> <number>` to `<sessions-dir>/sent.log` for every numbered
 * update in `data`, called once `data` is in the stdout pipe (pipe writes are synchronous on Linux).
 */
function logSent(data: Uint8Array | string): void {
  const text = typeof data === 'string' ? data : decoder.decode(data);
  if (!text.includes('"silo/sent"')) return;
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.includes('"silo/sent"')) continue;
    const m = JSON.parse(line) as {
      params?: { sessionId?: string; update?: { _meta?: Record<string, unknown> } };
    };
    const n = m.params?.update?._meta?.['silo/sent'];
    if (typeof n === 'string') lines.push(`${m.params?.sessionId} ${n}\n`);
  }
  if (lines.length) appendFileSync(join(options.sessionsDir, 'sent.log'), lines.join(''));
}

/** Writes to stdout, resolving once Node has taken the bytes (so raw lines stay in order). */
function writeOut(data: Uint8Array | string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(data, (error) => {
      if (error) return reject(error);
      if (options.sentLog) logSent(data);
      resolve();
    });
  });
}

process.stdout.on('error', () => process.exit(0));
const output = new WritableStream<Uint8Array>({ write: (chunk) => writeOut(chunk) });
const input = Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>;
const wire = ndJsonStream(output, input);
const logged = options.callsLog ? withCallsLog(wire, options.sessionsDir) : wire;
const connection = createReferenceAgent(options, (line) => writeOut(`${line}\n`)).connect(
  options.stringRequestIds ? withStringRequestIds(logged) : logged,
);
void connection.closed.then(() => process.exit(0));
