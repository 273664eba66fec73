/**
 * The chunk of `<silo-transcript>`'s rows (rows/log.ts: the virtualizer, the row templates, tool cards,
 * permission prompts and their styles), loaded with `import()`: the components entry starts the load
 * beside the first paint, and a transcript's render joins it (log.lazy.ts).
 * @packageDocumentation
 */
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
