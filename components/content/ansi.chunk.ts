/**
 * The ANSI colouring's chunk (ansi.ts, with `ansi_up`), loaded with `import()` the first time a
 * terminal's output is drawn (ansi.lazy.ts).
 * @packageDocumentation
 */
import { Chunk } from '../shared/chunk.ts';

/** The chunk's module (ansi.ts). */
export type Ansi = typeof import('./ansi.ts');

/** The ANSI chunk; its `value` once loaded. */
export const ansiChunk = new Chunk<Ansi>(() => import('./ansi.ts'));
