/**
 * The chunk of `<silo-transcript>`'s rows (rows/log.ts: the virtualizer, the row templates, tool cards,
 * permission prompts, their styles and the keyboard navigation among rows), loaded with `import()`:
 * the components entry starts the load beside the first paint, and a transcript's render joins it
 * (log.lazy.ts).
 * @packageDocumentation
 */
import type { VirtualizerHostElement } from '@lit-labs/virtualizer/virtualize.js';
import type { TranscriptRow } from '../../src/index.ts';
import { Chunk } from '../shared/chunk.ts';

/** The chunk's module (rows/log.ts). */
export type TranscriptLog = typeof import('./rows/log.ts');

/** The rows chunk; its `value` once loaded. */
export const logChunk = new Chunk<TranscriptLog>(() => import('./rows/log.ts'));

/**
 * Loads the transcript's rows chunk (once; later calls return the same promise). Rejects if the chunk
 * cannot be loaded (a network error); the next call (or the next render of a transcript) tries again.
 */
export function loadTranscriptView(): Promise<TranscriptLog> {
  return logChunk.load();
}

/**
 * Scrolls row `index` of the log into view and returns its element (rows/navigation.ts `revealRow`),
 * once the rows chunk is in. Null when there is no log, the chunk cannot be loaded or the row did not
 * render within ten frames.
 */
export async function revealRow(
  log: (HTMLElement & VirtualizerHostElement) | null,
  index: number,
): Promise<HTMLElement | null> {
  if (!log) return null;
  const chunk = await logChunk.load().catch(() => undefined);
  return chunk ? chunk.revealRow(log, index) : null;
}

/**
 * The row a key press in the log moves to (rows/navigation.ts `keyTarget`); undefined while the rows
 * chunk is not in (no row is drawn yet, so there is nowhere to move).
 */
export function keyTarget(
  e: KeyboardEvent,
  rows: readonly TranscriptRow[],
  isPending: (row: TranscriptRow) => boolean,
): number | undefined {
  return logChunk.value?.keyTarget(e, rows, isPending);
}
