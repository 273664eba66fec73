/**
 * Find in `<silo-transcript>`, as a Lit reactive controller. The log is virtualized, so the browser's
 * own find cannot reach rows that are not rendered: this searches the text of every row of the model
 * (see `transcript/find/text.ts`), scrolls the log to the current match's row, and highlights the matches of the
 * rendered rows with the CSS Custom Highlight API (`::highlight(silo-find)`, and
 * `::highlight(silo-find-active)` for the current one). Rows with matches carry `data-find="match"`,
 * the current match's row `data-find="active"` (its visible marker where the API is missing, or where
 * its match cannot be highlighted: inside a nested shadow root or folded-away content). A match in
 * the collapsed part of a long text (content/long-text.ts) is counted, and going to it opens that
 * part and highlights the match once its pieces are drawn. Nothing is injected into the rows: ranges only.
 * @packageDocumentation
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { TranscriptRow } from '../../../src/index.ts';
import { CLOSED_LONG_TEXT, DRAWING_LONG_TEXT } from '../../content/text-budget.ts';
import type { SiloEmitter } from '../../shared/silo-element.ts';
import { bringIntoView, highlights, textMatches } from './highlight.ts';
import { countIn, fold, rowText } from './text.ts';

/** Where a find stands: the event detail of `silo-find` and what the find methods resolve to. */
export interface SiloFindResult {
  /** The query, as given (empty: no find). */
  readonly query: string;
  /** The current match, counted from 1 in transcript order; 0 when there is none. */
  readonly current: number;
  /** Matches in the whole transcript (case-insensitive, plain text). */
  readonly total: number;
  /** True while rows are still being read (`total` is partial). */
  readonly searching: boolean;
}

declare global {
  interface GlobalEventHandlersEventMap {
    'silo-find': CustomEvent<SiloFindResult>;
  }
}

/** What the controller needs from its element. */
export interface TranscriptFindRows {
  /** The rendered rows (the model's rows as of the last update). */
  rows(): readonly TranscriptRow[];
  /** The index of the row with `key` among {@link rows}, else -1. */
  indexOf(key: string): number;
  /** The scrolling log, after the first render. */
  log(): HTMLElement | null;
  /** Scrolls row `index` into view inside the log (letting go of its bottom) and returns its element. */
  reveal(index: number): Promise<HTMLElement | null>;
}

/** Rows read per time check, and the main-thread budget of one slice of a search (ms). */
const SLICE_ROWS = 64;
const SLICE_MS = 8;

const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export class TranscriptFindController implements ReactiveController {
  #query = '';
  #folded = '';
  /** Matches per row index, and the row object each count was taken from. */
  #counts: number[] = [];
  #seen: (TranscriptRow | undefined)[] = [];
  #total = 0;
  #active: { key: string; occurrence: number } | undefined;
  #generation = 0;
  #move = 0;
  #scanning: Promise<void> | undefined;
  #again = false;
  #ranges: Range[] = [];
  #marked: HTMLElement[] = [];
  #paintQueued = false;
  #listened: HTMLElement | undefined;
  #notified = '';
  /** The current match is in a long text being opened: bring it into view once it is drawn. */
  #revealPending = false;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement & SiloEmitter,
    private readonly rows: TranscriptFindRows,
  ) {
    host.addController(this);
  }

  /** Where the find stands now. */
  get result(): SiloFindResult {
    return {
      query: this.#query,
      current: this.#current(),
      total: this.#total,
      searching: this.#scanning !== undefined,
    };
  }

  hostUpdated(): void {
    const log = this.rows.log();
    if (log && log !== this.#listened) {
      this.#listened = log;
      log.addEventListener('rangeChanged', () => this.#schedulePaint());
    }
    if (!this.#folded) return;
    void this.#rescan().then(() => this.#notify());
    this.#schedulePaint();
  }

  hostDisconnected(): void {
    this.#unpaint();
  }

  /**
   * Searches every row for `query` and goes to the first match at or below the top of the view
   * (wrapping to the first). Resolves once the whole transcript is searched and the match's row is
   * scrolled into view; a later call supersedes this one (which then resolves with the later state).
   */
  async find(query: string): Promise<SiloFindResult> {
    this.#generation++;
    this.#scanning = undefined;
    this.#query = query;
    this.#folded = fold(query);
    this.#counts = [];
    this.#seen = [];
    this.#total = 0;
    this.#active = undefined;
    const move = ++this.#move;
    if (!this.#folded) {
      this.#unpaint();
      this.#notify();
      return this.result;
    }
    const scan = this.#rescan();
    this.#notify();
    await scan;
    await this.host.updateComplete;
    if (move !== this.#move) return this.result;
    this.#active = this.#nearest(this.#firstVisible(), 1, true);
    await this.#show(move);
    return this.result;
  }

  /** Goes to the next (`1`) or previous (`-1`) match, wrapping around; resolves once it is in view. */
  async step(direction: 1 | -1): Promise<SiloFindResult> {
    if (!this.#folded) return this.result;
    const move = ++this.#move;
    await this.#scanning;
    if (move !== this.#move) return this.result;
    const a = this.#active;
    const index = a ? this.rows.indexOf(a.key) : -1;
    const count = index >= 0 ? (this.#counts[index] ?? 0) : 0;
    const occurrence = a ? Math.min(a.occurrence, count - 1) : -1;
    if (!a || index < 0) this.#active = this.#nearest(this.#firstVisible(), direction, true);
    else if (count > 0 && occurrence + direction >= 0 && occurrence + direction < count)
      this.#active = { key: a.key, occurrence: occurrence + direction };
    else this.#active = this.#nearest(index + direction, direction, direction === 1);
    await this.#show(move);
    return this.result;
  }

  /** Ends the find: no highlights, no markers. */
  clear(): void {
    this.#generation++;
    this.#move++;
    this.#scanning = undefined;
    this.#query = '';
    this.#folded = '';
    this.#counts = [];
    this.#seen = [];
    this.#total = 0;
    this.#active = undefined;
    this.#unpaint();
    this.#notify();
  }

  /** 1-based position of the current match in the transcript, 0 for none. */
  #current(): number {
    const a = this.#active;
    const index = a ? this.rows.indexOf(a.key) : -1;
    if (!a || index < 0 || !this.#counts[index]) return 0;
    let before = 0;
    for (let i = 0; i < index; i++) before += this.#counts[i] ?? 0;
    return before + Math.min(a.occurrence, this.#counts[index]! - 1) + 1;
  }

  /**
   * The first match in a row from `from` on in `direction` (wrapping around), as its first (going
   * forward) or last occurrence; undefined when nothing matches.
   */
  #nearest(from: number, direction: 1 | -1, first: boolean) {
    const rows = this.rows.rows();
    const n = rows.length;
    if (n === 0) return undefined;
    const start = ((from % n) + n) % n;
    for (let k = 0; k < n; k++) {
      const i = (start + direction * k + n) % n;
      const c = this.#counts[i] ?? 0;
      if (c > 0) return { key: rows[i]!.key, occurrence: first ? 0 : c - 1 };
    }
    return undefined;
  }

  /** Counts the rows not counted yet or changed since (in time slices); again if rows change meanwhile. */
  #rescan(): Promise<void> {
    if (this.#scanning) {
      this.#again = true;
      return this.#scanning;
    }
    const gen = this.#generation;
    const run = async () => {
      do {
        this.#again = false;
        if (!(await this.#count(gen))) return;
      } while (this.#again);
    };
    const job: Promise<void> = run().finally(() => {
      if (this.#scanning === job) this.#scanning = undefined;
    });
    this.#scanning = job;
    return job;
  }

  /** One pass over the rows; false once superseded. */
  async #count(gen: number): Promise<boolean> {
    const q = this.#folded;
    let rows = this.rows.rows();
    let slice = performance.now();
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      if (this.#seen[i] !== row) {
        const n = countIn(rowText(row), q);
        this.#total += n - (this.#counts[i] ?? 0);
        this.#counts[i] = n;
        this.#seen[i] = row;
      }
      if (i % SLICE_ROWS === SLICE_ROWS - 1 && performance.now() - slice > SLICE_MS) {
        await yieldToBrowser();
        if (gen !== this.#generation) return false;
        // The rows may have been replaced meanwhile: go on with the newest (changed rows are recounted).
        rows = this.rows.rows();
        slice = performance.now();
      }
    }
    for (let i = rows.length; i < this.#counts.length; i++) this.#total -= this.#counts[i] ?? 0;
    this.#counts.length = Math.min(this.#counts.length, rows.length);
    this.#seen.length = Math.min(this.#seen.length, rows.length);
    // The current match's row went away (a new model): the nearest match stands in.
    if (this.#active && this.rows.indexOf(this.#active.key) < 0) this.#active = this.#nearest(0, 1, true);
    return true;
  }

  /** The index of the first row at least partly in view (0 before the first render). */
  #firstVisible(): number {
    const log = this.rows.log();
    if (!log) return 0;
    const top = log.getBoundingClientRect().top;
    let first = Number.POSITIVE_INFINITY;
    for (const el of Array.from(log.querySelectorAll<HTMLElement>(':scope > .row[data-index]'))) {
      if (el.getBoundingClientRect().bottom > top + 1) first = Math.min(first, Number(el.dataset.index));
    }
    return Number.isFinite(first) ? first : 0;
  }

  /** Scrolls to the current match, highlights, opens folded content around it, and reports. */
  async #show(move: number): Promise<void> {
    const a = this.#active;
    const index = a ? this.rows.indexOf(a.key) : -1;
    if (index >= 0) await this.rows.reveal(index);
    if (move !== this.#move) return;
    this.#revealPending = false;
    const active = this.#paint();
    if (active) bringIntoView(active, this.rows.log());
    this.#notify();
  }

  #schedulePaint(): void {
    if (this.#paintQueued) return;
    this.#paintQueued = true;
    requestAnimationFrame(() => {
      this.#paintQueued = false;
      if (!this.#folded) return;
      // A long text opened for the current match draws a few pieces per frame: paint once it is drawn.
      if (this.#revealPending && this.rows.log()?.querySelector(DRAWING_LONG_TEXT)) {
        this.#schedulePaint();
        return;
      }
      const active = this.#paint();
      if (active && this.#revealPending) {
        this.#revealPending = false;
        bringIntoView(active, this.rows.log());
      }
    });
  }

  /**
   * Highlights the matches of the rendered rows; returns the current match's range, if rendered. A
   * current match past the ranges of its row is in a collapsed long text: that is opened (its match
   * is highlighted and brought into view once it is drawn).
   */
  #paint(): Range | undefined {
    this.#unpaint();
    const log = this.rows.log();
    if (!log || !this.#folded) return undefined;
    const hl = highlights();
    const rows = this.rows.rows();
    const a = this.#active;
    let activeRange: Range | undefined;
    for (const el of Array.from(log.querySelectorAll<HTMLElement>(':scope > .row[data-index]'))) {
      const i = Number(el.dataset.index);
      if (!this.#counts[i] || rows[i]?.key !== el.dataset.key) continue;
      const isActive = a?.key === el.dataset.key;
      el.dataset.find = isActive ? 'active' : 'match';
      this.#marked.push(el);
      const ranges = textMatches(el, this.#folded);
      const closed =
        isActive && a!.occurrence >= ranges.length ? el.querySelectorAll<HTMLElement>(CLOSED_LONG_TEXT) : [];
      if (closed.length > 0) {
        this.#revealPending = true;
        for (const toggle of Array.from(closed)) toggle.click();
        this.#schedulePaint();
      }
      const current = isActive && closed.length === 0 ? Math.min(a!.occurrence, ranges.length - 1) : -1;
      ranges.forEach((r, k) => {
        this.#ranges.push(r);
        if (k === current) activeRange = r;
        (k === current ? hl?.active : hl?.all)?.add(r);
      });
    }
    return activeRange;
  }

  #unpaint(): void {
    const hl = highlights();
    for (const r of this.#ranges) {
      hl?.all.delete(r);
      hl?.active.delete(r);
    }
    this.#ranges = [];
    for (const el of this.#marked) delete el.dataset.find;
    this.#marked = [];
  }

  /** Fires `silo-find` when the result changed. */
  #notify(): void {
    const result = this.result;
    const key = `${result.query}\n${result.current}\n${result.total}\n${result.searching}`;
    if (key === this.#notified) return;
    this.#notified = key;
    this.host.emit('silo-find', result);
  }
}
