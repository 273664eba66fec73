/**
 * The keyed row list under the transcript model: rows in transcript order, a key → index map so a
 * patch finds its row in constant time, and the key bookkeeping for tool cards and request rows
 * whose ids an agent (or an old journal) reused.
 * @packageDocumentation
 */

import { JoinCounts, settleRowText, streamedLength } from './flat-text.ts';
import { requestRecordOf } from './patch.ts';
import type { TranscriptRow } from './rows.ts';

/**
 * Rows with a key → index map. Rows are only ever appended or replaced in place, so an index stays
 * valid. Subclassed by {@link TranscriptModel}; never throws.
 */
export class RowStore {
  /** The rows, in transcript order. Mutated in place; every patched row is a new object. */
  readonly rows: TranscriptRow[] = [];

  /** Row index by key; a card also holds its permission's key. */
  protected readonly index = new Map<string, number>();
  /** Keys of the request rows of each `p:<id>` / `e:<id>`, oldest first (more than one only in old journals). */
  private readonly requestKeys = new Map<string, string[]>();
  /** The key of each tool-call id's newest card (`t:<id>`, or `t:<id>#<n>` when an agent reused the id). */
  private readonly toolKeys = new Map<string, string>();
  private counter = 0;
  /** What flattening rows read ({@link settleRowText}): kept so no compiler drops the reads. */
  #flattened = 0;
  /** Rows that streamed text when they were not the last: the chunks each took since it was flattened. */
  readonly #chunks = new JoinCounts<number>();
  /** Of those, the rows due to be flattened at the next push ({@link grew}). */
  readonly #due = new Set<number>();

  /** The row with this key, if any. */
  get(key: string): TranscriptRow | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.rows[i];
  }

  /** The position of the row with this key, or -1. */
  indexOf(key: string): number {
    return this.index.get(key) ?? -1;
  }

  /**
   * Appends a row and returns its index. The row before it is mostly done growing, so its streamed
   * text is flattened now, once ({@link settleRowText}), as is that of an earlier row that grew
   * since it was flattened, once its chunks are due ({@link grew}, {@link JoinCounts}).
   */
  protected push(row: TranscriptRow): number {
    const i = this.rows.length;
    const before = this.rows[i - 1];
    if (before) this.#flattened |= settleRowText(before);
    for (const g of this.#due) {
      this.#flattened |= settleRowText(this.rows[g]!);
      this.#chunks.forget(g);
    }
    this.#due.clear();
    this.rows.push(row);
    this.index.set(row.key, i);
    return i;
  }

  /**
   * Row `i` took one more chunk of streamed text (a message's, appended to a terminal's output). The
   * last row's text is flattened when the next row is pushed; an earlier row's (two streams
   * interleaved: parallel commands' output, a late chunk) is counted, and once due ({@link
   * JoinCounts}) the next push flattens it again, so it does not grow a rope for as long as the
   * transcript lives.
   */
  protected grew(i: number): void {
    if (i !== this.rows.length - 1 && this.#chunks.joined(i, streamedLength(this.rows[i]!))) this.#due.add(i);
  }

  /** A key no row has: `<prefix>#<n>`. */
  protected nextKey(prefix: string): string {
    return `${prefix}#${this.counter++}`;
  }

  /** The index of the newest card of a tool-call id, if any. */
  protected toolRow(toolCallId: string): number | undefined {
    return this.index.get(this.toolKeys.get(toolCallId) ?? `t:${toolCallId}`);
  }

  /** The key of a new card for a tool-call id: `t:<id>`, `t:<id>#<n>` when that is taken; it becomes the id's newest. */
  protected toolKey(toolCallId: string): string {
    const key = this.index.has(`t:${toolCallId}`) ? this.nextKey(`t:${toolCallId}`) : `t:${toolCallId}`;
    this.toolKeys.set(toolCallId, key);
    return key;
  }

  /**
   * The row a request record patches, or undefined for a new row. A request record (`permission`,
   * `elicitation`) always opens a new row: journals written by Silo 0.1.0 could give two requests one
   * id (its ids restarted with every worker), and two requests must never share a row. A resolution
   * or completion patches the newest unresolved row with its id, else the newest.
   */
  protected requestRow(base: string, opens: boolean): number | undefined {
    if (opens) return undefined;
    const keys = this.requestKeys.get(base) ?? [];
    let newest: number | undefined;
    for (let k = keys.length - 1; k >= 0; k--) {
      const i = this.index.get(keys[k]!);
      if (i === undefined) continue;
      if (requestRecordOf(this.rows[i]!)?.resolution === undefined) return i;
      newest ??= i;
    }
    return newest;
  }

  /** The key of a new request row: `p:<id>` (or `e:<id>`), `p:<id>#<n>` when that is taken. */
  protected requestKey(base: string): string {
    const keys = this.requestKeys.get(base) ?? [];
    const key = keys.length === 0 ? base : this.nextKey(base);
    keys.push(key);
    this.requestKeys.set(base, keys);
    return key;
  }
}
