/**
 * Figures of the reliability and security suite, recorded by Node tests (browser tests record
 * through the `silo-report` command of test/support/summary-plugin.mjs). Each record is one JSON line
 * appended to `SILO_SUMMARY_FILE` (set by scripts/test.mjs, which prints the totals at the end);
 * without it, records go nowhere and tests still assert their own figures.
 */
import { appendFileSync } from 'node:fs';

/** What a record counts. `lost` must sum to 0; `figure` is a measurement (peak RSS, heap…). */
export type SummaryCategory = 'faults' | 'inputs' | 'attacks' | 'lost' | 'figure';

/** One record of the summary file. */
export interface SummaryRecord {
  readonly category: SummaryCategory;
  readonly n: number;
  /** Which test recorded it (and for `figure`, what was measured). */
  readonly name: string;
  readonly unit?: string;
  /** `node`, `chromium` or `firefox`. */
  readonly engine?: string;
}

/** Appends one record (synchronously, so a crash right after still keeps it). */
export function report(record: SummaryRecord): void {
  const file = process.env.SILO_SUMMARY_FILE;
  if (!file) return;
  appendFileSync(file, `${JSON.stringify({ engine: 'node', ...record })}\n`);
}

/** True when the long variants run (`npm test -- --long`, or `SILO_LONG=1`). */
export const LONG = process.env.SILO_LONG === '1';
