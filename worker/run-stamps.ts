/**
 * Arrival times in the journal: the first update of each run the agent sends live — a message, a
 * thought, a tool call's updates — carries the time it arrived (`timestamp`), so a transcript can
 * tell how long a thought or a step lasted without a time on every streamed chunk.
 * @packageDocumentation
 */
import type { AgentSessionUpdate } from '../src/types.ts';

/** Stamps the first update of each run of one session's live updates. */
export class RunStamps {
  #last = '';

  /**
   * `u`, with the time now when it starts a run; a replay's updates (from the past) get none, and nor
   * does a `user_message_chunk` the agent sends: a timestamped user chunk is Silo's own prompt (the
   * public contract of {@link AgentSessionUpdate}), so stamping the agent's would pass it off as one.
   */
  stamp(u: AgentSessionUpdate, replaying: boolean): AgentSessionUpdate {
    const run = `${u.kind}\u0000${u.messageId ?? u.toolCall?.toolCallId ?? ''}`;
    if (replaying || run === this.#last) return u;
    this.#last = run;
    if (u.timestamp || u.kind === 'user_message_chunk') return u;
    return { ...u, timestamp: new Date().toISOString() };
  }

  /** A turn ended: the next update starts a run, whatever it is. */
  reset(): void {
    this.#last = '';
  }
}
