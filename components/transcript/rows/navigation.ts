/**
 * Keyboard navigation in `<silo-transcript>`'s log, a feed of rows: ArrowUp/ArrowDown to the
 * previous/next row, PageUp/PageDown between turns (user messages), Alt+ArrowUp/Alt+ArrowDown between
 * pending prompts, Home/End to the first/last row ({@link navigationTarget}, pure: it only picks the
 * row), and scrolling a row into view ({@link revealRow}, also used by find and by live prompts
 * taking focus). In the rows chunk (there is nothing to navigate before it is in); the transcript
 * reaches it through transcript/rows.chunk.ts. Tab in and out of the feed: transcript/feed.controller.ts.
 * @packageDocumentation
 */
import { type VirtualizerHostElement, virtualizerRef } from '@lit-labs/virtualizer/virtualize.js';
import type { TranscriptRow } from '../../../src/index.ts';

/**
 * The row a key press in the log moves to: its index, `-1` for a handled key with nowhere to go, or
 * `undefined` for a key this navigation does not handle (Ctrl, Meta or Shift held; other keys): a
 * row for ArrowUp/ArrowDown, a turn (user message) for PageUp/PageDown, a pending prompt for
 * Alt+ArrowUp/Alt+ArrowDown, the first or last row for Home/End.
 * `from` is the index of the row focus is in (`-1`: the log itself).
 */
export function navigationTarget(
  e: KeyboardEvent,
  rows: readonly TranscriptRow[],
  from: number,
  isPending: (row: TranscriptRow) => boolean,
): number | undefined {
  if (e.ctrlKey || e.metaKey || e.shiftKey) return undefined;
  const isTurn = (r: TranscriptRow) => r.type === 'message' && r.role === 'user';
  const arrow = e.key === 'ArrowDown' || e.key === 'ArrowUp';
  const page = e.key === 'PageDown' || e.key === 'PageUp';
  if (!arrow && !page) return navigationEnds(e, rows);
  if (page && e.altKey) return undefined;
  const match = e.altKey ? isPending : page ? isTurn : () => true;
  if (e.key === 'ArrowDown' || e.key === 'PageDown') {
    for (let i = from + 1; i < rows.length; i++) if (match(rows[i]!)) return i;
    return -1;
  }
  for (let i = (from < 0 ? rows.length : from) - 1; i >= 0; i--) if (match(rows[i]!)) return i;
  return -1;
}

/** Home and End: the first and the last row. */
function navigationEnds(e: KeyboardEvent, rows: readonly TranscriptRow[]): number | undefined {
  if (e.key === 'Home' && !e.altKey) return 0;
  if (e.key === 'End' && !e.altKey) return rows.length - 1;
  return undefined;
}

/**
 * Scrolls row `index` of a virtualized log into view inside the log (never the page) and returns its
 * element: a row not rendered is brought in by the virtualizer (its element is looked for during the
 * next frames); a rendered row outside the view is placed a third of the way down. Null when the row
 * did not render within ten frames.
 */
export async function revealRow(
  log: HTMLElement & VirtualizerHostElement,
  index: number,
): Promise<HTMLElement | null> {
  const find = () => log.querySelector<HTMLElement>(`:scope > .row[data-index="${index}"]`);
  let el = find();
  if (!el) {
    // Just after the chunk arrived the log may not hold its virtualizer, or the rows, yet: wait for
    // them (a few frames) before asking it to bring the row in.
    const target = () => log[virtualizerRef]?.element(index);
    for (let i = 0; i < 10 && !target(); i++) await new Promise((r) => requestAnimationFrame(r));
    target()?.scrollIntoView({ block: 'center' });
    for (let i = 0; i < 10 && !el; i++) {
      await new Promise((r) => requestAnimationFrame(r));
      el = find();
    }
  }
  if (el) {
    const top = el.getBoundingClientRect().top - log.getBoundingClientRect().top;
    if (top < 0 || top + el.offsetHeight > log.clientHeight) log.scrollTop += top - log.clientHeight / 3;
  }
  return el;
}

/**
 * {@link navigationTarget} for a key press on a row or on the log itself, from the row focus is in
 * (the outermost `.row` on the event's composed path, by its `data-index`: a subagent's rows inside a
 * card are not rows of the log; none: the log itself). A key pressed in a control inside a row (a
 * field of a question, a scrolling code block, a button) is that control's: undefined.
 */
export function keyTarget(
  e: KeyboardEvent,
  rows: readonly TranscriptRow[],
  isPending: (row: TranscriptRow) => boolean,
): number | undefined {
  const path = e.composedPath();
  const on = path[0];
  if (!(on instanceof HTMLElement) || !(on.classList.contains('row') || on.classList.contains('log')))
    return undefined;
  const current = path.findLast((n) => n instanceof HTMLElement && n.classList.contains('row')) as
    | HTMLElement
    | undefined;
  return navigationTarget(e, rows, current ? Number(current.dataset.index) : -1, isPending);
}
