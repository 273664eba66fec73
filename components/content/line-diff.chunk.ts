/**
 * The line differ's chunk (line-diff.ts, with the `diff` package), loaded with `import()` the first
 * time a diff is drawn (code.lazy.ts).
 * @packageDocumentation
 */
import { Chunk } from '../shared/chunk.ts';

/** The chunk's module (line-diff.ts). */
export type Differ = typeof import('./line-diff.ts');

/** The differ's chunk; its `value` once loaded. */
export const differChunk = new Chunk<Differ>(() => import('./line-diff.ts'));

/** Loads the line differ (once). Rejects if its chunk cannot be loaded. */
export function loadDiffer(): Promise<Differ> {
  return differChunk.load();
}
