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
  /** Written with pseudo-random words (text that does not compress). */
  noisy: boolean;
}

export async function writeJournal({ page }: Bench, updates: number, noisy = false): Promise<Journal> {
  const marker = `silo-bench-last-row-${Date.now()}-${updates}`;
  log(`writing a journal of ${formatNumber(updates)} mixed updates${noisy ? ' (pseudo-random words)' : ''}…`);
  const gen = await call(page, 'generateJournal', updates, marker, noisy);
  log(
    `journal of ${formatNumber(gen.updates)} written in ${formatNumber(gen.ms)} ms (~${mb(gen.approxBytes, 0)} as JSON, ${mb(gen.wireBytes, 0)} on the wire, ${mb(gen.diskBytes, 0)} on disk) (${elapsed()})`,
  );
  return { ...gen, marker, noisy };
}

/**
 * Target 4, from the journals written in this run. Judged on the journal of pseudo-random words:
 * Chromium compresses IndexedDB values (Snappy), so the repeated words of the other journals shrink
 * far more than real text would; their figures are printed beside.
 */
export function judgeDisk(journals: Journal[]): void {
  const rows = journals.map((j) => ({
    updates: j.updates,
    noisy: j.noisy,
    writeMs: Math.round(j.ms),
    wireBytesPerUpdate: j.wireBytes / j.updates,
    diskBytesPerUpdate: j.diskBytes / j.updates,
    jsonBytesPerUpdate: j.approxBytes / j.updates,
    diskOverWire: j.diskBytes / j.wireBytes,
  }));
  figures.journalSize = {
    journals: rows,
    measuredWith: 'navigator.storage.estimate() usage, before and after writing each journal',
  };
  const judged = rows.find((r) => r.noisy);
  if (!judged) return;
  const others = rows
    .filter((r) => !r.noisy)
    .map((r) => `${formatNumber(r.diskOverWire, 2)}× at ${formatNumber(r.updates)}`)
    .join(', ');
  judge({
    section: 'reopen',
    id: 4,
    name: `journal bytes on disk per update / wire bytes (${formatNumber(judged.updates)} updates, random words)`,
    value: `${formatNumber(judged.diskOverWire, 2)}×: ${formatNumber(judged.diskBytesPerUpdate)} vs ${formatNumber(judged.wireBytesPerUpdate)} B/update${others ? `; repeated words: ${others}` : ''}`,
    measured: judged.diskOverWire,
    op: '≤',
    limit: 1.5,
    unit: '×',
    digits: 2,
    why: 'the journal keeps each update normalized (kind, text, content, toolCall…) beside its raw wire object, so most of the wire bytes are stored twice; IndexedDB adds its keys and structured-clone framing, and compresses what repeats',
  });
}
