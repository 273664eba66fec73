/**
 * The rows of `<silo-transcript>` without their code in the first paint: transcript-log.ts (the
 * virtualizer, the row templates, tool cards, permission prompts) is its own chunk, a code-lazy.ts
 * {@link Chunk}. The components entry starts loading it as soon as it is imported, beside the first
 * paint, so it is normally in before a journal's first rows are. Until then a transcript draws its
 * frame (the empty log region, the usage header, the empty text) and keeps every row in its model; it
 * draws them on the render after the chunk arrives.
 * @packageDocumentation
 */
import type { ReactiveControllerHost } from 'lit';
import { Chunk } from './code-lazy.ts';

/** The chunk's module (transcript-log.ts). */
export type TranscriptLog = typeof import('./transcript-log.ts');

const logChunk = new Chunk<TranscriptLog>(() => import('./transcript-log.ts'));

/**
 * Loads the transcript's rows chunk (once; later calls return the same promise). Rejects if the chunk
 * cannot be loaded (a network error); the next call (or the next render of a transcript) tries again.
 */
export function loadTranscriptView(): Promise<TranscriptLog> {
  return logChunk.load();
}

/**
 * The rows chunk if it is loaded. If not, starts (or joins) its load and asks `host` to render again
 * once it arrives, and returns undefined: the caller draws its frame meanwhile. A failed load asks
 * nothing; the next call tries again. Loses nothing: the rows stay in the caller's model.
 */
export function transcriptLog(host: ReactiveControllerHost): TranscriptLog | undefined {
  if (logChunk.value) return logChunk.value;
  logChunk.load().then(
    () => host.requestUpdate(),
    () => undefined,
  );
  return undefined;
}
