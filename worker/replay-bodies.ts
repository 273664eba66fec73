/**
 * Comparing what follows one prompt on both sides of a replay merge (worker/replay-merge.ts): a
 * journal turn's body against the replay's, by the tool call ids they hold and the agent text and
 * thought they spell. Text agrees where both sides have it: equal, one cut short, or one lacking
 * whole chunks (a message only one side has). Pure.
 */

import { joined, type Piece, type Turn } from './replay-turns.ts';

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
/** The ids of the tool calls among `pieces`, in order. */
export const toolIds = (pieces: readonly Piece[]) => pieces.filter((p) => p.role === 'tool').map(joined);

/**
 * A journal turn's pieces to compare with the replay's (`theirs`), without the tool calls the
 * replay lacks that an agent may keep no trace of: one seen only through its permission request (a
 * refused one), and any of a turn that was cancelled or cut off (Codex replays a turn its page died
 * in as its prompt alone, and drops the unfinished calls of a cancelled one).
 */
export function comparable(turn: Turn, theirs: readonly Piece[]): Piece[] {
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
export function sameBody(turn: Turn, theirs: readonly Piece[], regrouped: boolean): boolean {
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

/** True when `mine` is the start of `theirs`, its last piece possibly a message cut short. */
export function startOf(turn: Turn, theirs: readonly Piece[]): boolean {
  const mine = comparable(turn, theirs);
  if (mine.length > theirs.length) return false;
  return mine.every((p, i) => {
    const other = theirs[i]!;
    if (p.role !== other.role) return false;
    if (i < mine.length - 1 || p.role === 'tool' || p.role === 'user') return joined(p) === joined(other);
    return joined(other).startsWith(joined(p));
  });
}
