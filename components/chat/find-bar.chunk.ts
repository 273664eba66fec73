/**
 * The chunk of `<silo-chat>`'s find bar (find-bar.controller.ts), loaded with `import()` by the first
 * Ctrl+F (find-shortcut.controller.ts); a chat that is never searched never loads it.
 * @packageDocumentation
 */
import { Chunk } from '../shared/chunk.ts';

type FindBar = typeof import('./find-bar.controller.ts');

const barChunk = new Chunk<FindBar>(() => import('./find-bar.controller.ts'));

/**
 * Loads the find bar's chunk (once; later calls return the same promise). Rejects if it cannot be
 * loaded; the next call tries again.
 */
export function loadFindBar(): Promise<FindBar> {
  return barChunk.load();
}
