/**
 * The journal: every update of every session, in IndexedDB through `idb`.
 *
 * Opening it ({@link journalOpener}) and reading, listing, carrying and clearing sessions
 * ({@link Journal}) are here; its layout and migrations are in worker/journal-schema.ts, and the
 * append-only writer of one session, which keeps the journal a prefix of what arrived, in
 * worker/journal-writer.ts.
 */
import { type IDBPDatabase, openDB } from 'idb';
import { SiloError } from '../src/errors.ts';
import type { AgentSessionSummary, AgentSessionUpdate } from '../src/types.ts';
import { FOLD_VERSION, JournalFold } from './journal-fold.ts';
import {
  type JournalMigration,
  type JournalSchema,
  MAX_SEGMENT,
  MIGRATIONS,
  type SessionRecord,
  sessionRange,
} from './journal-schema.ts';
import { SessionWriter } from './journal-writer.ts';

export { type JournalMigration, MIGRATIONS, type Segment, type SessionRecord } from './journal-schema.ts';
export { SessionWriter } from './journal-writer.ts';

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
/** Segments read at a time while a journal is folded from its start (a few MB at most). */
const FOLD_SEGMENTS = 20;

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

  /** Forgets a session's writer (its tab released it, or it closed); the next `writer` makes a new one. */
  dropWriter(sessionId: string): void {
    this.writers.delete(sessionId);
  }

  /** A session's record, or undefined when the journal holds no such session. */
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
    const segments = await this.db.getAll('segments', sessionRange(sessionId));
    return segments.flatMap((s) => s.updates);
  }

  /**
   * The fold of a session's journal up to update `end` (exclusive; its committed updates): from the
   * fold kept beside it (worker/journal-fold.ts) when there is one of this version within `end`, else
   * from its start, reading the segments after that point a few at a time.
   */
  async fold(sessionId: string, end: number): Promise<JournalFold> {
    const kept = await this.db.get('learned', sessionId);
    const fold = new JournalFold(kept?.v === FOLD_VERSION && kept.seq <= end ? kept : undefined);
    if (fold.seq >= end) return fold;
    // The segment that holds update `fold.seq` starts at or before it.
    const first = await this.db
      .transaction('segments')
      .store.openCursor(IDBKeyRange.bound([sessionId, 0], [sessionId, fold.seq]), 'prev');
    let from = first ? (first.key as [string, number])[1] : 0;
    for (;;) {
      const segments = await this.db.getAll(
        'segments',
        IDBKeyRange.bound([sessionId, from], [sessionId, Number.POSITIVE_INFINITY]),
        FOLD_SEGMENTS,
      );
      for (const s of segments)
        for (const u of s.updates) if (u.seq! >= fold.seq && u.seq! < end) fold.add(u);
      if (segments.length < FOLD_SEGMENTS || fold.seq >= end) return fold;
      from = segments.at(-1)!.seq + 1;
    }
  }

  /**
   * The last `count` updates of a session (at least; whole segments), read from the end, so the last
   * screen of a huge transcript is available without reading everything.
   */
  async tail(sessionId: string, count: number): Promise<AgentSessionUpdate[]> {
    const out: AgentSessionUpdate[][] = [];
    let n = 0;
    let cursor = await this.db.transaction('segments').store.openCursor(sessionRange(sessionId), 'prev');
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
    const tx = this.db.transaction(['sessions', 'segments', 'learned'], 'readwrite');
    const sessions = tx.objectStore('sessions');
    // A session continued by this one holds nothing of its own (its updates moved here) and is hidden
    // from the history: it goes too, else its record would stay in storage, never listed again.
    const gone = [sessionId];
    for (let i = 0; i < gone.length; i++) {
      const id = gone[i]!;
      await tx.objectStore('segments').delete(sessionRange(id));
      await tx.objectStore('learned').delete(id);
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
    const tx = this.db.transaction(['sessions', 'segments', 'learned'], 'readwrite');
    const segments = tx.objectStore('segments');
    const all = (await segments.getAll(sessionRange(fromId))).flatMap((s) => s.updates);
    const moved = branch ? all.filter((u) => (u.seq ?? 0) < branch.before) : all;
    const target = await tx.objectStore('sessions').get(toId);
    const base = target?.nextSeq ?? 0;
    const renumbered = moved.map((u, i) => ({ ...u, seq: base + i }));
    for (let i = 0; i < renumbered.length; i += MAX_SEGMENT) {
      await segments.put({ sessionId: toId, seq: base + i, updates: renumbered.slice(i, i + MAX_SEGMENT) });
    }
    const now = new Date().toISOString();
    const old = await tx.objectStore('sessions').get(fromId);
    if (!branch) await segments.delete(sessionRange(fromId));
    if (!branch) await tx.objectStore('learned').delete(fromId);
    if (old && !branch)
      await tx.objectStore('sessions').put({ ...old, continuedBy: toId, nextSeq: 0, updatedAt: now });
    if (target)
      await tx.objectStore('sessions').put({ ...target, nextSeq: base + moved.length, updatedAt: now });
    await tx.done;
    return base + moved.length;
  }

  /** Closes the database once its transactions are done; a write after that fails with `journal-write`. */
  close(): void {
    this.db.close();
  }
}
