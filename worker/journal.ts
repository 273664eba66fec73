/**
 * The journal: every update of every session, in IndexedDB through `idb`.
 *
 * Layout ({@link MIGRATIONS}): `sessions` holds one {@link SessionRecord} per session; `segments`
 * holds the updates as segments — one record per burst of appends, keyed `[sessionId, firstSeq]` —
 * because IndexedDB stores fewer records per second than a flood delivers updates.
 * Appends are serialized: one transaction per burst, never reordered, never with holes, so the journal
 * is always a prefix of what arrived. After a failed write the session's writer stops (a later write
 * would leave a hole) and every later append rejects with the same `journal-write` error.
 */
import { type DBSchema, type IDBPDatabase, type IDBPTransaction, openDB, type StoreNames } from 'idb';
import { SiloError } from '../src/errors.ts';
import type { AgentResumeOutcome, AgentSessionSummary, AgentSessionUpdate } from '../src/types.ts';

/** What the journal knows of a session (the history list reads these). */
export interface SessionRecord {
  sessionId: string;
  title?: string;
  agent?: string;
  cwd?: string;
  createdAt: string;
  updatedAt: string;
  lastOutcome?: AgentResumeOutcome;
  continuedBy?: string;
  /** The session this one branched from, and after which of its turns. */
  forkedFrom?: { sessionId: string; turn: number };
  /** The config options the user last chose in this session, by id (set again after a restore). */
  choices?: Record<string, string | boolean>;
  /** The title the user gave the session (`rename`): it wins over {@link title}, the agent's or a prompt's. */
  userTitle?: string;
  /** An imported session: the id it had where it was exported (its export's header), if it said. */
  importedFrom?: string;
  /** An imported session: a fingerprint of its updates, to know the same export when it comes again. */
  fingerprint?: string;
  /** Sequence number of the next update; also the number of updates journaled. */
  nextSeq: number;
}

/** One record of the `segments` store: consecutive updates of one session. */
export interface Segment {
  sessionId: string;
  seq: number;
  updates: AgentSessionUpdate[];
}

interface JournalSchema extends DBSchema {
  sessions: { key: string; value: SessionRecord; indexes: { updatedAt: string } };
  segments: { key: [string, number]; value: Segment };
}

/** Most updates in one segment record, so a record stays small enough to read a tail quickly. */
const MAX_SEGMENT = 1000;

/**
 * One schema upgrade: `MIGRATIONS[v]` takes the database from version `v` to `v + 1`, inside the
 * upgrade transaction (stores that exist already are reached through `tx`).
 */
export type JournalMigration = (
  db: IDBPDatabase<JournalSchema>,
  tx: IDBPTransaction<JournalSchema, StoreNames<JournalSchema>[], 'versionchange'>,
) => void;

/** The journal's schema history; its length is the database version. */
export const MIGRATIONS: readonly JournalMigration[] = [
  (d) => {
    d.createObjectStore('sessions', { keyPath: 'sessionId' }).createIndex('updatedAt', 'updatedAt');
    d.createObjectStore('segments', { keyPath: ['sessionId', 'seq'] });
  },
];

/**
 * Opens the journal database once (upgrading it through `migrations`) and returns a function that
 * gives the open {@link Journal}. It never hangs on another tab:
 * - while an upgrade is blocked by a tab that keeps an older version open and does not give way,
 *   every call rejects at once with `journal-write`; the upgrade waits, and once that tab closes it
 *   completes and calls succeed, with nothing journaled lost;
 * - a database already upgraded by a newer Silo (or IndexedDB unavailable) rejects with
 *   `journal-write`, and the next call tries again;
 * - a journal that gave way to a newer tab's upgrade is closed (writes in flight fail with
 *   `journal-write`), and the next call opens the database again.
 */
export function journalOpener(
  name: string,
  migrations: readonly JournalMigration[] = MIGRATIONS,
): () => Promise<Journal> {
  let opened: Journal | undefined;
  let opening: Promise<Journal> | undefined;
  let blocked: Promise<never> | undefined;
  const start = (): Promise<Journal> => {
    let reportBlocked: (e: SiloError) => void = () => {};
    blocked = new Promise<never>((_, reject) => {
      reportBlocked = reject;
    });
    blocked.catch(() => {});
    let journal: Journal | undefined;
    // Given way to a newer tab's upgrade, or closed by the browser: the next call opens again.
    const forget = () => {
      if (journal && opened === journal) opened = opening = undefined;
    };
    return openDB<JournalSchema>(name, migrations.length, {
      upgrade(d, oldVersion, _newVersion, tx) {
        for (let v = oldVersion; v < migrations.length; v++) migrations[v]!(d, tx);
      },
      blocked() {
        reportBlocked(
          new SiloError(
            'journal-write',
            'The journal cannot be upgraded while another tab keeps an older version of it open: close that tab',
          ),
        );
      },
      // A newer tab wants to upgrade: give way (writes in flight fail with `journal-write`).
      blocking(_current, _next, event) {
        (event.target as IDBDatabase).close();
        forget();
      },
      terminated: forget,
    }).then(
      (db) => {
        journal = new Journal(db);
        opened = journal;
        return journal;
      },
      (error: unknown) => {
        opening = undefined;
        const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        throw new SiloError('journal-write', `The journal could not be opened (${why})`);
      },
    );
  };
  return () => {
    if (opened) return Promise.resolve(opened);
    opening ??= start();
    return Promise.race([opening, blocked!]);
  };
}

const range = (sessionId: string) => IDBKeyRange.bound([sessionId, 0], [sessionId, Number.POSITIVE_INFINITY]);

/** Access to the journal database; one per worker. */
export class Journal {
  private readonly writers = new Map<string, SessionWriter>();

  constructor(readonly db: IDBPDatabase<JournalSchema>) {}

  /** The append-only writer of one session (one per session per worker). */
  writer(sessionId: string, nextSeq: number): SessionWriter {
    let w = this.writers.get(sessionId);
    if (!w) {
      w = new SessionWriter(this.db, sessionId, nextSeq);
      this.writers.set(sessionId, w);
    }
    return w;
  }

  dropWriter(sessionId: string): void {
    this.writers.delete(sessionId);
  }

  session(sessionId: string): Promise<SessionRecord | undefined> {
    return this.db.get('sessions', sessionId);
  }

  /** Creates the session record if missing; updates the given fields otherwise. */
  async upsertSession(sessionId: string, patch: Partial<SessionRecord>): Promise<SessionRecord> {
    const tx = this.db.transaction('sessions', 'readwrite');
    const now = new Date().toISOString();
    const old = await tx.store.get(sessionId);
    const record: SessionRecord = { sessionId, createdAt: now, nextSeq: 0, ...old, ...patch, updatedAt: now };
    await tx.store.put(record);
    await tx.done;
    return record;
  }

  /**
   * Changes fields of an existing session's record, leaving its place in the history (`updatedAt`)
   * as it is; a field given as `undefined` is removed. Resolves to the new record, or undefined when
   * the journal holds no such session.
   */
  async updateRecord(sessionId: string, patch: Partial<SessionRecord>): Promise<SessionRecord | undefined> {
    const tx = this.db.transaction('sessions', 'readwrite');
    const old = await tx.store.get(sessionId);
    if (!old) {
      await tx.done;
      return undefined;
    }
    const record: SessionRecord = { ...old, ...patch, sessionId };
    for (const [k, v] of Object.entries(patch)) if (v === undefined) delete record[k as keyof SessionRecord];
    await tx.store.put(record);
    await tx.done;
    return record;
  }

  /** Every session record, in no particular order (for lookups the history index does not cover). */
  records(): Promise<SessionRecord[]> {
    return this.db.getAll('sessions');
  }

  /** Every journaled update of a session, in order. */
  async read(sessionId: string): Promise<AgentSessionUpdate[]> {
    const segments = await this.db.getAll('segments', range(sessionId));
    return segments.flatMap((s) => s.updates);
  }

  /**
   * The last `count` updates of a session (at least; whole segments), read from the end, so the last
   * screen of a huge transcript is available without reading everything.
   */
  async tail(sessionId: string, count: number): Promise<AgentSessionUpdate[]> {
    const out: AgentSessionUpdate[][] = [];
    let n = 0;
    let cursor = await this.db.transaction('segments').store.openCursor(range(sessionId), 'prev');
    while (cursor && n < count) {
      out.unshift(cursor.value.updates);
      n += cursor.value.updates.length;
      cursor = await cursor.continue();
    }
    return out.flat();
  }

  /** The journaled sessions, newest first; a title the user gave wins over the agent's or a prompt's. */
  async sessions(): Promise<AgentSessionSummary[]> {
    const records = await this.db.getAllFromIndex('sessions', 'updatedAt');
    return records
      .reverse()
      .map(({ nextSeq, userTitle, importedFrom: _, fingerprint: __, choices: ___, ...r }) => ({
        ...r,
        ...(userTitle ? { title: userTitle, renamed: true } : {}),
        updateCount: nextSeq,
      }));
  }

  /** Deletes one session's journal and its record. The only deletion there is. */
  async clear(sessionId: string): Promise<void> {
    const tx = this.db.transaction(['sessions', 'segments'], 'readwrite');
    const sessions = tx.objectStore('sessions');
    // A session continued by this one holds nothing of its own (its updates moved here) and is hidden
    // from the history: it goes too, else its record would stay in storage, never listed again.
    const gone = [sessionId];
    for (let i = 0; i < gone.length; i++) {
      const id = gone[i]!;
      await tx.objectStore('segments').delete(range(id));
      await sessions.delete(id);
      for (const r of await sessions.getAll())
        if (r.continuedBy === id && !r.nextSeq && !gone.includes(r.sessionId)) gone.push(r.sessionId);
    }
    await tx.done;
    for (const id of gone) this.writers.delete(id);
  }

  /**
   * Moves a session's updates under another id (continue in a new session), renumbering them after
   * the target's own, and records the old id as continued by the new one. With `branch`, copies
   * instead the updates before `branch.before` (a branch: the source stays as it is). One transaction.
   */
  async carry(fromId: string, toId: string, branch?: { readonly before: number }): Promise<number> {
    const tx = this.db.transaction(['sessions', 'segments'], 'readwrite');
    const segments = tx.objectStore('segments');
    const all = (await segments.getAll(range(fromId))).flatMap((s) => s.updates);
    const moved = branch ? all.filter((u) => (u.seq ?? 0) < branch.before) : all;
    const target = await tx.objectStore('sessions').get(toId);
    const base = target?.nextSeq ?? 0;
    const renumbered = moved.map((u, i) => ({ ...u, seq: base + i }));
    for (let i = 0; i < renumbered.length; i += MAX_SEGMENT) {
      await segments.put({ sessionId: toId, seq: base + i, updates: renumbered.slice(i, i + MAX_SEGMENT) });
    }
    const now = new Date().toISOString();
    const old = await tx.objectStore('sessions').get(fromId);
    if (!branch) await segments.delete(range(fromId));
    if (old && !branch)
      await tx.objectStore('sessions').put({ ...old, continuedBy: toId, nextSeq: 0, updatedAt: now });
    if (target)
      await tx.objectStore('sessions').put({ ...target, nextSeq: base + moved.length, updatedAt: now });
    await tx.done;
    return base + moved.length;
  }

  close(): void {
    this.db.close();
  }
}

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
