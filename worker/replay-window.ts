/**
 * A `session/load`'s replay window (worker/open.ts opens and ends it): while it is open, id-less
 * chunks get replay ids ({@link MessageIdSynthesizer.replaying}) and, when the journal already holds
 * the session, the conversation the agent replays is held for the merge (worker/replay-merge.ts)
 * instead of journaled. What is no part of any conversation (commands, title, usage, mode, a notice)
 * is journaled as it arrives either way, so a merge that fails loses none of it.
 */
import type { Raw } from '../src/json.ts';
import type { MessageIdSynthesizer } from './normalize.ts';

/**
 * The kinds of update that make the conversation a replay holds (by the agent's `sessionUpdate`):
 * the only ones held for the merge, and so the only ones it reads.
 */
export const HISTORY_KINDS: ReadonlySet<string> = new Set([
  'user_message_chunk',
  'agent_message_chunk',
  'agent_thought_chunk',
  'tool_call',
  'tool_call_update',
  'plan',
  'compaction_update',
  'compaction_summary_chunk',
]);

export class ReplayWindow {
  private buffer: Raw[] | undefined;
  private whole = false;

  constructor(private readonly ids: MessageIdSynthesizer) {}

  /**
   * Opens the window; with `buffer` the replay's conversation is held there for the merge. `whole`:
   * everything the agent replays is held, its state too (a fork's replay: the journal it carries
   * has all of it already, worker/fork.ts).
   */
  start(buffer: Raw[] | undefined, whole = false): void {
    this.buffer = buffer;
    this.whole = whole && buffer !== undefined;
    this.ids.replaying = true;
  }

  end(): void {
    this.buffer = undefined;
    this.whole = false;
    this.ids.replaying = false;
  }

  /** True while a replay is held for a merge (the journal holds what the agent is replaying). */
  get merging(): boolean {
    return this.buffer !== undefined;
  }

  /** Holds `update` for the merge and says true when it is part of a conversation being merged. */
  hold(update: Raw): boolean {
    if (!this.buffer || (!this.whole && !HISTORY_KINDS.has(String(update.sessionUpdate)))) return false;
    this.buffer.push(update);
    return true;
  }
}
