/**
 * The Markdown chunk (content/markdown-render.ts, with `marked` and the sanitizer, content/markdown-sanitize.ts) and its loader, apart from the
 * `markdown` directive (content/markdown.lazy.ts) so that the components entry can start the load without
 * the directive's code in the first paint.
 * @packageDocumentation
 */
import { Chunk } from '../shared/chunk.ts';

type Renderer = typeof import('./markdown-render.ts');

/** The Markdown chunk. */
export const markdownChunk = new Chunk<Renderer>(() => import('./markdown-render.ts'));

/**
 * Loads the Markdown chunk (once; later calls return the same promise). Rejects if the chunk cannot be
 * loaded (a network error); the next call tries again, and text stays plain meanwhile.
 */
export function loadMarkdown(): Promise<Renderer> {
  return markdownChunk.load();
}
