/**
 * The journals the reopen, scale, export and find benchmarks read: a synthetic thread of mixed
 * updates (bench/page/mixed-transcript.ts) written in a worker of the page with Silo's own journal
 * module (`journalOpener` → `SessionWriter.append`, the same records and segment size as a live
 * session, batches of 5,000 updates each one transaction), not streamed through an agent. Writing it
 * also measures target 4: IndexedDB's size on disk (`navigator.storage.estimate()` before and after)
 * per update, against the update's wire bytes (its `session/update` line as an agent sends it).
 */
import { type Bench, call } from '../harness.ts';
import { elapsed, figures, judge, log, mb } from '../results.ts';
import { formatNumber } from '../stats.ts';

export interface Journal {
  databaseName: string;
  sessionId: string;
  marker: string;
  updates: number;
  ms: number;
  approxBytes: number;
  wireBytes: number;
  diskBytes: number;
}

export async function writeJournal({ page }: Bench, updates: number): Promise<Journal> {
  const marker = `silo-bench-last-row-${Date.now()}-${updates}`;
  log(`writing a journal of ${formatNumber(updates)} mixed updates…`);
  const gen = await call(page, 'generateJournal', updates, marker);
  log(
    `journal of ${formatNumber(gen.updates)} written in ${formatNumber(gen.ms)} ms (~${mb(gen.approxBytes, 0)} as JSON, ${mb(gen.wireBytes, 0)} on the wire, ${mb(gen.diskBytes, 0)} on disk) (${elapsed()})`,
  );
  return { ...gen, marker };
}

/** Target 4, from the journals written in this run (the largest judged). */
export function judgeDisk(journals: Journal[]): void {
  const rows = journals.map((j) => ({
    updates: j.updates,
    writeMs: Math.round(j.ms),
    wireBytesPerUpdate: j.wireBytes / j.updates,
    diskBytesPerUpdate: j.diskBytes / j.updates,
    jsonBytesPerUpdate: j.approxBytes / j.updates,
    diskOverWire: j.diskBytes / j.wireBytes,
  }));
  figures.journalSize = {
    journals: rows,
    measuredWith: 'navigator.storage.estimate() usage, before and after',
  };
  const big = rows.at(-1);
  if (!big) return;
  const other =
    rows.length > 1
      ? `; at ${formatNumber(rows[0]!.updates)}: ${formatNumber(rows[0]!.diskOverWire, 2)}×`
      : '';
  judge({
    section: 'reopen',
    id: 4,
    name: `journal bytes on disk per update / wire bytes (${formatNumber(big.updates)} updates)`,
    value: `${formatNumber(big.diskOverWire, 2)}×: ${formatNumber(big.diskBytesPerUpdate)} vs ${formatNumber(big.wireBytesPerUpdate)} B/update${other}`,
    measured: big.diskOverWire,
    op: '≤',
    limit: 1.5,
    unit: '×',
    digits: 2,
    why: 'the journal keeps each update normalized (kind, text, content, toolCall…) beside its raw wire object, so most of the wire bytes are stored twice; IndexedDB (LevelDB + blob files in Chromium) adds its keys and structured-clone framing',
  });
}
