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
import { normalizeReplayed } from './normalize.ts';
import {
  type JournalView,
  joined,
  markJournalTurns,
  type Piece,
  piecesOf,
  ROLE,
  type Turn,
  turnsOf,
  type View,
} from './replay-turns.ts';

export type { JournalView };

/** The result of {@link mergeReplay}. */
export type ReplayMerge =
  | { readonly verdict: 'merged'; readonly append: readonly Raw[] }
  | { readonly verdict: 'cannot-merge'; readonly reason: string };

const TEXT_ROLES = ['agent', 'thought'] as const;
/** The most positions {@link formable} tracks before it gives up (then the texts differ). */
const FORMABLE_MAX_POSITIONS = 20_000;

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

/**
 * A journal turn's pieces to compare with the replay's (`theirs`), without the tool calls the
 * replay lacks that an agent may keep no trace of: one seen only through its permission request (a
 * refused one), and any of a turn that was cancelled or cut off (Codex replays a turn its page died
 * in as its prompt alone, and drops the unfinished calls of a cancelled one).
 */
function comparable(turn: Turn, theirs: readonly Piece[]): Piece[] {
  const ids = new Set(toolIds(theirs));
  const loose = turn.cancelled || turn.open;
  return turn.body.filter((p) => p.role !== 'tool' || ids.has(joined(p)) || !(p.weak || loose));
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
function sameBody(turn: Turn, theirs: readonly Piece[], regrouped: boolean): boolean {
  const mine = comparable(turn, theirs);
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
 * Where the texts of a replay run, from `pos` on, spell `target` whole chunk by chunk: the index
 * after them, or -1.
 */
function spelled(run: Piece, pos: number, target: string): number {
  let acc = '';
  let q = pos;
  while (q < run.texts.length && acc.length < target.length) acc += run.texts[q++];
  return acc === target ? q : -1;
}

/**
 * A journal turn an agent may leave out of its replay: a cancelled one (Gemini CLI replays none),
 * or a command the agent ran itself (claude-agent-acp's `/context`, Codex's `/status`, Copilot
 * CLI's `/context` leave no trace in their history).
 */
const omittable = (turn: Turn) => turn.cancelled || turn.command;

/**
 * Aligns the journal's prompts with the replay's. A replay run of user chunks may hold several
 * prompts (an agent that replays nothing of a turn between them); journal turns the agent may leave
 * out ({@link omittable}) may be missing; a command may be replayed as the prompt it stands for
 * (OpenCode replays `/init` as its instructions) when the turn agrees otherwise. Anything else that
 * differs is a verdict.
 */
function alignTurns(mine: readonly Turn[], theirs: readonly Turn[]): Alignment | string {
  const pairs: Pair[] = [];
  let j = 1;
  for (let r = 1; r < theirs.length; r++) {
    const run = theirs[r]!.user!;
    const end = run.texts.length;
    let pos = 0;
    const at = (k: number) => (k < mine.length ? spelled(run, pos, joined(mine[k]!.user!)) : -1);
    while (pos < end) {
      if (j >= mine.length) return { pairs, newFrom: run.members[pos]! };
      const q = at(j);
      if (q >= 0) {
        pairs.push({ mine: j++, ...(q === end ? { theirs: r } : {}) });
        pos = q;
        continue;
      }
      // Left out: the turns up to one the replay holds here.
      let k = j + 1;
      while (k < mine.length && omittable(mine[k - 1]!) && at(k) < 0) k++;
      if (k < mine.length && omittable(mine[k - 1]!)) {
        while (j < k) pairs.push({ mine: j++ });
        continue;
      }
      if (mine[j]!.command) {
        // Replayed as what it stands for: the run up to where the next prompt starts.
        let q = pos + 1;
        const next = mine[j + 1]?.user;
        while (q < end && (!next || spelled(run, q, joined(next)) < 0)) q++;
        const body = q === end ? theirs[r]!.body : [];
        // A command that is the journal's last turn, followed by a turn of the agent's that holds
        // another conversation, was left out: that turn is new.
        if (q < end || j + 1 < mine.length || sameBody(mine[j]!, body, false)) {
          pairs.push({ mine: j++, ...(q === end ? { theirs: r } : {}) });
          pos = q;
          continue;
        }
      }
      if (!omittable(mine[j]!)) return `the replay's prompt ${r} differs from the journal's prompt ${j}`;
      pairs.push({ mine: j++ });
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
  markJournalTurns(mine, journal);
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
  if (!sameBody(mine[0]!, theirs[0]!.body, regrouped)) return 'the replay differs before the first prompt';
  const last = aligned.pairs.at(-1);
  const omitted = (pair: Pair) => pair.theirs === undefined && omittable(mine[pair.mine]!);
  for (const pair of aligned.pairs) {
    if (omitted(pair)) continue; // a turn the agent does not replay
    const body = pair.theirs === undefined ? [] : theirs[pair.theirs]!.body;
    // The journal's last turn may be cut short; its rest is appended (see append).
    if (pair === last && mine[pair.mine]!.open && startOf(mine[pair.mine]!, body)) continue;
    if (!sameBody(mine[pair.mine]!, body, regrouped)) return `the replay differs in turn ${pair.mine}`;
  }
  if (regrouped) {
    const kept = new Set(aligned.pairs.filter((p) => !omitted(p)).map((p) => p.mine));
    const all = theirs.flatMap((t) => t.body);
    const ours = mine.filter((_, i) => i === 0 || kept.has(i)).flatMap((t) => comparable(t, all));
    const a = toolIds(ours).sort();
    if (a.join('\n') !== toolIds(all).sort().join('\n')) return 'the replay holds other tool calls';
  }
  return undefined;
}

/** True when `mine` is the start of `theirs`, its last piece possibly a message cut short. */
function startOf(turn: Turn, theirs: readonly Piece[]): boolean {
  const mine = comparable(turn, theirs);
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
  else if (last && lastMine.open && startOf(lastMine, lastTheirs.body)) {
    // The journal holds only the start of its last turn: the rest of it follows.
    const cut = comparable(lastMine, lastTheirs.body);
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
