/**
 * Times in a transcript, from the journal's timestamps: how long the agent thought (each run of a
 * thought's chunks, to the next update that carries a time: the worker stamps the first update of each
 * live run, worker/run-stamps.ts). A turn's own time is the usage model's (src/usage.ts), not this.
 * Journals without timestamps (older ones, replays) give no times. Pure; never throws.
 * @packageDocumentation
 */
import type { AgentSessionUpdate } from '../types.ts';
import type { MessageRow, TranscriptRow } from './rows.ts';

/** The time an update carries, in ms since the epoch, or NaN. */
export const timeOf = (u: AgentSessionUpdate): number =>
  typeof u.timestamp === 'string' ? Date.parse(u.timestamp) : Number.NaN;

/** The clock of one transcript model. */
export class TurnClock {
  #thinking: { index: number; since: number } | undefined;

  /** A turn starts (its prompt opens a row): nothing is timed yet. */
  startTurn(): void {
    this.#thinking = undefined;
  }

  /**
   * An update that carries its time `at` arrived (`thought`: a thought's chunk): the open run of
   * thinking, if this ends it, is added to its row's `durationMs` in `rows` (the row is replaced).
   */
  arrived(rows: TranscriptRow[], at: number, thought: boolean): void {
    if (!thought) this.#close(rows, at);
  }

  /**
   * A message chunk of `role` that carries its time `at` went to row `index` of `rows`: a thought's
   * begins a run of thinking (ending another thought's). Returns `index`.
   */
  went(rows: TranscriptRow[], index: number, role: MessageRow['role'], at: number): number {
    if (role !== 'thought' || index < 0 || Number.isNaN(at)) return index;
    if (this.#thinking && this.#thinking.index !== index) this.#close(rows, at);
    this.#thinking ??= { index, since: at };
    return index;
  }

  #close(rows: TranscriptRow[], at: number): void {
    const open = this.#thinking;
    if (!open || Number.isNaN(at)) return;
    this.#thinking = undefined;
    const row = rows[open.index] as MessageRow;
    rows[open.index] = { ...row, durationMs: (row.durationMs ?? 0) + Math.max(0, at - open.since) };
  }
}
