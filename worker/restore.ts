/**
 * Restore decisions, as pure functions the session calls and tests call directly (docs/restore.md):
 * - {@link journalHolding}: what the journal holds of a session (nothing, a turn left open, or whole);
 * - {@link restoreMethods}: which of `session/resume` and `session/load` to try, in which order;
 * - {@link mergeReplay}: what of a `session/load` replay to append to a journal that already holds the
 *   session, or a verdict that Silo cannot tell (then nothing is appended, so nothing shows twice).
 */

import type { Raw } from '../src/json.ts';
import type { AgentSessionUpdate } from '../src/types.ts';
import { normalizeReplayed } from './replay-shape.ts';

/** An ACP method that restores a session. */
export type RestoreMethod = 'session/resume' | 'session/load';

/**
 * What the journal holds of the session:
 * - `empty` — nothing (another browser, cleared storage, a session listed `loadable`);
 * - `open-turn` — a prompt Silo sent whose turn end it never journaled (the page died mid-turn);
 * - `complete` — every turn Silo sent ended in the journal (or it holds a replay and nothing since).
 */
export type JournalHolding = 'empty' | 'open-turn' | 'complete';

/** Reads {@link JournalHolding} from a session's journaled updates, in journal order. */
export function journalHolding(
  journal: readonly Pick<AgentSessionUpdate, 'kind' | 'messageId'>[],
): JournalHolding {
  if (journal.length === 0) return 'empty';
  let open = false;
  for (const u of journal) {
    if (u.kind === 'turn_end') open = false;
    else if (u.kind === 'user_message_chunk' && u.messageId?.startsWith('silo-u')) open = true;
  }
  return open ? 'open-turn' : 'complete';
}

/**
 * The methods to try, in order, given what the agent advertises (`loadSession`,
 * `sessionCapabilities.resume`), what the journal holds, and the method the caller asked for first.
 * `session/resume` replays nothing, so it comes first only for a complete journal; a journal that is
 * empty or ends inside a turn is restored by `session/load` when the agent can. An empty list means
 * journal-only.
 */
export function restoreMethods(
  agent: { readonly resume: boolean; readonly load: boolean },
  holding: JournalHolding,
  via?: 'resume' | 'load',
): RestoreMethod[] {
  const loadFirst = via === 'load' || (via !== 'resume' && holding !== 'complete');
  const order: RestoreMethod[] = loadFirst
    ? ['session/load', 'session/resume']
    : ['session/resume', 'session/load'];
  return order.filter((m) => (m === 'session/load' ? agent.load : agent.resume));
}

/** The result of {@link mergeReplay}. */
export type ReplayMerge =
  | { readonly verdict: 'merged'; readonly append: readonly Raw[] }
  | { readonly verdict: 'cannot-merge'; readonly reason: string };

const CHUNKS = new Set(['user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk']);
const CUTTABLE = new Set(['agent_message_chunk', 'agent_thought_chunk']);
/** Stands for a non-text content block in a token's text (U+FFFC OBJECT REPLACEMENT CHARACTER). */
const OBJECT = '\uFFFC';

/** One piece of conversation: a run of same-kind chunks (ids ignored), or a tool call. */
interface Token {
  kind: string;
  text: string;
  /** Indices of the updates that make the token, in order. */
  members: number[];
}

/** An update as the merge reads it: its kind and text as Silo journals them (shaped), and its raw form. */
interface View {
  readonly kind: string;
  readonly raw: Raw;
  readonly text?: string | undefined;
}

function pieceOf(u: View): string {
  if (u.text !== undefined) return u.text;
  const content = u.raw.content as { type?: unknown; text?: unknown } | null | undefined;
  if (content?.type === 'text' && typeof content.text === 'string') return content.text;
  return `${OBJECT}${typeof content?.type === 'string' ? content.type : ''}${OBJECT}`;
}

/**
 * The conversation as tokens. Only chunks and tool calls count; every other update (tool call
 * patches, plans, usage, Silo's own records) is ignored, and message ids are ignored, so a journal
 * and a replay of the same conversation give the same tokens however the agent grouped or named it.
 */
function tokenize(updates: readonly View[]): Token[] {
  const tokens: Token[] = [];
  updates.forEach((u, i) => {
    if (u.kind === 'tool_call') {
      tokens.push({ kind: 'tool_call', text: String(u.raw.toolCallId ?? ''), members: [i] });
    } else if (CHUNKS.has(u.kind)) {
      const last = tokens.at(-1);
      if (last?.kind === u.kind) {
        last.text += pieceOf(u);
        last.members.push(i);
      } else tokens.push({ kind: u.kind, text: pieceOf(u), members: [i] });
    }
  });
  return tokens;
}

/** A replay read as Silo journals it: shapes that differ from live (worker/replay-shape.ts) compare as live. */
function viewsOf(replay: readonly Raw[]): View[] {
  return replay.map((raw) => {
    const u = normalizeReplayed(raw);
    return { kind: u.kind, raw, text: u.text };
  });
}

const isContent = (kind: unknown) => kind === 'tool_call' || CHUNKS.has(String(kind));

/**
 * What of a `session/load` replay a journal that holds the session lacks. The journal's conversation
 * (its chunks' text and tool-call ids, see {@link tokenize}) must be the start of the replay's, with
 * its last piece possibly cut short (the connection dropped mid-message); then what follows it in the
 * replay is appended: the rest of the cut message (with the journal's message id, so it stays one
 * message), and every later update. Updates between the two that repeat one the journal already ends
 * with (a tool call's patch, a plan, usage) are left out.
 *
 * A replay that is the start of the journal (the agent lost the end of a turn) adds nothing. Anything
 * else — the replay differs from the journal anywhere — is `cannot-merge`: Silo cannot tell what the
 * journal lacks, so it appends nothing. Never throws; pure.
 *
 * The replay is read as Silo journals it (worker/replay-shape.ts), so a replay shaped unlike live
 * (Gemini's hidden context and markers, Codex's `update_plan`) compares as live. When that fails, the
 * journal without the agent text of its cancelled turns is tried (Codex replays none of it).
 */
export function mergeReplay(journal: readonly JournalView[], replay: readonly Raw[]): ReplayMerge {
  const merge = mergeInto(journal, replay);
  if (merge.verdict === 'merged') return merge;
  // codex-acp replays no agent text of a cancelled turn: the same history, if the rest agrees.
  const kept = withoutCancelledText(journal);
  if (kept.length < journal.length) {
    const again = mergeInto(kept, replay);
    if (again.verdict === 'merged') return again;
  }
  // Gemini CLI omits cancelled turns and replays every tool call after the last turn.
  return sameRegrouped(withoutCancelledTurns(journal), replay) ? { verdict: 'merged', append: [] } : merge;
}

/** The user prompt (Silo's `silo-u…` chunks) through the turn end of each turn journaled as cancelled. */
function cancelledTurns(journal: readonly JournalView[], only?: Set<string>): Set<number> {
  const drop = new Set<number>();
  let start = -1;
  journal.forEach((u, i) => {
    if (u.kind === 'user_message_chunk' && u.messageId?.startsWith('silo-u')) start = start < 0 ? i : start;
    else if (u.kind === 'turn_end') {
      if (start >= 0 && u.raw.stopReason === 'cancelled')
        for (let j = start; j <= i; j++) if (!only || only.has(journal[j]!.kind)) drop.add(j);
      start = -1;
    }
  });
  return drop;
}

/** The journal without its cancelled turns (Gemini CLI replays none of them). */
function withoutCancelledTurns(journal: readonly JournalView[]): JournalView[] {
  const drop = cancelledTurns(journal);
  return journal.filter((_, i) => !drop.has(i));
}

/**
 * True when `replay` holds exactly the journal's conversation with its tool calls moved (Gemini CLI
 * groups them after the last turn): the same chunks' text in the same order once tool calls are set
 * aside, and the same tool calls. Such a replay adds nothing; any difference (more text, another
 * tool call) is not read this way, since where the new parts belong cannot be told.
 */
function sameRegrouped(journal: readonly JournalView[], replay: readonly Raw[]): boolean {
  const mine = tokenize(journal);
  const theirs = tokenize(viewsOf(replay));
  const calls = (tokens: Token[]) =>
    tokens
      .filter((t) => t.kind === 'tool_call')
      .map((t) => t.text)
      .sort();
  const talk = (tokens: Token[]) => {
    const out: { kind: string; text: string }[] = [];
    for (const t of tokens) {
      if (t.kind === 'tool_call') continue;
      const last = out.at(-1);
      if (last?.kind === t.kind) last.text += t.text;
      else out.push({ kind: t.kind, text: t.text });
    }
    return out;
  };
  return (
    JSON.stringify(calls(mine)) === JSON.stringify(calls(theirs)) &&
    JSON.stringify(talk(mine)) === JSON.stringify(talk(theirs))
  );
}

type JournalView = Pick<AgentSessionUpdate, 'kind' | 'raw' | 'messageId' | 'text'>;

/** The journal without the agent text and thoughts of the turns Silo journaled as cancelled. */
function withoutCancelledText(journal: readonly JournalView[]): JournalView[] {
  const drop = cancelledTurns(journal, CUTTABLE);
  return journal.filter((_, i) => !drop.has(i));
}

function mergeInto(journal: readonly JournalView[], replay: readonly Raw[]): ReplayMerge {
  const mine = tokenize(journal);
  const views = viewsOf(replay);
  const theirs = tokenize(views);
  const shorter =
    theirs.length < mine.length ||
    (mine.length > 0 &&
      theirs.length === mine.length &&
      theirs.at(-1)!.text.length < mine.at(-1)!.text.length);
  if (shorter) {
    // The agent holds less than the journal (it lost the end of a turn): nothing to add, if it agrees.
    return isStart(theirs, mine)
      ? { verdict: 'merged', append: [] }
      : { verdict: 'cannot-merge', reason: 'the replay is shorter than the journal and differs from it' };
  }
  for (let i = 0; i < mine.length - 1; i++) {
    if (mine[i]!.kind !== theirs[i]!.kind || mine[i]!.text !== theirs[i]!.text)
      return { verdict: 'cannot-merge', reason: `the replay differs from the journal at piece ${i + 1}` };
  }
  const append: Raw[] = [];
  let from = 0;
  let journalTail = 0;
  const lastMine = mine.at(-1);
  if (lastMine) {
    const last = mine.length - 1;
    const match = theirs[last]!;
    // Only an agent message or thought can be cut short: Silo journals a prompt whole.
    const same = lastMine.kind === match.kind && lastMine.text === match.text;
    const cut =
      CUTTABLE.has(lastMine.kind) && match.kind === lastMine.kind && match.text.startsWith(lastMine.text);
    if (!same && !cut)
      return { verdict: 'cannot-merge', reason: `the replay differs from the journal at piece ${last + 1}` };
    journalTail = lastMine.members[0]!;
    from = match.members.at(-1)! + 1;
    if (match.text.length > lastMine.text.length) {
      const rest = completeMessage(journal[lastMine.members.at(-1)!]!, lastMine.text.length, match, views);
      if (!rest) return { verdict: 'cannot-merge', reason: 'the cut message continues with other content' };
      append.push(...rest.append);
      from = rest.from;
    }
  }
  // Updates right after the known conversation may repeat what the journal ends with.
  const seen = new Set(journal.slice(journalTail).map((u) => JSON.stringify(u.raw)));
  let known = true;
  for (let i = from; i < replay.length; i++) {
    const raw = replay[i]!;
    if (isContent(views[i]!.kind)) known = false;
    if (known && seen.has(JSON.stringify(raw))) continue;
    append.push(raw);
  }
  return { verdict: 'merged', append };
}

/** True when `start` is the beginning of `tokens`, its last piece possibly an agent message cut short. */
function isStart(start: readonly Token[], tokens: readonly Token[]): boolean {
  return start.every((t, i) => {
    const other = tokens[i]!;
    if (t.kind !== other.kind) return false;
    if (i < start.length - 1 || !CUTTABLE.has(t.kind)) return t.text === other.text;
    return other.text.startsWith(t.text);
  });
}

/**
 * The rest of a message the journal holds only the start of: the replay's updates of `match` past the
 * journal's `length` characters, its chunks of the cut message carrying the journal's message id
 * (Silo's record: no single frame of the agent's carried the remainder). Returns them and where the
 * replay goes on after them; `undefined` when the cut falls inside a block that is not text.
 */
function completeMessage(
  lastChunk: Pick<AgentSessionUpdate, 'messageId'>,
  length: number,
  match: Token,
  views: readonly View[],
): { append: Raw[]; from: number } | undefined {
  const replay = views.map((v) => v.raw);
  // A message whose text Silo reshaped (Gemini's markers cut) cannot be cut by the agent's offsets.
  if (
    match.members.some(
      (m) => views[m]!.text !== undefined && views[m]!.text !== pieceOf({ ...views[m]!, text: undefined }),
    )
  )
    return undefined;
  let consumed = 0;
  let at = 0;
  for (; at < match.members.length; at++) {
    const next = consumed + pieceOf(views[match.members[at]!]!).length;
    if (next > length) break;
    consumed = next;
  }
  const boundary = replay[match.members[at]!]!;
  const append: Raw[] = [];
  let boundaryId: unknown;
  if (consumed < length) {
    // The journal ends inside this chunk: only text can be cut.
    const content = boundary.content as Raw | undefined;
    if (content?.type !== 'text' || typeof content.text !== 'string') return undefined;
    boundaryId = boundary.messageId;
    append.push(
      withId(
        { ...boundary, content: { ...content, text: content.text.slice(length - consumed) } },
        lastChunk,
      ),
    );
  } else {
    // The journal ends between two chunks: the next one continues its message if the ids say so.
    boundaryId = at > 0 ? replay[match.members[at - 1]!]!.messageId : undefined;
    append.push(boundary.messageId === boundaryId ? withId(boundary, lastChunk) : boundary);
  }
  const last = match.members.at(-1)!;
  for (let i = match.members[at]! + 1; i <= last; i++) {
    const raw = replay[i]!;
    append.push(
      CHUNKS.has(String(raw.sessionUpdate)) && raw.messageId === boundaryId ? withId(raw, lastChunk) : raw,
    );
  }
  return { append, from: last + 1 };
}

function withId(raw: Raw, lastChunk: Pick<AgentSessionUpdate, 'messageId'>): Raw {
  const { messageId: _, ...rest } = raw;
  return lastChunk.messageId ? { ...rest, messageId: lastChunk.messageId } : rest;
}
