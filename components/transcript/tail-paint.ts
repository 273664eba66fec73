/**
 * The tail paint of `<silo-transcript>`: while a journaled session opens at its end, the last rows are
 * also drawn in normal flow, bottom-aligned, in a layer over the log (inert and hidden from assistive
 * technology), so the last screen is right in the first frame the rows render. The virtualized log
 * underneath needs a few frames to measure those rows and settle at its end (it measures from
 * ResizeObserver callbacks, a frame each); once the whole journal is in (read after the tail and
 * swapped in, which moves the log for a few frames) and the log holds still at its end, the layer goes
 * (see `StickToBottomController.opening`) and the log shows the same rows in the same place. Rows that can
 * be answered (permission prompts, questions) are never drawn twice: with one in the tail, there is
 * no layer and the log settles as before.
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { TranscriptRow } from '../../src/index.ts';

/** How many of the last rows the layer draws: more than any chat's view shows at once. */
export const TAIL_PAINT_ROWS = 24;

/** The layer's template for the last rows of `rows` (`render` draws one, by index), or `nothing`. */
export function tailPaint(
  rows: readonly TranscriptRow[],
  render: (row: TranscriptRow, index: number) => TemplateResult,
): TemplateResult | typeof nothing {
  const start = Math.max(0, rows.length - TAIL_PAINT_ROWS);
  const tail = rows.slice(start);
  if (tail.length === 0 || tail.some((r) => r.type === 'permission' || r.type === 'elicitation'))
    return nothing;
  return html`<div class="tail-paint" aria-hidden="true" inert>${tail.map((r, i) => render(r, start + i))}</div>`;
}

/**
 * Puts the layer (if rendered) over `log`'s box: called after each render, before the frame paints
 * (reads the log's layout once).
 */
export function placeTailPaint(log: HTMLElement): void {
  const layer = (log.getRootNode() as ParentNode).querySelector<HTMLElement>('.tail-paint');
  if (!layer) return;
  layer.style.top = `${log.offsetTop}px`;
  layer.style.height = `${log.clientHeight}px`;
}
