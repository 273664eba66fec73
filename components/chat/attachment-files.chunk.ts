/**
 * The chunk of `<silo-chat>`'s attachments (attachment-files.ts: reading the files, their checks,
 * chips and content blocks), loaded with `import()` by the first file added (attachments.ts).
 * @packageDocumentation
 */
import { Chunk } from '../shared/chunk.ts';

/** The chunk's module (attachment-files.ts). */
export type Files = typeof import('./attachment-files.ts');

/** The attachments' chunk; its `value` once loaded. */
export const filesChunk = new Chunk<Files>(() => import('./attachment-files.ts'));
