/**
 * The rows of `<silo-transcript>`, its own chunk (loaded with `import()` by transcript/log.lazy.ts, so
 * neither the virtualizer nor the row templates, tool cards and prompts are in the first paint): the
 * virtualized log's content, the tail paint drawn over it while a session opens at its end, and the
 * rows' styles. The frame around them (the log element, the usage header, the empty text, "Jump to latest") is `transcript/view.ts`, in the first paint.
 *
 * Evaluating this module gives the virtualizer its frame-deferred ResizeObserver (see
 * {@link provideFrameResizeObserver}), before any virtualizer exists.
 * @packageDocumentation
 */
import { flow } from '@lit-labs/virtualizer/layouts/flow.js';
import { provideResizeObserver } from '@lit-labs/virtualizer/polyfillLoaders/ResizeObserver.js';
import { virtualize } from '@lit-labs/virtualizer/virtualize.js';
import { html, type nothing, type TemplateResult } from 'lit';
import type { TranscriptRow } from '../../../src/index.ts';
import { logMeasured } from '../stick-to-bottom.controller.ts';
import { tailPaint } from '../tail-paint.ts';
import type { RowContext } from './row-context.ts';
import { renderRow } from './rows.ts';

export { keyTarget, revealRow } from './navigation.ts';
export { rowStyles } from './rows.styles.ts';

/** The layout, given rather than loaded on demand (no dynamic import; one config for every render). */
const LAYOUT = flow();

/**
 * Gives the virtualizer a ResizeObserver whose callbacks run in the next animation frame (measuring
 * rows inside the observer callback otherwise trips the browser's "ResizeObserver loop completed with
 * undelivered notifications" error on the host page), and which tells the log's stick-to-bottom
 * controller once the virtualizer has taken new measurements in ({@link logMeasured}).
 */
function provideFrameResizeObserver(): void {
  class FrameResizeObserver extends ResizeObserver {
    constructor(callback: ResizeObserverCallback) {
      super((entries, observer) =>
        requestAnimationFrame(() => {
          callback(entries, observer);
          const logs = new Set<Element>();
          for (const e of entries) if (e.target.parentElement) logs.add(e.target.parentElement);
          for (const log of logs) logMeasured(log);
        }),
      );
    }
  }
  provideResizeObserver(FrameResizeObserver);
}
provideFrameResizeObserver();

/** The log's content: `rows`, virtualized (the log element, `scroller: true`, is the virtualizer's host). */
export function logRows(rows: readonly TranscriptRow[], ctx: RowContext): unknown {
  return virtualize({
    items: rows as TranscriptRow[],
    // The virtualizer may still ask for an index past the end in the render the list shrinks in
    // (its range is from the last layout): such an index is its own key and renders nothing.
    keyFunction: (row: TranscriptRow | undefined, i: number) => row?.key ?? i,
    renderItem: (row: TranscriptRow | undefined, i: number) => (row ? renderRow(row, i, ctx) : html``),
    scroller: true,
    layout: LAYOUT,
  });
}

/** What is drawn over the log while it opens at its end: the last screen (transcript/tail-paint.ts). */
export function tailPaintRows(
  rows: readonly TranscriptRow[],
  ctx: RowContext,
): TemplateResult | typeof nothing {
  return tailPaint(rows, (row, i) => renderRow(row, i, ctx));
}
