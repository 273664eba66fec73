/**
 * The chunk of `<silo-chat>`'s attention (attention.controller.ts: the document's title and a Web
 * Notification while the page is hidden and a request waits), loaded with `import()` as each chat is
 * created, beside the first paint: a request comes only from a session the chat connects afterwards,
 * over the network, so the controller is in before the first one.
 * @packageDocumentation
 */
import { Chunk } from '../shared/chunk.ts';

type Attention = typeof import('./attention.controller.ts');

const attentionChunk = new Chunk<Attention>(() => import('./attention.controller.ts'));

/**
 * Loads the attention chunk (once; later calls return the same promise). Rejects if it cannot be
 * loaded; the next call (the next chat created) tries again.
 */
export function loadAttention(): Promise<Attention> {
  return attentionChunk.load();
}
