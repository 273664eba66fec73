/**
 * The fast stdio agent behind the throughput ceiling: it answers `initialize`, `session/new` and
 * `session/prompt`, and for `/scenario flood <n>` writes n prebuilt `session/update` lines
 * (`agent_message_chunk`, text `0 `, `1 `, … — the reference agent's flood) in large writes, many
 * lines per write, then the prompt's answer. The reference agent writes one line per update and waits
 * for each write, so its pace, not the client's, bounds what a client receives from it.
 *
 * Benchmark harness only, run by the bridge as `node --import tsx agent/bench/fast-agent.ts`: it speaks the
 * few JSON-RPC lines it needs by hand so that nothing but the pipe limits it (product code never
 * re-implements JSON-RPC). Every other request gets a -32601 error; notifications are ignored.
 */
import { createInterface } from 'node:readline';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';

/** Lines per `write` call: about 120 KB of JSON. */
const LINES_PER_WRITE = 1000;

interface Message {
  id?: number | string;
  method?: string;
  params?: { prompt?: { type: string; text?: string }[] };
}

const write = (chunk: string): Promise<void> =>
  new Promise((resolve, reject) => {
    if (process.stdout.write(chunk, (error) => (error ? reject(error) : undefined))) resolve();
    else process.stdout.once('drain', resolve);
  });

const reply = (id: Message['id'], result: unknown) =>
  write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);

let sessions = 0;

/** The flood's lines, built before the first write (a template per line, no JSON.stringify). */
function floodBlocks(sessionId: string, n: number): string[] {
  const head = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":${JSON.stringify(sessionId)},"update":{"sessionUpdate":"agent_message_chunk","messageId":"fast-${Date.now()}","content":{"type":"text","text":"`;
  const blocks: string[] = [];
  for (let start = 0; start < n; start += LINES_PER_WRITE) {
    let block = '';
    for (let i = start; i < Math.min(n, start + LINES_PER_WRITE); i++) block += `${head}${i} "}}}}\n`;
    blocks.push(block);
  }
  return blocks;
}

async function flood(sessionId: string, n: number): Promise<void> {
  for (const block of floodBlocks(sessionId, n)) await write(block);
}

/** Handles one request. */
async function handle(m: Message & { params?: Record<string, unknown> }): Promise<void> {
  if (m.method === undefined || m.id === undefined) return;
  switch (m.method) {
    case 'initialize':
      return reply(m.id, {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {},
        agentInfo: { name: 'silo-bench-fast-agent', title: 'Fast agent (benchmark)', version: '1.0.0' },
        authMethods: [],
      });
    case 'session/new':
      return reply(m.id, { sessionId: `fast-session-${process.pid}-${++sessions}` });
    case 'session/prompt': {
      const sessionId = String(m.params?.sessionId ?? '');
      const prompt = (m.params?.prompt as { text?: string }[] | undefined)?.map((b) => b.text ?? '').join('');
      const match = /^\/scenario flood (\d+)$/.exec(prompt?.trim() ?? '');
      if (match) await flood(sessionId, Number(match[1]));
      return reply(m.id, { stopReason: 'end_turn' });
    }
    default:
      return write(
        `${JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `${m.method} is not supported` } })}\n`,
      );
  }
}

// Requests are handled one at a time, in order (a flood's lines and its answer never interleave).
let queue = Promise.resolve();
createInterface({ input: process.stdin }).on('line', (line) => {
  let message: Message;
  try {
    message = JSON.parse(line) as Message;
  } catch {
    return;
  }
  queue = queue
    .then(() => handle(message))
    .catch((error: unknown) => {
      process.stderr.write(`fast agent: ${String(error)}\n`);
    });
});
