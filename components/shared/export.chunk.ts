/**
 * The page API's export entry (`silo-acp/export`: JSONL and Markdown export and import, with the
 * `diff` package) as a {@link Chunk}, out of the first paint: `<silo-chat>` loads it when a transcript
 * is exported as Markdown, `<silo-transcript>` when it reads a JSONL file or URL. The components'
 * bundle takes it from the sibling export.js, as it takes the main entry from silo.js.
 * @packageDocumentation
 */
import { Chunk } from './chunk.ts';

/** The export entry, loaded once on first use; a failed load is retried by the next use. */
export const exportChunk = new Chunk<typeof import('../../src/export.ts')>(
  () => import('../../src/export.ts'),
);
