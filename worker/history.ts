/**
 * The history's own logic, in the worker beside the journal it reads: searching the journaled
 * sessions by title and text, renaming one, and importing an export without adding a session that
 * is already there. What the page API offers as `sessions({ query })`, `rename` and `importJsonl`.
 * @packageDocumentation
 */
import { SiloError } from '../src/errors.ts';
import { readJsonlExport } from '../src/jsonl.ts';
import { EMPTY_SESSION_STATE, reduceSessionState } from '../src/session-state.ts';
import type { AgentSessionSummary, AgentSessionUpdate } from '../src/types.ts';
import type { Journal } from './journal.ts';

/** Longest title the user can give, in characters (longer ones are cut). */
export const MAX_TITLE = 200;
/** Update kinds whose text a search reads: what the user and the agent wrote. */
const SEARCHED = new Set(['user_message_chunk', 'agent_message_chunk']);

/** The searchable text of updates: their messages' text, a line between messages, lower-cased. */
function textOf(updates: readonly AgentSessionUpdate[]): string {
  let out = '';
  let message: string | undefined;
  for (const u of updates) {
    if (!SEARCHED.has(u.kind) || typeof u.text !== 'string') continue;
    if (u.messageId !== message) out += '\n';
    message = u.messageId;
    out += u.text;
  }
  return out.toLocaleLowerCase();
}

/**
 * A cheap fingerprint of updates (count, length and a 53-bit hash of their JSON), to tell an export
 * imported before when it comes again without a session id. Not a security measure.
 */
export function fingerprintOf(updates: readonly AgentSessionUpdate[]): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  let length = 0;
  for (const u of updates) {
    const line = JSON.stringify({ ...u, seq: undefined });
    length += line.length;
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hash = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return `${updates.length}:${length}:${hash.toString(36)}`;
}

/**
 * The session that holds an export already: an earlier import of the very same updates, or the
 * session it was exported from (`origin`) or an import of that session, whose journal begins with
 * exactly these updates (it may have grown since). Undefined when none does.
 */
async function holder(
  j: Journal,
  count: number,
  fingerprint: string,
  origin: string | undefined,
): Promise<string | undefined> {
  const records = await j.records();
  const same = records.find((r) => r.fingerprint === fingerprint);
  if (same) return same.sessionId;
  if (origin === undefined) return undefined;
  for (const r of records) {
    if ((r.sessionId !== origin && r.importedFrom !== origin) || r.nextSeq < count) continue;
    if (fingerprintOf((await j.read(r.sessionId)).slice(0, count)) === fingerprint) return r.sessionId;
  }
  return undefined;
}

/** The history of one journal: search (with each session's text kept while its journal holds still), rename, import. */
export class History {
  /** Each session's searchable text, with the journal length it was read at. */
  readonly #texts = new Map<string, { nextSeq: number; text: string }>();

  constructor(private readonly journal: () => Promise<Journal>) {}

  /**
   * The sessions among `list` that match `query` (case-insensitive, plain text) in their title or in
   * what the user and the agent wrote; `list` itself for a blank query. A session the journal does
   * not hold (the agent's own list) matches by title only.
   */
  async search(
    list: readonly AgentSessionSummary[],
    query: string | undefined,
  ): Promise<AgentSessionSummary[]> {
    const q = query?.trim().toLocaleLowerCase();
    if (!q) return [...list];
    const out: AgentSessionSummary[] = [];
    for (const s of list) {
      if (s.title?.toLocaleLowerCase().includes(q)) out.push(s);
      else if (!s.loadable && (await this.#text(s)).includes(q)) out.push(s);
    }
    return out;
  }

  async #text(s: AgentSessionSummary): Promise<string> {
    const nextSeq = s.updateCount ?? 0;
    const known = this.#texts.get(s.sessionId);
    if (known?.nextSeq === nextSeq) return known.text;
    const text = textOf(await (await this.journal()).read(s.sessionId));
    this.#texts.set(s.sessionId, { nextSeq, text });
    return text;
  }

  /**
   * Gives a session the user's title (trimmed, at most {@link MAX_TITLE} characters), which wins over
   * the agent's and the first prompt's from then on; a blank title takes the user's away again.
   * Rejects with `session-not-found` when the journal holds no such session. Resolves to the title
   * the session shows now.
   */
  async rename(sessionId: string, title: string | undefined): Promise<string | undefined> {
    const userTitle = title?.trim().slice(0, MAX_TITLE) || undefined;
    const record = await (await this.journal()).updateRecord(sessionId, { userTitle });
    if (!record) throw new SiloError('session-not-found', `No journaled session ${sessionId}`);
    return record.userTitle ?? record.title;
  }

  /** Forgets what it read of a deleted session. */
  forget(sessionId: string): void {
    this.#texts.delete(sessionId);
  }

  /**
   * Imports a JSONL export into the journal and resolves to the session's id. An export of a session
   * that is already there (see {@link holder}: the session it was exported from, named by its
   * header's `sessionId`, or an import of it, holding these updates; or an earlier import of the very
   * same updates, for an export without a header) adds nothing and resolves to that session's id. Otherwise a new session (id `sessionId`, or
   * `import-<uuid>`) holds it, read-only (`journal-only`), with the export's title and agent.
   * Rejects as `readJsonlExport` does for text that is not an export.
   */
  async importJsonl(jsonl: string, sessionId?: string): Promise<string> {
    const { updates, info } = readJsonlExport(jsonl);
    const j = await this.journal();
    const fingerprint = fingerprintOf(updates);
    const origin = info.sessionId;
    const there = await holder(j, updates.length, fingerprint, origin);
    if (there && (sessionId === undefined || sessionId === there)) return there;
    const id = sessionId ?? `import-${crypto.randomUUID()}`;
    // The title the imported updates end with is the session's, as it was where it was exported.
    const { title } = updates.reduce(reduceSessionState, EMPTY_SESSION_STATE);
    const record = await j.upsertSession(id, {
      lastOutcome: 'journal-only',
      fingerprint,
      ...(origin ? { importedFrom: origin } : {}),
      ...(title ? { title } : {}),
      ...(info.title ? { userTitle: info.title } : {}),
      ...(info.agent ? { agent: info.agent } : {}),
    });
    const writer = j.writer(id, record.nextSeq);
    writer.append(updates.map((u, i) => ({ ...u, seq: record.nextSeq + i })));
    await writer.flushed();
    j.dropWriter(id);
    return id;
  }
}
