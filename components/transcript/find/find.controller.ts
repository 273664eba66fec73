/**
 * Find in `<silo-transcript>`, as a Lit reactive controller. The log is virtualized, so the browser's
 * own find cannot reach rows that are not rendered: this searches the text of every row of the model
 * (see `transcript/find/text.ts`), from the view on and wrapping around, so the first match at or below the view
 * is named (and its row scrolled to) as soon as it is read, then counts the rest in time slices
 * (`transcript/find/count.ts`). It scrolls the log to the current match's row, and highlights the matches of the
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
import { MatchCounts } from './count.ts';
import { bringIntoView, firstRowInView, highlights, textMatches } from './highlight.ts';
import { fold } from './text.ts';

/** Where a find stands: the event detail of `silo-find` and what the find methods resolve to. */
export interface SiloFindResult {
  /** The query, as given (empty: no find). */
  readonly query: string;
  /**
   * The current match, counted from 1 in transcript order; 0 when there is none. While `searching`, it
   * counts the matches before it in the rows read so far only (the rows above the view are read last):
   * a lower bound, final once `searching` is false.
   */
  readonly current: number;
  /** Matches in the whole transcript (case-insensitive, plain text); while `searching`, in the rows read so far. */
  readonly total: number;
  /**
   * True while rows are still being read (`current` and `total` are partial). The first match at or
   * below the view is named, and its row scrolled to, as soon as it is read: a `silo-find` with
   * `current` ≥ 1 and `searching` true comes before the count is done.
   */
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

export class TranscriptFindController implements ReactiveController {
  #query = '';
  #folded = '';
  #counts = new MatchCounts();
  #active: { key: string; occurrence: number } | undefined;
  #generation = 0;
  #move = 0;
  /** The move (a `find`) waiting for its first match, and the scroll to that match once found. */
  #seeking: number | undefined;
  #showing: Promise<void> | undefined;
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
      total: this.#counts.total,
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
    // Rows added or replaced are counted; an update that changed no row starts no search (and so
    // never reports `searching` for nothing).
    if (this.#scanning || !this.#counts.readAll(this.rows.rows()))
      void this.#rescan().then(() => this.#notify());
    this.#schedulePaint();
  }

  hostDisconnected(): void {
    this.#unpaint();
  }

  /**
   * Searches every row for `query` and goes to the first match at or below the top of the view
   * (wrapping to the first): rows are read from the view on, and that match is named (`silo-find`,
   * still `searching`) and its row scrolled to as soon as it is read, while the rest are counted in
   * time slices. Resolves once the whole transcript is searched and the match's row is scrolled into
   * view; a later call supersedes this one (its search stops; it then resolves with the later state).
   */
  async find(query: string): Promise<SiloFindResult> {
    this.#generation++;
    this.#scanning = undefined;
    this.#query = query;
    this.#folded = fold(query);
    this.#counts.reset(this.#folded);
    this.#active = undefined;
    this.#showing = undefined;
    const move = ++this.#move;
    this.#seeking = move;
    if (!this.#folded) {
      this.#unpaint();
      this.#notify();
      return this.result;
    }
    const scan = this.#rescan(firstRowInView(this.rows.log()));
    this.#notify();
    await scan;
    if (move !== this.#move) return this.result;
    this.#seeking = undefined;
    await this.#showing;
    await this.host.updateComplete;
    if (move !== this.#move) return this.result;
    // No match was found (no scroll), or more rows around the match are counted now: paint and report.
    if (!this.#showing) this.#unpaint();
    this.#schedulePaint();
    this.#notify();
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
    const count = index >= 0 ? this.#counts.at(index) : 0;
    const occurrence = a ? Math.min(a.occurrence, count - 1) : -1;
    if (!a || index < 0) this.#active = this.#nearest(firstRowInView(this.rows.log()), direction, true);
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
    this.#counts.end();
    this.#active = undefined;
    this.#seeking = undefined;
    this.#showing = undefined;
    this.#unpaint();
    this.#notify();
  }

  /** 1-based position of the current match in the transcript, 0 for none. */
  #current(): number {
    const a = this.#active;
    const index = a ? this.rows.indexOf(a.key) : -1;
    const count = index >= 0 ? this.#counts.at(index) : 0;
    if (!a || count === 0) return 0;
    return this.#counts.before(index) + Math.min(a.occurrence, count - 1) + 1;
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
      const c = this.#counts.at(i);
      if (c > 0) return { key: rows[i]!.key, occurrence: first ? 0 : c - 1 };
    }
    return undefined;
  }

  /**
   * Counts the rows not counted yet or changed since (in time slices, from row `start` on, wrapping
   * around); again if rows change meanwhile.
   */
  #rescan(start = 0): Promise<void> {
    if (this.#scanning) {
      this.#again = true;
      return this.#scanning;
    }
    const gen = this.#generation;
    const live = () => gen === this.#generation;
    const rows = () => this.rows.rows();
    const run = async () => {
      do {
        if (!live()) return;
        this.#again = false;
        if (!(await this.#counts.pass(rows, start, live, (i) => this.#found(i)))) return;
        start = 0;
        // The current match's row went away (a new model): the nearest match stands in.
        if (this.#active && this.rows.indexOf(this.#active.key) < 0) this.#active = this.#nearest(0, 1, true);
      } while (this.#again);
    };
    // Started after `#scanning` is set: a match named in the first slice is reported as `searching`.
    const job: Promise<void> = Promise.resolve()
      .then(run)
      .finally(() => {
        if (this.#scanning === job) this.#scanning = undefined;
      });
    this.#scanning = job;
    return job;
  }

  /**
   * A row with matches was read: the first one a `find` reads (from the view on) is its first match,
   * named at once and scrolled to while the rest is counted.
   */
  #found(index: number): void {
    const move = this.#move;
    if (this.#seeking !== move || this.#active) return;
    const row = this.rows.rows()[index];
    if (!row) return;
    this.#seeking = undefined;
    this.#active = { key: row.key, occurrence: 0 };
    this.#notify();
    this.#showing = this.#show(move);
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
      if (!this.#counts.at(i) || rows[i]?.key !== el.dataset.key) continue;
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
