/**
 * A hostile stdio "agent" for the reliability suite: it speaks just enough raw JSON-RPC to get a
 * session going, then writes whatever the test asks for, byte for byte — which an SDK-built agent
 * cannot do (the SDK only writes valid messages). Run behind the real bridge:
 * `node --import tsx agent/test/fuzz-agent.ts [--init JSON] [--fixtures DIR]`.
 *
 * Prompts (the text of the first text block):
 * - `fuzz <seed> <count> [maxString]` — writes the frames of {@link generateFrames} over the recorded
 *   traffic, then the marker update, then answers `end_turn`.
 * - `script <base64url JSON>` — `{lines: (string|object)[], await?: (string|number)[], stopReason?,
 *   result?, error?: {code,message}, wait?: "cancel", afterCancel?: lines}`: writes each line (objects are
 *   serialized; the string `$SESSION` inside them becomes the session id, `$PROMPT` the prompt's text); with `wait: "cancel"` waits
 *   for `session/cancel` and writes `afterCancel`; waits for the client's responses to the `await` ids, reports them as one `agent_message_chunk`
 *   whose text is `RESPONSES <json>` (with `wait`, then one `RESPONSES BEFORE CANCEL <n>`: how many
 *   responses had arrived when `session/cancel` did), then answers the prompt with `stopReason` or `error`.
 * - anything else — one chunk `pong: <text>`, then `end_turn`.
 *
 * `--init JSON` is merged over the `initialize` result (protocol version, capabilities…); `--new JSON`
 * over every `session/new` result (modes, configOptions…). `--replay N` answers `session/load` (advertise
 * it with `--init '{"agentCapabilities":{"loadSession":true}}'`) by replaying N one-chunk messages, the
 * i-th with messageId `replay-<i>` and text `<i>`, then the result `null`.
 * Unknown requests get -32601. Stdout lines are written with backpressure, in order.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { generateFrames, updatesOfRecording } from '../../test/support/fuzz.ts';

type Msg = {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: unknown;
};

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const FIXTURES =
  flag('--fixtures') ??
  resolve(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/claude-agent-acp');
const initOverride = JSON.parse(flag('--init') ?? '{}') as Record<string, unknown>;
const newOverride = JSON.parse(flag('--new') ?? '{}') as Record<string, unknown>;
const replayCount = Number(flag('--replay') ?? 0);

let sessions = 0;
let cancelled: (() => void) | undefined;
/** How many responses to the agent's requests had arrived when `session/cancel` did. */
let responsesAtCancel: number | undefined;
const responses = new Map<string, Msg>();
const responseWaiters = new Map<string, (m: Msg) => void>();

process.stdout.on('error', () => process.exit(0));
let chain: Promise<void> = Promise.resolve();
/** Writes one line after every line written before it; resolves once the pipe took it (backpressure). */
function write(line: string): Promise<void> {
  chain = chain.then(
    () =>
      new Promise<void>((done) => {
        if (process.stdout.write(`${line}\n`)) done();
        else process.stdout.once('drain', done);
      }),
  );
  return chain;
}
const send = (m: Msg) => write(JSON.stringify({ jsonrpc: '2.0', ...m }));
const chunk = (sessionId: string, text: string, messageId?: string) =>
  send({
    method: 'session/update',
    params: {
      sessionId,
      update: {
        sessionUpdate: 'agent_message_chunk',
        ...(messageId ? { messageId } : {}),
        content: { type: 'text', text },
      },
    },
  });

let sources: Record<string, never>[] | undefined;
function fixtureSources() {
  sources ??= ['main', 'load', 'resume'].flatMap((n) =>
    updatesOfRecording(readFileSync(join(FIXTURES, `${n}.jsonl`), 'utf8')),
  ) as never;
  return sources!;
}

async function prompt(id: Msg['id'], sessionId: string, text: string): Promise<void> {
  const [command, ...args] = text.trim().split(/\s+/);
  if (command === 'fuzz') {
    const frames = generateFrames({
      seed: Number(args[0] ?? 1),
      count: Number(args[1] ?? 1000),
      sessionId,
      sources: fixtureSources(),
      ...(args[2] ? { maxString: Number(args[2]) } : {}),
    });
    for (const f of frames) await write(f.line);
    await send({ id, result: { stopReason: 'end_turn' } });
    return;
  }
  if (command === 'script') {
    const script = JSON.parse(Buffer.from(args[0] ?? '', 'base64url').toString('utf8')) as {
      lines: (string | object)[];
      await?: (string | number)[];
      wait?: 'cancel';
      afterCancel?: (string | object)[];
      stopReason?: string;
      result?: Record<string, unknown>;
      error?: { code: number; message: string; data?: unknown };
    };
    const waitCancel = new Promise<void>((r) => {
      cancelled = r;
    });
    const writeAll = async (ls: (string | object)[]) => {
      for (const l of ls)
        await write(
          (typeof l === 'string' ? l : JSON.stringify(l))
            .replaceAll('$SESSION', sessionId)
            .replaceAll('$PROMPT', JSON.stringify(text).slice(1, -1)),
        );
    };
    await writeAll(script.lines);
    if (script.wait === 'cancel') {
      await waitCancel;
      await writeAll(script.afterCancel ?? []);
    }
    const got = await Promise.all(
      (script.await ?? []).map(
        (rid) =>
          new Promise<Msg>((r) => {
            const key = JSON.stringify(rid);
            const seen = responses.get(key);
            if (seen) r(seen);
            else responseWaiters.set(key, r);
          }),
      ),
    );
    if (script.await?.length) await chunk(sessionId, `RESPONSES ${JSON.stringify(got)}`, 'fz-responses');
    if (script.wait === 'cancel')
      await chunk(sessionId, `RESPONSES BEFORE CANCEL ${responsesAtCancel}`, 'fz-order');
    if (script.error) await send({ id, error: script.error });
    else await send({ id, result: { stopReason: script.stopReason ?? 'end_turn', ...script.result } });
    return;
  }
  await chunk(sessionId, `pong: ${text}`);
  await send({ id, result: { stopReason: 'end_turn' } });
}

function handle(m: Msg): void {
  if (m.method === undefined) {
    const key = JSON.stringify(m.id);
    responses.set(key, m);
    responseWaiters.get(key)?.(m);
    responseWaiters.delete(key);
    return;
  }
  const reply = m.id !== undefined && m.id !== null;
  switch (m.method) {
    case 'initialize':
      void send({
        id: m.id,
        result: {
          protocolVersion: 1,
          agentCapabilities: { loadSession: false },
          authMethods: [],
          agentInfo: { name: 'silo-fuzz-agent', version: '0.0.0' },
          ...initOverride,
        },
      });
      return;
    case 'session/new':
      // Unique across agent processes: each connection spawns a new one, and a test's journal is shared.
      void send({
        id: m.id,
        result: { sessionId: `fuzz-session-${++sessions}-${randomUUID()}`, ...newOverride },
      });
      return;
    case 'session/load': {
      const sessionId = String(m.params?.sessionId ?? '');
      for (let i = 0; i < replayCount; i++) void chunk(sessionId, String(i), `replay-${i}`);
      void send({ id: m.id, result: null });
      return;
    }
    case 'session/cancel':
      responsesAtCancel = responses.size;
      cancelled?.();
      return;
    case 'session/prompt': {
      const blocks = (m.params?.prompt ?? []) as { type?: string; text?: string }[];
      const text = blocks.find((b) => b.type === 'text')?.text ?? '';
      void prompt(m.id, String(m.params?.sessionId ?? ''), text);
      return;
    }
    default:
      if (reply) void send({ id: m.id, error: { code: -32601, message: `Method not found: ${m.method}` } });
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
lines.on('line', (line) => {
  if (!line.trim()) return;
  let m: Msg;
  try {
    m = JSON.parse(line) as Msg;
  } catch {
    return;
  }
  if (typeof m === 'object' && m !== null && !Array.isArray(m)) handle(m);
});
lines.on('close', () => process.exit(0));
