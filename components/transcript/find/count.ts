/**
 * The match counts of one find query, per transcript row, for find in `<silo-transcript>`: each row's
 * count is taken from its searchable text (text.ts, kept per row object while the find lasts, so a
 * query typed one more character reads no row's text again) and taken again when the row is replaced
 * (a streamed or patched row is a new object). Rows are read in time slices, from a given row on and
 * wrapping around, so the find can name its first match at or below the view as soon as it is read.
 * @packageDocumentation
 */
import type { TranscriptRow } from '../../../src/index.ts';
import { countIn, RowTexts } from './text.ts';

/** Rows read per time check, and the main-thread budget of one slice of a search (ms). */
const SLICE_ROWS = 64;
const SLICE_MS = 8;

const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * One query's match counts, per row index, and their total: partial until a {@link MatchCounts.pass}
 * resolves true. Made by the find controller; a new query starts over with {@link MatchCounts.reset}.
 */
export class MatchCounts {
  /** The folded query these counts are of ('' when there is none). */
  #query = '';
  /** Matches per row index, and the row object each count was taken from. */
  #counts: number[] = [];
  #seen: (TranscriptRow | undefined)[] = [];
  #total = 0;
  /** The rows' searchable texts, kept from query to query until the find ends. */
  #texts = new RowTexts();

  /** Starts over for `folded` (a new query, or '' for none): no row is read yet. */
  reset(folded: string): void {
    this.#query = folded;
    this.#counts = [];
    this.#seen = [];
    this.#total = 0;
  }

  /** The find ended: its counts and the rows' texts go (a next find reads the rows again). */
  end(): void {
    this.reset('');
    this.#texts = new RowTexts();
  }

  /** Matches in the rows read so far. */
  get total(): number {
    return this.#total;
  }

  /** Matches in row `index` (0 while it is not read yet). */
  at(index: number): number {
    return this.#counts[index] ?? 0;
  }

  /** Matches in the rows before `index` that are read so far. */
  before(index: number): number {
    let n = 0;
    for (let i = 0; i < index; i++) n += this.#counts[i] ?? 0;
    return n;
  }

  /**
   * Whether every row of `rows` is read as it is now (none added, replaced or gone since the last
   * pass): then a pass would change nothing. Compares from the end, where a streamed row changes.
   */
  readAll(rows: readonly TranscriptRow[]): boolean {
    if (rows.length !== this.#seen.length) return false;
    for (let i = rows.length - 1; i >= 0; i--) if (this.#seen[i] !== rows[i]) return false;
    return true;
  }

  /**
   * One pass over the rows not read yet or replaced since, from row `start` on and wrapping around to
   * the rows before it, in time slices; `found(i)` runs as soon as a row with matches is read. Between
   * slices the newest rows are taken (replaced rows are read again). Resolves true once every row is
   * read, false as soon as `live()` is false after a slice (a newer query or pass took over: its counts
   * are not touched). Never throws (a row whose text cannot be built counts 0).
   */
  async pass(
    rows: () => readonly TranscriptRow[],
    start: number,
    live: () => boolean,
    found: (index: number) => void,
  ): Promise<boolean> {
    let list = rows();
    const n = list.length;
    const from = n > 0 ? Math.min(Math.max(start, 0), n - 1) : 0;
    let slice = performance.now();
    for (let k = 0; k < n; k++) {
      const i = (from + k) % n;
      const row = list[i];
      if (row && this.#seen[i] !== row) {
        const c = countIn(this.#texts.of(row), this.#query);
        this.#total += c - (this.#counts[i] ?? 0);
        this.#counts[i] = c;
        this.#seen[i] = row;
        if (c > 0) found(i);
      }
      if (k % SLICE_ROWS === SLICE_ROWS - 1 && performance.now() - slice > SLICE_MS) {
        await yieldToBrowser();
        if (!live()) return false;
        // The rows may have been replaced meanwhile: go on with the newest (changed rows are recounted).
        list = rows();
        slice = performance.now();
      }
    }
    // Rows past the end of the newest list went away: so do their counts.
    for (let i = list.length; i < this.#counts.length; i++) this.#total -= this.#counts[i] ?? 0;
    this.#counts.length = Math.min(this.#counts.length, list.length);
    this.#seen.length = Math.min(this.#seen.length, list.length);
    return true;
  }
}
