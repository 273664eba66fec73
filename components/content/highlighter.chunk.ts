/**
 * The syntax highlighter's chunk (highlighter.ts, with highlight.js), loaded with `import()` the first
 * time a code block is drawn (code.lazy.ts).
 * @packageDocumentation
 */
import { Chunk } from '../shared/chunk.ts';

/** The chunk's module (highlighter.ts). */
export type Highlighter = typeof import('./highlighter.ts');

/** The highlighter's chunk; its `value` once loaded. */
export const highlighterChunk = new Chunk<Highlighter>(() => import('./highlighter.ts'));

/** Loads the syntax highlighter (once). Rejects if its chunk cannot be loaded. */
export function loadHighlighter(): Promise<Highlighter> {
  return highlighterChunk.load();
}
