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
 *
 * The turns are aligned in worker/replay-align.ts and their bodies compared in
 * worker/replay-bodies.ts; this module gives the verdict and what to append.
 */

import type { Raw } from '../src/json.ts';
import type { AgentSessionUpdate } from '../src/types.ts';
import { normalizeReplayed } from './normalize.ts';
import { type Alignment, alignTurns, omittable, type Pair } from './replay-align.ts';
import { comparable, sameBody, startOf, toolIds } from './replay-bodies.ts';
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
