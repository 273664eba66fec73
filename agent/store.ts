/**
 * Sessions of the reference agent, one JSON file per session under the sessions directory, so a new
 * process (a reconnect) can `session/load` or `session/resume` them. Writes are atomic (temp file +
 * rename); a missing or unreadable file is an unknown session.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What is kept of one session. `history` holds the raw `update` objects, replayed by `session/load`. */
export interface SessionRecord {
  sessionId: string;
  cwd: string;
  title: string | null;
  updatedAt: string;
  modeId: string;
  model: string;
  thinking: boolean;
  history: Record<string, unknown>[];
  /** Where each prompt turn starts in `history` and how it ended (read by `--replay-shape`). */
  turns?: { at: number; stopReason: string }[];
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** File-backed session store. */
export class SessionStore {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  private file(sessionId: string): string {
    return join(this.dir, `${sessionId}.json`);
  }

  /** The stored session, or `undefined` if unknown (or the id is not a plausible session id). */
  get(sessionId: string): SessionRecord | undefined {
    if (!SAFE_ID.test(sessionId)) return undefined;
    try {
      return JSON.parse(readFileSync(this.file(sessionId), 'utf8')) as SessionRecord;
    } catch {
      return undefined;
    }
  }

  /** Writes the session (atomically). */
  save(record: SessionRecord): void {
    record.updatedAt = new Date().toISOString();
    const target = this.file(record.sessionId);
    const tmp = `${target}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(record));
    renameSync(tmp, target);
  }

  /** Removes the session; unknown ids are fine. */
  delete(sessionId: string): void {
    if (SAFE_ID.test(sessionId)) rmSync(this.file(sessionId), { force: true });
  }

  /** Every stored session, most recently updated first. */
  all(): SessionRecord[] {
    const records: SessionRecord[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith('.json')) continue;
      const record = this.get(name.slice(0, -'.json'.length));
      if (record) records.push(record);
    }
    return records.sort(
      (a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.sessionId.localeCompare(b.sessionId),
    );
  }
}
