/**
 * A session's journal writer: appends are serialized — one transaction per burst, never reordered,
 * never with holes — so the journal is always a prefix of what arrived. After a failed write the
 * writer stops (a later write would leave a hole) and every later append rejects with the same
 * `journal-write` error. Once the session's read-back gave it the journal's fold ({@link
 * SessionWriter.fold}), it folds each update it appends and keeps the fold beside the updates it
 * covers (worker/journal-fold.ts). worker/journal.ts keeps one per session.
 */
import { type IDBPDatabase, unwrap } from 'idb';
import { SiloError } from '../src/errors.ts';
import type { AgentSessionUpdate } from '../src/types.ts';
import { type JournalFold, KEEP_EVERY, type Learned } from './journal-fold.ts';
import {
  type JournalSchema,
  type LearnedRecord,
  MAX_SEGMENT,
  type Segment,
  type SessionRecord,
} from './journal-schema.ts';

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
  /** The fold of everything appended, once {@link fold} built it. */
  private folded: JournalFold | undefined;
  /** While {@link fold} reads the journal: the updates appended meanwhile. */
  private unfolded: AgentSessionUpdate[] | undefined;
  private folding: Promise<JournalFold> | undefined;
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
      if (this.folded) this.folded.add(u);
      else this.unfolded?.push(u);
    }
    this.pump();
  }

  /**
   * The fold of this session's journal and of everything appended since (built once: what is
   * appended is committed first, `read` folds the journal up to there, and what was appended
   * meanwhile is folded after it); from then on each append is folded as it comes. Rejects with
   * `read`'s error.
   */
  fold(read: (end: number) => Promise<JournalFold>): Promise<JournalFold> {
    this.folding ??= (async () => {
      this.unfolded = [];
      await this.flushed().catch(() => {});
      const fold = await read(this.committedSeq);
      for (const u of this.unfolded) if (u.seq! >= fold.seq) fold.add(u);
      this.unfolded = undefined;
      this.folded = fold;
      this.pump(); // a fold read from far before its end is kept at once
      return fold;
    })();
    this.folding.catch(() => {
      this.folding = this.unfolded = undefined;
    });
    return this.folding;
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
    if (this.writing || this.failure) return;
    const keep = this.keepDue() ? this.folded!.snapshot() : undefined;
    if (this.queue.length === 0 && !keep) return;
    const batch = this.queue.splice(0, this.queue.length);
    if (keep) this.folded!.kept = keep.seq;
    this.writing = this.write(batch, keep).then(
      () => {
        this.writing = undefined;
        this.committedSeq = (batch.at(-1)?.seq ?? this.committedSeq - 1) + 1;
        if (batch.length) this.onCommit(batch);
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

  /** Whether the next write keeps the fold: {@link KEEP_EVERY} updates since it was kept, or a turn ended. */
  private keepDue(): boolean {
    const fold = this.folded;
    if (!fold || fold.seq === fold.kept) return false;
    return fold.seq - fold.kept >= KEEP_EVERY || this.queue.some((u) => u.kind === 'turn_end');
  }

  /**
   * One transaction for the batch, and for the fold to keep, if any (it covers the batch: a fold is
   * never kept without the updates it read), settled by the transaction's end: it resolves once the
   * transaction commits and rejects with its error once it aborts, so a failed put rejects this write
   * and nothing rejects unhandled. A request that cannot even be made (an update IndexedDB cannot
   * clone throws at once) aborts the transaction first: none of the batch is kept, so the journal
   * stays the prefix the writer reports. This is the journal's one hot path (a flood writes every
   * few milliseconds), so it speaks IndexedDB's own API rather than through `idb`'s promise wrappers,
   * which cost the worker more CPU per update than the writes' own calls (docs/performance.md, #1).
   */
  private write(batch: AgentSessionUpdate[], keep: Learned | undefined): Promise<void> {
    let tx: IDBTransaction;
    try {
      tx = unwrap(this.db).transaction(['segments', 'sessions', 'learned'], 'readwrite', {
        durability: 'relaxed',
      });
    } catch (error) {
      return Promise.reject(error); // the database closed (a newer tab upgrades it)
    }
    const done = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onabort = () => reject(tx.error ?? new DOMException('The journal write was aborted', 'AbortError'));
    });
    try {
      const segments = tx.objectStore('segments');
      for (let i = 0; i < batch.length; i += MAX_SEGMENT) {
        const updates = batch.slice(i, i + MAX_SEGMENT);
        segments.put({ sessionId: this.sessionId, seq: updates[0]!.seq!, updates } satisfies Segment);
      }
      if (batch.length) {
        const sessions = tx.objectStore('sessions');
        const read = sessions.get(this.sessionId);
        const nextSeq = batch.at(-1)!.seq! + 1;
        read.onsuccess = () => {
          const record = read.result as SessionRecord | undefined;
          try {
            if (record) sessions.put({ ...record, nextSeq, updatedAt: new Date().toISOString() });
          } catch {
            tx.abort(); // rejects this write (never an error thrown out of the worker's event)
          }
        };
      }
      if (keep) tx.objectStore('learned').put({ ...keep, sessionId: this.sessionId } satisfies LearnedRecord);
    } catch (error) {
      try {
        tx.abort();
      } catch {
        // Already finished (aborted by the failure itself).
      }
      return done.then(
        () => Promise.reject(error),
        () => Promise.reject(error),
      );
    }
    return done;
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
