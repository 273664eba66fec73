/**
 * Aligning the turns of a replay merge (worker/replay-merge.ts): which journal turn each of the
 * replay's prompts holds, which journal turns the agent left out of its replay, and where the
 * replay's turns the journal lacks start. Turns are matched by their prompts' text; a body is looked
 * at only to tell a command the agent replayed as what it stands for. Pure.
 */

import { sameBody } from './replay-bodies.ts';
import { joined, type Piece, type Turn } from './replay-turns.ts';

/** A journal turn and the replay turn that holds it (none: the agent left it out). */
export interface Pair {
  readonly mine: number;
  readonly theirs?: number;
}

/** Where the alignment stopped: the pairs, and where the replay's new turns start (if it has any). */
export interface Alignment {
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
export const omittable = (turn: Turn) => turn.cancelled || turn.command;

/**
 * Aligns the journal's prompts with the replay's. A replay run of user chunks may hold several
 * prompts (an agent that replays nothing of a turn between them); journal turns the agent may leave
 * out ({@link omittable}) may be missing; a command may be replayed as the prompt it stands for
 * (OpenCode replays `/init` as its instructions) when the turn agrees otherwise. Anything else that
 * differs is a verdict: the reason, returned as a string.
 */
export function alignTurns(mine: readonly Turn[], theirs: readonly Turn[]): Alignment | string {
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
