/**
 * The journal's schema: its two stores and their records, how a session's updates are cut into
 * segments, and the migrations that build the database (worker/journal.ts opens it through them;
 * worker/journal-writer.ts appends to it).
 *
 * Layout ({@link MIGRATIONS}): `sessions` holds one {@link SessionRecord} per session; `segments`
 * holds the updates as segments — one record per burst of appends, keyed `[sessionId, firstSeq]` —
 * because IndexedDB stores fewer records per second than a flood delivers updates; `learned` holds
 * one kept fold of each session's journal (worker/journal-fold.ts), so that binding a session reads
 * only what came after it.
 */
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { AgentResumeOutcome, AgentSessionUpdate } from '../src/types.ts';
import type { Learned } from './journal-fold.ts';

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

/** A session's kept fold: what its journal says up to `seq` (worker/journal-fold.ts). */
export interface LearnedRecord extends Learned {
  sessionId: string;
}

/** The journal database's stores, for `idb`'s typed access. */
export interface JournalSchema extends DBSchema {
  sessions: { key: string; value: SessionRecord; indexes: { updatedAt: string } };
  segments: { key: [string, number]; value: Segment };
  learned: { key: string; value: LearnedRecord };
}

/** Most updates in one segment record, so a record stays small enough to read a tail quickly. */
export const MAX_SEGMENT = 1000;

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
  (d) => {
    d.createObjectStore('learned', { keyPath: 'sessionId' });
  },
];

/** The key range of every segment of one session. */
export const sessionRange = (sessionId: string): IDBKeyRange =>
  IDBKeyRange.bound([sessionId, 0], [sessionId, Number.POSITIVE_INFINITY]);
