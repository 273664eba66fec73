/**
 * The chunk of find in `<silo-transcript>` (find.controller.ts, with text.ts and highlight.ts), loaded
 * with `import()` by the first find (find.lazy.ts).
 * @packageDocumentation
 */
import { Chunk } from '../../shared/chunk.ts';

type Finder = typeof import('./find.controller.ts');

const findChunk = new Chunk<Finder>(() => import('./find.controller.ts'));

/**
 * Loads the find chunk (once; later calls return the same promise). Rejects if it cannot be loaded;
 * the next call tries again.
 */
export function loadFind(): Promise<Finder> {
  return findChunk.load();
}
