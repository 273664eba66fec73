/**
 * Merging a `session/load` replay into a journal that already holds the session (docs/restore.md):
 * {@link mergeReplay} says what of the replay the journal lacks, or that Silo cannot tell. Pure.
 *
 * Both sides are read as a conversation of turns: each turn is a user prompt and the pieces after it
 * (runs of agent text or thought, and tool calls by id). Turns are aligned by their prompts first,
 * then compared within: the same tool call ids, agent text equal where both sides have it. So a
 * replay of the same conversation in another shape (merged or split chunks, a message only one side
 * has, tool calls announced another way) adds nothing, and a replay with more turns at its end gives
 * exactly those turns.
 */

import type { Raw } from '../src/json.ts';
import type { AgentSessionUpdate } from '../src/types.ts';
import { normalizeReplayed } from './replay-shape.ts';

/** The result of {@link mergeReplay}. */
export type ReplayMerge =
  | { readonly verdict: 'merged'; readonly append: readonly Raw[] }
  | { readonly verdict: 'cannot-merge'; readonly reason: string };

/** A journaled update as the merge reads it. */
export type JournalView = Pick<AgentSessionUpdate, 'kind' | 'raw' | 'messageId' | 'text'>;

const ROLE: Readonly<Record<string, 'user' | 'agent' | 'thought'>> = {
  user_message_chunk: 'user',
  agent_message_chunk: 'agent',
  agent_thought_chunk: 'thought',
};
const TEXT_ROLES = ['agent', 'thought'] as const;
/** Stands for a non-text content block in a piece's text (U+FFFC OBJECT REPLACEMENT CHARACTER). */
const OBJECT = '\uFFFC';
/** User text an agent adds to its own history after a cancelled turn (claude-agent-acp); never a prompt. */
const AGENT_MADE_USER = /^\s*\[Request interrupted by user[^\]\n]*\]\s*$/;
/** The most positions {@link formable} tracks before it gives up (then the texts differ). */
const FORMABLE_MAX_POSITIONS = 20_000;

/** One update as the merge reads it: its kind and text as Silo journals them, its raw form. */
interface View {
  readonly kind: string;
  readonly raw: Raw;
  readonly text?: string | undefined;
  readonly messageId?: string | undefined;
}

/** One piece of conversation: a run of same-role chunks (one text per chunk), or a tool call. */
interface Piece {
  readonly role: 'user' | 'agent' | 'thought' | 'tool';
  readonly texts: string[];
  /** Indices of the updates that make the piece, in order. */
  readonly members: number[];
  readonly messageId?: string | undefined;
  /** A tool call seen only through a permission request (an agent may keep no trace of a refused one). */
  weak?: boolean;
}

interface Turn {
  /** The prompt (undefined for what comes before the first one). */
  readonly user?: Piece;
  readonly body: Piece[];
  /** Journal turns: ended `cancelled`; open: no turn end journaled, or `interrupted`. */
  cancelled?: boolean;
  open?: boolean;
}

const joined = (p: Piece) => p.texts.join('');

function pieceText(v: View): string {
  if (v.text !== undefined) return v.text;
  const content = v.raw.content as { type?: unknown; text?: unknown } | null | undefined;
  if (content?.type === 'text' && typeof content.text === 'string') return content.text;
  return `${OBJECT}${typeof content?.type === 'string' ? content.type : ''}${OBJECT}`;
}

function toolIdOf(v: View): string | undefined {
  const id =
    v.kind === 'permission'
      ? (v.raw.toolCall as Raw | undefined)?.toolCallId
      : v.kind.startsWith('tool_call')
        ? v.raw.toolCallId
        : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * The conversation as pieces. A tool call is a piece where it is first seen — a `tool_call`, or a
 * `tool_call_update` or permission request for an id not seen before (agents that announce a call
 * only through its permission, or patch it before announcing it). Prompts split where their message
 * id changes when `splitPrompts` (a journal: Silo gives each prompt its id). Every other update is
 * ignored, and so is the user text agents add themselves (`[Request interrupted by user]`).
 */
function piecesOf(views: readonly View[], splitPrompts: boolean): Piece[] {
  const pieces: Piece[] = [];
  const everSeen = new Set<string>();
  let turnSeen = new Set<string>();
  const announced = new Set<string>();
  const viaPermission: Piece[] = [];
  views.forEach((v, i) => {
    const role = ROLE[v.kind];
    if (role) {
      const text = pieceText(v);
      if (role === 'user' && AGENT_MADE_USER.test(text)) return;
      const last = pieces.at(-1);
      const split = role === 'user' && splitPrompts && last?.messageId !== v.messageId;
      if (last?.role === role && !split) {
        last.texts.push(text);
        last.members.push(i);
        return;
      }
      if (role === 'user') turnSeen = new Set();
      pieces.push({ role, texts: [text], members: [i], messageId: v.messageId });
      return;
    }
    const id = toolIdOf(v);
    if (id === undefined) return;
    if (v.kind !== 'permission') announced.add(id);
    const fresh = v.kind === 'tool_call' ? !turnSeen.has(id) : !everSeen.has(id);
    everSeen.add(id);
    turnSeen.add(id);
    if (!fresh) return;
    const piece: Piece = { role: 'tool', texts: [id], members: [i] };
    pieces.push(piece);
    if (v.kind === 'permission') viaPermission.push(piece);
  });
  for (const p of viaPermission) if (!announced.has(p.texts[0]!)) p.weak = true;
  return pieces;
}

/** The pieces split into turns at each prompt (the first turn holds what comes before any prompt). */
function turnsOf(pieces: readonly Piece[]): Turn[] {
  const turns: Turn[] = [{ body: [] }];
  for (const p of pieces) {
    if (p.role === 'user') turns.push({ user: p, body: [] });
    else turns.at(-1)!.body.push(p);
  }
  return turns;
}

/** Marks each journal turn cancelled / open from the turn ends Silo journaled. */
function markEnds(turns: readonly Turn[], journal: readonly JournalView[]): void {
  turns.forEach((turn, t) => {
    if (!turn.user) return;
    const from = turn.user.members[0]!;
    const to = turns[t + 1]?.user?.members[0] ?? journal.length;
    const end = journal.slice(from, to).find((u) => u.kind === 'turn_end');
    const reason = end?.raw.stopReason;
    turn.cancelled = reason === 'cancelled';
    turn.open = !end || reason === 'interrupted';
  });
}

/**
 * True when `target` can be made of `chunks` in order with some chunks left out (one side holds a
 * message the other lacks). Gives up, false, past {@link FORMABLE_MAX_POSITIONS} partial matches.
 */
function formable(target: string, chunks: readonly string[]): boolean {
  let at = new Set([0]);
  for (const chunk of chunks) {
    if (chunk === '') continue;
    const next = new Set(at);
    for (const p of at) if (target.startsWith(chunk, p)) next.add(p + chunk.length);
    if (next.size > FORMABLE_MAX_POSITIONS) return false;
    at = next;
  }
  return at.has(target.length);
}

/** Agent text equal where both sides have it: equal, one cut short, or one lacking whole chunks. */
function textAgrees(mine: readonly string[], theirs: readonly string[]): boolean {
  const a = mine.join('');
  const b = theirs.join('');
  return a.startsWith(b) || b.startsWith(a) || formable(a, theirs) || formable(b, mine);
}

const chunksOf = (pieces: readonly Piece[], role: string) =>
  pieces.filter((p) => p.role === role).flatMap((p) => p.texts);
const toolIds = (pieces: readonly Piece[]) => pieces.filter((p) => p.role === 'tool').map(joined);

/** The journal's pieces without the permission-only tool calls the replay does not hold. */
function withoutAbsentWeak(mine: readonly Piece[], theirs: readonly Piece[]): Piece[] {
  const ids = new Set(toolIds(theirs));
  return mine.filter((p) => !p.weak || ids.has(joined(p)));
}

/** Splits a turn's body at its tool calls. */
function segments(body: readonly Piece[]): Piece[][] {
  const out: Piece[][] = [[]];
  for (const p of body) {
    if (p.role === 'tool') out.push([]);
    else out.at(-1)!.push(p);
  }
  return out;
}

/**
 * Whether two bodies of one turn hold the same conversation: the same tool calls (in order, or in
 * another order when `regrouped`… tools are then compared over the whole conversation instead), and
 * text that agrees for the whole turn and, when the tool calls line up, between each two of them.
 */
function sameBody(mineIn: readonly Piece[], theirs: readonly Piece[], regrouped: boolean): boolean {
  const mine = withoutAbsentWeak(mineIn, theirs);
  for (const role of TEXT_ROLES) if (!textAgrees(chunksOf(mine, role), chunksOf(theirs, role))) return false;
  if (regrouped) return true;
  const a = toolIds(mine);
  const b = toolIds(theirs);
  if (a.join('\n') !== b.join('\n')) return [...a].sort().join('\n') === [...b].sort().join('\n');
  const sa = segments(mine);
  const sb = segments(theirs);
  return sa.every((s, i) =>
    TEXT_ROLES.every((role) => textAgrees(chunksOf(s, role), chunksOf(sb[i]!, role))),
  );
}

/** A journal turn and the replay turn that holds it (none: the agent left it out). */
interface Pair {
  readonly mine: number;
  readonly theirs?: number;
}

/** Where the alignment stopped: the pairs, and where the replay's new turns start (if it has any). */
interface Alignment {
  readonly pairs: Pair[];
  /** Replay update index where its first turn the journal lacks starts. */
  readonly newFrom?: number;
}

/**
 * Aligns the journal's prompts with the replay's. A replay run of user chunks may hold several
 * prompts (an agent that replays nothing of a turn between them); a journal turn that ended
 * `cancelled` may be missing from the replay (Gemini CLI replays none). Anything else that differs
 * is a verdict.
 */
function alignTurns(mine: readonly Turn[], theirs: readonly Turn[]): Alignment | string {
  const pairs: Pair[] = [];
  let j = 1;
  for (let r = 1; r < theirs.length; r++) {
    const run = theirs[r]!.user!;
    let pos = 0;
    while (pos < run.texts.length) {
      if (j >= mine.length) return { pairs, newFrom: run.members[pos]! };
      const target = joined(mine[j]!.user!);
      let acc = '';
      let q = pos;
      while (q < run.texts.length && acc.length < target.length) acc += run.texts[q++];
      if (acc === target) {
        pairs.push({ mine: j++, ...(q === run.texts.length ? { theirs: r } : {}) });
        pos = q;
      } else if (mine[j]!.cancelled) pairs.push({ mine: j++ });
      else return `the replay's prompt ${r} differs from the journal's prompt ${j}`;
    }
  }
  return { pairs };
}

/**
 * What of a `session/load` replay a journal that holds the session lacks: the turns after the last
 * one both hold, and the rest of a last turn the journal holds only the start of (its message cut
 * short is completed under the journal's message id). Updates right after the known conversation
 * that repeat ones the journal ends with (a tool call's patch, a plan, usage) are left out. A replay
 * that holds less than the journal adds nothing. Anything that differs — another prompt, other tool
 * calls in a turn, text that disagrees — is `cannot-merge`: Silo cannot tell what the journal
 * lacks, so nothing is appended. Never throws.
 *
 * The replay is read as Silo journals it (worker/replay-shape.ts). A replay whose tool calls all
 * moved (Gemini CLI groups them after the last turn) is the same history when it holds the same
 * turns and the same tool calls: nothing is appended (where new ones belong cannot be told).
 */
export function mergeReplay(journal: readonly JournalView[], replay: readonly Raw[]): ReplayMerge {
  const views: View[] = replay.map((raw) => {
    const u = normalizeReplayed(raw);
    return { kind: u.kind, raw, text: u.text };
  });
  const mine = turnsOf(piecesOf(journal, true));
  markEnds(mine, journal);
  const theirs = turnsOf(piecesOf(views, false));
  const aligned = alignTurns(mine, theirs);
  if (typeof aligned === 'string') return { verdict: 'cannot-merge', reason: aligned };
  const inTurn = compare(mine, theirs, aligned, false);
  if (inTurn === undefined) return append(journal, views, mine, theirs, aligned);
  return aligned.newFrom === undefined && compare(mine, theirs, aligned, true) === undefined
    ? { verdict: 'merged', append: [] }
    : { verdict: 'cannot-merge', reason: inTurn };
}

/** Why the aligned turns differ, or undefined when they hold the same conversation. */
function compare(mine: Turn[], theirs: Turn[], aligned: Alignment, regrouped: boolean): string | undefined {
  if (!sameBody(mine[0]!.body, theirs[0]!.body, regrouped))
    return 'the replay differs before the first prompt';
  const last = aligned.pairs.at(-1);
  const omitted = (pair: Pair) => pair.theirs === undefined && mine[pair.mine]!.cancelled;
  for (const pair of aligned.pairs) {
    if (omitted(pair)) continue; // a cancelled turn the agent does not replay
    const body = pair.theirs === undefined ? [] : theirs[pair.theirs]!.body;
    // The journal's last turn may be cut short; its rest is appended (see append).
    if (pair === last && mine[pair.mine]!.open && startOf(mine[pair.mine]!.body, body)) continue;
    if (!sameBody(mine[pair.mine]!.body, body, regrouped)) return `the replay differs in turn ${pair.mine}`;
  }
  if (regrouped) {
    const kept = new Set(aligned.pairs.filter((p) => !omitted(p)).map((p) => p.mine));
    const ours = mine.filter((_, i) => i === 0 || kept.has(i)).flatMap((t) => t.body);
    const all = theirs.flatMap((t) => t.body);
    const a = toolIds(withoutAbsentWeak(ours, all)).sort();
    if (a.join('\n') !== toolIds(all).sort().join('\n')) return 'the replay holds other tool calls';
  }
  return undefined;
}

/** True when `mine` is the start of `theirs`, its last piece possibly a message cut short. */
function startOf(mineIn: readonly Piece[], theirs: readonly Piece[]): boolean {
  const mine = withoutAbsentWeak(mineIn, theirs);
  if (mine.length > theirs.length) return false;
  return mine.every((p, i) => {
    const other = theirs[i]!;
    if (p.role !== other.role) return false;
    if (i < mine.length - 1 || p.role === 'tool' || p.role === 'user') return joined(p) === joined(other);
    return joined(other).startsWith(joined(p));
  });
}

/** The last update index of a turn's pieces, if it has any. */
function lastMember(turn: Turn): number | undefined {
  return [turn.user, ...turn.body]
    .filter((p): p is Piece => p !== undefined)
    .at(-1)
    ?.members.at(-1);
}

/** The updates to append once the turns agree (see {@link mergeReplay}). */
function append(
  journal: readonly JournalView[],
  views: readonly View[],
  mine: readonly Turn[],
  theirs: readonly Turn[],
  aligned: Alignment,
): ReplayMerge {
  const last = aligned.pairs.at(-1);
  // The journal goes on past the replay's last turn: the agent holds less, nothing to add.
  if (last ? last.mine < mine.length - 1 : mine.length > 1) return { verdict: 'merged', append: [] };
  const lastMine = last ? mine[last.mine]! : mine[0]!;
  const lastTheirs = last ? (last.theirs === undefined ? undefined : theirs[last.theirs]) : theirs[0]!;
  const out: Raw[] = [];
  let from: number;
  if (!lastTheirs) from = aligned.newFrom ?? views.length;
  else if (last && lastMine.open && startOf(lastMine.body, lastTheirs.body)) {
    // The journal holds only the start of its last turn: the rest of it follows.
    const cut = withoutAbsentWeak(lastMine.body, lastTheirs.body);
    const mineLast = cut.at(-1);
    const match = lastTheirs.body[cut.length - 1];
    from = (match ?? lastTheirs.user!).members.at(-1)! + 1;
    const length = mineLast ? joined(mineLast).length : 0;
    if (mineLast && match && joined(match).length > length) {
      const rest = completeMessage(journal[mineLast.members.at(-1)!]!, length, match, views);
      if (!rest) return { verdict: 'cannot-merge', reason: 'the cut message continues with other content' };
      out.push(...rest.append);
      from = rest.from;
    }
  } else from = (lastMember(lastTheirs) ?? -1) + 1;
  // Updates right after the known conversation may repeat what the journal ends with.
  const lastPiece = [lastMine.user, ...lastMine.body].filter((p): p is Piece => p !== undefined).at(-1);
  const seen = new Set(
    journal.slice(lastPiece?.members[0] ?? journal.length).map((u) => JSON.stringify(u.raw)),
  );
  let known = true;
  for (let i = from; i < views.length; i++) {
    const v = views[i]!;
    if (ROLE[v.kind] || v.kind === 'tool_call') known = false;
    if (known && seen.has(JSON.stringify(v.raw))) continue;
    out.push(v.raw);
  }
  return { verdict: 'merged', append: out };
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
  match: Piece,
  views: readonly View[],
): { append: Raw[]; from: number } | undefined {
  // A message whose text Silo reshaped (Gemini's markers cut) cannot be cut by the agent's offsets.
  if (match.members.some((m) => views[m]!.text !== undefined && views[m]!.text !== rawText(views[m]!.raw)))
    return undefined;
  let consumed = 0;
  let at = 0;
  for (; at < match.members.length; at++) {
    const next = consumed + match.texts[at]!.length;
    if (next > length) break;
    consumed = next;
  }
  const boundary = views[match.members[at]!]!.raw;
  const out: Raw[] = [];
  let boundaryId: unknown;
  if (consumed < length) {
    // The journal ends inside this chunk: only text can be cut.
    const content = boundary.content as Raw | undefined;
    if (content?.type !== 'text' || typeof content.text !== 'string') return undefined;
    boundaryId = boundary.messageId;
    out.push(
      withId(
        { ...boundary, content: { ...content, text: content.text.slice(length - consumed) } },
        lastChunk,
      ),
    );
  } else {
    // The journal ends between two chunks: the next one continues its message if the ids say so.
    boundaryId = at > 0 ? views[match.members[at - 1]!]!.raw.messageId : undefined;
    out.push(boundary.messageId === boundaryId ? withId(boundary, lastChunk) : boundary);
  }
  const last = match.members.at(-1)!;
  for (let i = match.members[at]! + 1; i <= last; i++) {
    const raw = views[i]!.raw;
    out.push(ROLE[String(raw.sessionUpdate)] && raw.messageId === boundaryId ? withId(raw, lastChunk) : raw);
  }
  return { append: out, from: last + 1 };
}

function rawText(raw: Raw): string | undefined {
  const content = raw.content as { type?: unknown; text?: unknown } | undefined;
  return content?.type === 'text' && typeof content.text === 'string' ? content.text : undefined;
}

function withId(raw: Raw, lastChunk: Pick<AgentSessionUpdate, 'messageId'>): Raw {
  const { messageId: _, ...rest } = raw;
  return lastChunk.messageId ? { ...rest, messageId: lastChunk.messageId } : rest;
}
