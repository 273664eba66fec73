/**
 * The transcript's log as one Tab stop (the ARIA feed pattern, `role="feed"` of `role="article"`
 * rows), as a Lit reactive controller. Tab into the log lands on its current row — the last one
 * focused, else (or when that was the last row) the last row — however many rows and
 * controls it holds; from there Tab goes through that row's own controls (a copy button, a card's summary, a prompt's options) and then out of the
 * log, and Shift+Tab back to the row and out before the log. Between rows: the arrow and Page keys
 * (transcript/rows/navigation.ts).
 *
 * Leaving is done the way focus traps do it, the other way round: while the Tab key is down, focus
 * moves to an empty element at the log's edge (`.feed-edge`), and the browser's own Tab goes on from
 * there. The start edge is in the tab order only until it loses focus; the end edge always (while
 * there are rows), so that Shift+Tab from after the log lands on it and goes on to the current row.
 * Focus that a click, a live prompt, a find or a script puts inside the log stays where it was put.
 * @packageDocumentation
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** What the controller needs from its element. */
export interface FeedFocusHost extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/** What the controller reads of the log. */
export interface FeedFocusContext {
  /** The log element (`.log`), once rendered. */
  log(): HTMLElement | null;
  /** The index of the row with `key` among the rendered rows, or -1. */
  indexOf(key: string): number;
  /** How many rows there are. */
  count(): number;
  /** Moves focus to row `index`, scrolling it into view. */
  focusRow(index: number): Promise<void>;
}

/** An element that takes focus with Tab: in the tab order, enabled, drawn (not in a closed `<details>`). */
function tabbable(el: HTMLElement): boolean {
  const attr = el.getAttribute('tabindex');
  const order = attr !== null ? Number(attr) : el.localName === 'summary' ? 0 : el.tabIndex;
  if (!(order >= 0) || (el as HTMLButtonElement).disabled || el.inert) return false;
  return el.getClientRects().length > 0;
}

/** The Tab stops inside `root`, in order, through open shadow roots (a question's form). */
export function tabStops(root: Element): HTMLElement[] {
  const out: HTMLElement[] = [];
  const walk = (parent: Element | ShadowRoot) => {
    for (const el of Array.from(parent.children)) {
      if (el instanceof HTMLElement && tabbable(el)) out.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
      walk(el);
    }
  };
  walk(root);
  return out;
}

/** Keeps the log one Tab stop (see the module's docs). */
export class FeedFocusController implements ReactiveController {
  /** The key of the log's current row: the last row focused in it (none: the last row). */
  #current: string | undefined;
  /** A pointer went down in the log: the focus that follows is the user's click, left where it lands. */
  #pointer = false;

  constructor(
    private readonly host: FeedFocusHost,
    private readonly ctx: FeedFocusContext,
  ) {
    host.addController(this);
  }

  /** Removed from the page: a later log starts at its last row again. */
  hostDisconnected(): void {
    this.#current = undefined;
    this.#pointer = false;
  }

  /** The log's `pointerdown` listener. */
  onPointerDown = (): void => {
    this.#pointer = true;
  };

  /**
   * The `focusin` listener of the log and of its end edge: Tab from before the log lands on the log
   * itself, Shift+Tab from after it on its end edge; either goes on to the current row. Focus put
   * anywhere else in the log (a click, a live prompt, `find()`, a control focused by script) stays.
   */
  onFocusIn = (e: FocusEvent): void => {
    const log = this.ctx.log();
    const pointer = this.#pointer;
    this.#pointer = false;
    const target = e.composedPath()[0];
    if (!log || !(target instanceof HTMLElement)) return;
    const row = rowOf(e);
    // The last row is not remembered: the log's end, wherever it is when Tab comes back.
    if (row) this.#current = Number(row.dataset.index) === this.ctx.count() - 1 ? undefined : row.dataset.key;
    const edge = target.classList.contains('feed-edge');
    if (target !== log && !edge) return;
    const from = e.relatedTarget;
    // A click on the log's background, or Tab leaving the log through its end edge.
    if ((pointer && !edge) || (from instanceof Node && log.contains(from))) return;
    const n = this.ctx.count();
    if (n === 0) return;
    const known = this.#current === undefined ? -1 : this.ctx.indexOf(this.#current);
    void this.ctx.focusRow(known >= 0 ? known : n - 1);
  };

  /**
   * The log's `keydown` listener, for Tab: within the current row's controls, then out of the log.
   * Returns true when it handled the key.
   */
  onKeydown = (e: KeyboardEvent): boolean => {
    if (e.key !== 'Tab' || e.ctrlKey || e.metaKey || e.altKey) return false;
    const on = e.composedPath()[0];
    const row = rowOf(e);
    const stops = row ? tabStops(row) : [];
    const at = on instanceof HTMLElement ? stops.indexOf(on) : -1;
    if (!e.shiftKey) {
      // On to the row's next control, if it has one; else out, after the log.
      if (row && at < stops.length - 1) return false;
      this.#leave('end');
      return true;
    }
    if (row && on !== row && at <= 0) {
      // From the row's first control back to the row.
      e.preventDefault();
      row.focus({ preventScroll: true });
      return true;
    }
    if (row && on !== row) return false;
    this.#leave('start');
    return true;
  };

  /**
   * Moves focus to the log's edge before (`start`, in the tab order until it loses focus again) or
   * after it (`end`, always in the tab order: Shift+Tab comes back through it): the browser's Tab,
   * which goes on from the focused element, then leaves the log.
   */
  #leave(which: 'start' | 'end'): void {
    const edge = this.host.renderRoot.querySelector<HTMLElement>(`.feed-edge[data-edge="${which}"]`);
    if (!edge) return;
    if (edge.tabIndex < 0) {
      edge.tabIndex = 0;
      edge.addEventListener('blur', () => (edge.tabIndex = -1), { once: true });
    }
    edge.focus({ preventScroll: true });
  }
}

/** The row (`.row` of the log) on the event's path, if any. */
function rowOf(e: Event): HTMLElement | undefined {
  return e
    .composedPath()
    .find(
      (n): n is HTMLElement =>
        n instanceof HTMLElement && n.classList.contains('row') && n.dataset.index !== '-1',
    );
}
