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

/** Whether process `pid` is alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** File-backed session store. */
export class SessionStore {
  /** Sessions this process holds (`--exclusive-sessions`): `<id>.holder` files with its pid. */
  private readonly held = new Set<string>();

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    process.on('exit', () => {
      for (const id of this.held) rmSync(this.holderFile(id), { force: true });
    });
  }

  private holderFile(sessionId: string): string {
    return join(this.dir, `${sessionId}.holder`);
  }

  /**
   * Takes the session for this process: false when another live process holds it. A holder that
   * died without letting go (killed) no longer counts. Released on exit or {@link release}.
   */
  hold(sessionId: string): boolean {
    if (!SAFE_ID.test(sessionId)) return false;
    let holder = 0;
    try {
      holder = Number(readFileSync(this.holderFile(sessionId), 'utf8'));
    } catch {}
    if (holder && holder !== process.pid && alive(holder)) return false;
    writeFileSync(this.holderFile(sessionId), String(process.pid));
    this.held.add(sessionId);
    return true;
  }

  /** Lets go of a session this process holds. */
  release(sessionId: string): void {
    if (!this.held.delete(sessionId)) return;
    rmSync(this.holderFile(sessionId), { force: true });
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
