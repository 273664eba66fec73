/**
 * Reading an agent's wire log (written by wire-tap.mjs): the messages of each agent process in
 * order, the answers to `initialize` and the session requests, and what the agent sent that the
 * journal must hold.
 * @packageDocumentation
 */
import { existsSync, readFileSync } from 'node:fs';
import type { AgentSessionUpdate } from '../../src/types.ts';
// The kinds that make up a conversation (a replay's, held for the merge); other kinds are state.
import { HISTORY_KINDS } from '../../worker/replay-window.ts';

/** One logged line. */
export interface WireLine {
  readonly t: number;
  readonly conn: string;
  readonly dir: 'client->agent' | 'agent->client';
  readonly msg: {
    readonly id?: number | string;
    readonly method?: string;
    readonly params?: Record<string, unknown> & {
      readonly sessionId?: string;
      readonly update?: Record<string, unknown>;
    };
    readonly result?: Record<string, unknown>;
    readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  };
}

/** Every line of a wire log, in order. */
export function readWire(file: string): WireLine[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as WireLine);
}

/** The answer (result or error) to each request the client sent, with the request, in order. */
export function exchanges(
  wire: readonly WireLine[],
  method: string,
): { request: WireLine; answer?: WireLine }[] {
  const out: { request: WireLine; answer?: WireLine }[] = [];
  for (const line of wire) {
    if (line.dir !== 'client->agent' || line.msg.method !== method) continue;
    const answer = wire.find(
      (a) => a.dir === 'agent->client' && a.conn === line.conn && a.msg.id === line.msg.id && !a.msg.method,
    );
    out.push({ request: line, ...(answer ? { answer } : {}) });
  }
  return out;
}

/**
 * The `session/update`s of `sessionId` the journal must hold: every one sent outside a
 * `session/load` replay, and every update of a load that is no part of its conversation (commands,
 * mode, config, usage, title, notices) — the part of a replay window that is not the replay. An
 * agent process alive when a page went away (`gone`: the times the test reloaded or closed one)
 * may still write after it; those updates had no page to reach and are not counted.
 */
export function mustJournal(
  wire: readonly WireLine[],
  sessionId: string,
  gone: readonly number[] = [],
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const replaying = new Map<string, boolean>();
  const born = new Map<string, number>();
  for (const line of wire) {
    if (!born.has(line.conn)) born.set(line.conn, line.t);
    if (gone.some((t) => t >= born.get(line.conn)! && line.t >= t)) continue;
    const { msg } = line;
    if (line.dir === 'client->agent') {
      if (msg.method === 'session/load') replaying.set(line.conn, true);
      if (msg.method === 'session/prompt') replaying.set(line.conn, false);
      continue;
    }
    if (msg.method !== 'session/update' || msg.params?.sessionId !== sessionId || !msg.params.update)
      continue;
    const update = msg.params.update;
    const kind = String(update.sessionUpdate);
    if (replaying.get(line.conn) && HISTORY_KINDS.has(kind)) continue;
    out.push(update);
  }
  return out;
}

/** Silo's own record of each prompt it sent: a user chunk with a timestamp. */
export function prompts(journal: readonly AgentSessionUpdate[]): number {
  return journal.filter((u) => u.kind === 'user_message_chunk' && u.timestamp).length;
}

/** What the agent sent (per {@link mustJournal}) that no journal entry holds as its `raw`, by kind. */
export function missingFromJournal(
  wire: readonly WireLine[],
  journal: readonly AgentSessionUpdate[],
  sessionId: string,
  gone: readonly number[] = [],
): { sent: number; missing: Record<string, number> } {
  const held = new Map<string, number>();
  for (const u of journal) {
    const key = JSON.stringify(u.raw);
    held.set(key, (held.get(key) ?? 0) + 1);
  }
  const missing: Record<string, number> = {};
  const sent = mustJournal(wire, sessionId, gone);
  for (const update of sent) {
    const key = JSON.stringify(update);
    const n = held.get(key) ?? 0;
    if (n > 0) {
      held.set(key, n - 1);
      continue;
    }
    const kind = String(update.sessionUpdate);
    missing[kind] = (missing[kind] ?? 0) + 1;
  }
  return { sent: sent.length, missing };
}
