/**
 * A replay agent: plays recorded real traffic (`test/fixtures/claude-agent-acp/*.jsonl`,
 * style, one `{seq, ts, t_ms, dir, msg}` per line) back to a live client over stdio.
 *
 * `node --import tsx agent/replay.ts [--files main,load,resume] [--dir DIR] [--realtime]`
 *
 * - Each client request is answered with the recorded response to the next recorded request of the
 *   same method (ids rewritten to the client's). Recorded requests the client skipped are skipped,
 *   with everything the agent sent for them.
 * - Agent→client messages recorded after a response, before the next client message, are sent at
 *   once (or after their recorded delay with `--realtime`). The replay then waits for the client's
 *   next message; a recorded `session/cancel` or permission answer is waited for likewise.
 * - With several files, the first whose recording matches the client's requests so far wins, so
 *   one command serves a first run (`main`) and a reconnect (`load` or `resume`).
 * - A recorded sessionId the client replaced (loading its own id) is rewritten in everything sent.
 * - A request with no recorded counterpart gets error -32603 "replay has no recorded <method>".
 *
 * Framing uses the SDK's `ndJsonStream`; messages are forwarded raw (unknown fields intact).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type AnyMessage, ndJsonStream } from '@agentclientprotocol/sdk';

/** One line of a recording. */
export interface RecordedEntry {
  seq: number;
  t_ms: number;
  dir: 'client->agent' | 'agent->client';
  msg: Record<string, unknown> & { id?: unknown; method?: string; params?: Record<string, unknown> };
}

/** The recordings kept in the repository (test/fixtures/claude-agent-acp). */
export const DEFAULT_FIXTURES_DIR = fileURLToPath(
  new URL('../test/fixtures/claude-agent-acp', import.meta.url),
);

export function readRecording(file: string): RecordedEntry[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as RecordedEntry);
}

const isRequest = (m: RecordedEntry['msg']) =>
  typeof m.method === 'string' && 'id' in m && m.id !== undefined;
const isNotification = (m: RecordedEntry['msg']) =>
  typeof m.method === 'string' && !('id' in m && m.id !== undefined);
const isResponse = (m: RecordedEntry['msg']) => m.method === undefined && 'id' in m;

/** Replaces every string equal to a key of `map` anywhere in `value`. */
function rewriteStrings(value: unknown, map: Map<string, string>): unknown {
  if (map.size === 0) return value;
  if (typeof value === 'string') return map.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => rewriteStrings(v, map));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteStrings(v, map)]));
  }
  return value;
}

/** The replay state machine over one or more recordings; `send` writes to the client. */
export class Replayer {
  private cursors: { name: string; entries: RecordedEntry[]; pos: number }[];
  private readonly idMap = new Map<string, unknown>();
  private readonly sessionMap = new Map<string, string>();
  private chain: Promise<void> = Promise.resolve();

  constructor(
    recordings: { name: string; entries: RecordedEntry[] }[],
    private readonly send: (message: AnyMessage) => Promise<void>,
    private readonly realtime = false,
  ) {
    this.cursors = recordings.map((r) => ({ ...r, pos: 0 }));
  }

  /** Handles one client message (serialized: each waits for the previous one's output). */
  receive(message: RecordedEntry['msg']): Promise<void> {
    this.chain = this.chain
      .then(() => this.handle(message))
      .catch((error) => {
        process.stderr.write(`replay: ${error instanceof Error ? error.message : String(error)}\n`);
      });
    return this.chain;
  }

  private matches(entry: RecordedEntry, message: RecordedEntry['msg']): boolean {
    if (entry.dir !== 'client->agent') return false;
    if (isRequest(message)) return isRequest(entry.msg) && entry.msg.method === message.method;
    if (isNotification(message)) return isNotification(entry.msg) && entry.msg.method === message.method;
    return isResponse(entry.msg);
  }

  private async handle(message: RecordedEntry['msg']): Promise<void> {
    // Requests keep only the recordings that can still answer them (the first one leads); a
    // notification or response the leading recording does not expect is ignored.
    const canMatch = (c: (typeof this.cursors)[number]) =>
      c.entries.slice(c.pos).some((e) => this.matches(e, message));
    const viable = isRequest(message)
      ? this.cursors.filter(canMatch)
      : canMatch(this.cursors[0]!)
        ? this.cursors
        : [];
    if (viable.length === 0) {
      if (isRequest(message)) {
        await this.send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32603, message: `replay has no recorded ${message.method}` },
        } as AnyMessage);
      }
      return;
    }
    this.cursors = viable;
    for (const c of this.cursors) {
      const at = c.entries.findIndex((e, i) => i >= c.pos && this.matches(e, message));
      const recorded = c.entries[at]!;
      // Map the recorded request id to the client's, and a replaced sessionId to the client's.
      if (c === this.cursors[0]) {
        if (isRequest(message)) this.idMap.set(JSON.stringify(recorded.msg.id), message.id);
        const recordedSession = recorded.msg.params?.sessionId;
        const clientSession = message.params?.sessionId;
        if (
          typeof recordedSession === 'string' &&
          typeof clientSession === 'string' &&
          recordedSession !== clientSession
        ) {
          this.sessionMap.set(recordedSession, clientSession);
        }
      }
      c.pos = at + 1;
    }
    await this.pump();
  }

  /** Sends the leading recording's agent messages up to its next client message. */
  private async pump(): Promise<void> {
    const lead = this.cursors[0]!;
    let previous = lead.entries[lead.pos - 1]?.t_ms ?? 0;
    while (lead.pos < lead.entries.length && lead.entries[lead.pos]!.dir === 'agent->client') {
      const entry = lead.entries[lead.pos++]!;
      if (this.realtime && entry.t_ms > previous)
        await new Promise((r) => setTimeout(r, entry.t_ms - previous));
      previous = entry.t_ms;
      let msg = rewriteStrings(entry.msg, this.sessionMap) as RecordedEntry['msg'];
      if (isResponse(msg)) {
        const key = JSON.stringify(entry.msg.id);
        if (!this.idMap.has(key)) continue; // a response to a request the client never made
        msg = { ...msg, id: this.idMap.get(key) };
        this.idMap.delete(key);
      }
      await this.send(msg as AnyMessage);
    }
    // The other candidates advance over the same agent output.
    for (const c of this.cursors.slice(1)) {
      while (c.pos < c.entries.length && c.entries[c.pos]!.dir === 'agent->client') c.pos++;
    }
  }
}

function parseArgs(argv: string[]): { files: string[]; dir: string; realtime: boolean } {
  let files = ['main', 'load', 'resume'];
  let dir = process.env.SILO_REPLAY_DIR ?? DEFAULT_FIXTURES_DIR;
  let realtime = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--files' || a === '--file') files = (argv[++i] ?? '').split(',').filter(Boolean);
    else if (a === '--dir') dir = argv[++i] ?? dir;
    else if (a === '--realtime') realtime = true;
    else {
      process.stderr.write(`replay: unknown option ${a}\n`);
      process.exit(2);
    }
  }
  return { files, dir: resolve(dir), realtime };
}

/** Runs the replay agent on stdio. */
export function main(argv: string[]): void {
  const { files, dir, realtime } = parseArgs(argv);
  const recordings = files.map((name) => ({
    name,
    entries: readRecording(name.endsWith('.jsonl') ? resolve(name) : join(dir, `${name}.jsonl`)),
  }));
  const output = new WritableStream<Uint8Array>({
    write: (chunk) =>
      new Promise<void>((res, rej) => process.stdout.write(chunk, (e) => (e ? rej(e) : res()))),
  });
  const stream = ndJsonStream(output, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
  const writer = stream.writable.getWriter();
  const replayer = new Replayer(recordings, (m) => writer.write(m), realtime);
  void (async () => {
    for await (const message of stream.readable as unknown as AsyncIterable<RecordedEntry['msg']>) {
      void replayer.receive(message);
    }
    process.exit(0);
  })();
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
