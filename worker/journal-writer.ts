/**
 * A session's journal writer: appends are serialized — one transaction per burst, never reordered,
 * never with holes — so the journal is always a prefix of what arrived. After a failed write the
 * writer stops (a later write would leave a hole) and every later append rejects with the same
 * `journal-write` error. worker/journal.ts keeps one per session.
 */
import type { IDBPDatabase } from 'idb';
import { SiloError } from '../src/errors.ts';
import type { AgentSessionUpdate } from '../src/types.ts';
import { type JournalSchema, MAX_SEGMENT } from './journal-schema.ts';

/**
 * Appends one session's updates in order. `append` assigns nothing: callers pass updates whose `seq`
 * they assigned synchronously; the writer checks the sequence is gapless. `flushed()` resolves when
 * everything appended so far is committed.
 */
export class SessionWriter {
  private queue: AgentSessionUpdate[] = [];
  private writing: Promise<void> | undefined;
  private failure: SiloError | undefined;
  private committedSeq: number;
  private readonly waiters: { seq: number; resolve: () => void; reject: (e: unknown) => void }[] = [];
  /** Called after each commit with the updates it made durable, in order. */
  onCommit: (updates: AgentSessionUpdate[]) => void = () => {};
  /** Called once when a write fails; the writer is stopped from then on. */
  onFailure: (error: SiloError) => void = () => {};

  constructor(
    private readonly db: IDBPDatabase<JournalSchema>,
    readonly sessionId: string,
    /** The seq the next appended update must have. */
    public nextSeq: number,
  ) {
    this.committedSeq = nextSeq;
  }

  /** The error that stopped this writer, if any. */
  get error(): SiloError | undefined {
    return this.failure;
  }

  /** Queues updates (seq must continue the sequence); they are written in the next transaction. */
  append(updates: AgentSessionUpdate[]): void {
    if (this.failure) return;
    for (const u of updates) {
      if (u.seq !== this.nextSeq)
        throw SiloError.internal(`journal sequence gap: ${u.seq} after ${this.nextSeq - 1}`);
      this.nextSeq++;
      this.queue.push(u);
    }
    this.pump();
  }

  /** Resolves once every update appended so far is committed; rejects with the write error. */
  flushed(): Promise<void> {
    return this.committed(this.nextSeq - 1);
  }

  /**
   * Resolves once update `seq` is committed, after {@link onCommit} has been called with it (so its
   * batch has been handed on); rejects with the write error if it never will be.
   */
  committed(seq: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (seq < this.committedSeq) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ seq: seq + 1, resolve, reject }));
  }

  private pump(): void {
    if (this.writing || this.queue.length === 0 || this.failure) return;
    const batch = this.queue.splice(0, this.queue.length);
    this.writing = this.write(batch).then(
      () => {
        this.writing = undefined;
        this.committedSeq = (batch.at(-1)?.seq ?? this.committedSeq - 1) + 1;
        this.onCommit(batch);
        this.settleWaiters();
        this.pump();
      },
      (error: unknown) => {
        this.writing = undefined;
        this.failure = new SiloError(
          'journal-write',
          `The journal could not be written (${error instanceof Error ? error.name : String(error)}): nothing after update ${this.committedSeq - 1} was kept`,
          { committedSeq: this.committedSeq },
        );
        this.queue = [];
        for (const w of this.waiters.splice(0)) w.reject(this.failure);
        this.onFailure(this.failure);
      },
    );
  }

  /**
   * One transaction for the batch. Every request is awaited with the transaction (`tx.done`), so a
   * failed put rejects this write and nothing rejects unhandled. A request that cannot even be made
   * (an update IndexedDB cannot clone throws at once) aborts the transaction first: none of the
   * batch is kept, so the journal stays the prefix the writer reports.
   */
  private async write(batch: AgentSessionUpdate[]): Promise<void> {
    const tx = this.db.transaction(['segments', 'sessions'], 'readwrite', { durability: 'relaxed' });
    const segments = tx.objectStore('segments');
    const sessions = tx.objectStore('sessions');
    const requests: Promise<unknown>[] = [tx.done];
    try {
      const record = await sessions.get(this.sessionId);
      for (let i = 0; i < batch.length; i += MAX_SEGMENT) {
        const updates = batch.slice(i, i + MAX_SEGMENT);
        requests.push(segments.put({ sessionId: this.sessionId, seq: updates[0]!.seq!, updates }));
      }
      if (record) {
        const nextSeq = batch.at(-1)!.seq! + 1;
        requests.push(sessions.put({ ...record, nextSeq, updatedAt: new Date().toISOString() }));
      }
    } catch (error) {
      try {
        tx.abort();
      } catch {
        // Already finished (aborted by the failure itself).
      }
      await Promise.allSettled(requests);
      throw error;
    }
    await Promise.all(requests);
  }

  private settleWaiters(): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const w = this.waiters[i]!;
      if (w.seq <= this.committedSeq) {
        this.waiters.splice(i, 1);
        w.resolve();
      }
    }
  }
}
