/**
 * Restore decisions, as pure functions the session calls and tests call directly (docs/restore.md):
 * - {@link journalHolding}: what the journal holds of a session (nothing, a turn left open, or whole);
 * - {@link restoreMethods}: which of `session/resume` and `session/load` to try, in which order;
 * The merge of a `session/load` replay into a journal that holds the session is worker/replay-merge.ts.
 */

import { isSiloPrompt } from '../src/prompt-ids.ts';
import type { AgentSessionUpdate } from '../src/types.ts';

/** An ACP method that restores a session. */
export type RestoreMethod = 'session/resume' | 'session/load';

/**
 * What the journal holds of the session:
 * - `empty` — nothing (another browser, cleared storage, a session listed `loadable`);
 * - `open-turn` — a prompt Silo sent whose turn end it never journaled (the page died mid-turn);
 * - `complete` — every turn Silo sent ended in the journal (or it holds a replay and nothing since).
 */
export type JournalHolding = 'empty' | 'open-turn' | 'complete';

/** What the journal holds once one more update is journaled after holding `h`, in journal order. */
export function holdingAfter(
  h: JournalHolding,
  u: Pick<AgentSessionUpdate, 'kind' | 'messageId'>,
): JournalHolding {
  if (u.kind === 'turn_end') return 'complete';
  if (isSiloPrompt(u)) return 'open-turn';
  return h === 'empty' ? 'complete' : h;
}

/** Reads {@link JournalHolding} from a session's journaled updates, in journal order. */
export function journalHolding(
  journal: readonly Pick<AgentSessionUpdate, 'kind' | 'messageId'>[],
): JournalHolding {
  return journal.reduce(holdingAfter, 'empty' as JournalHolding);
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
