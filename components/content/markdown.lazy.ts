/**
 * Agent Markdown without the Markdown code in the first paint: {@link markdown} renders the sanitized Markdown (content/markdown-render.ts, its own chunk with `marked` and DOMPurify)
 * once that chunk is loaded, and until then the text itself, escaped by Lit as plain text (never as
 * HTML), then swaps in the Markdown when the chunk arrives (content/code.lazy.ts's `whenLoaded`). The components entry starts loading the
 * chunk as soon as it is imported, so a transcript rarely sees the plain stage.
 * @packageDocumentation
 */
import { html, type TemplateResult } from 'lit';
import type { SiloCopyStrings } from '../shared/strings/strings.ts';
import { whenLoaded } from './code.lazy.ts';
import { markdownChunk } from './markdown-render.chunk.ts';

export { loadMarkdown } from './markdown-render.chunk.ts';

const plain = (text: string): TemplateResult => html`<div class="plain">${text}</div>`;

/**
 * Untrusted agent text as sanitized Markdown (policy: content/markdown.ts, docs/security.md): `key` names a
 * stream that grows by chunks (a row's key and part; rendered block by block, see content/markdown-stream.ts),
 * or is undefined for text rendered whole (cached per `owner`, a row object); `copy` labels the code
 * blocks' copy buttons (default {@link defaultCopyStrings}). Plain text until the Markdown chunk is
 * loaded.
 */
export function markdown(
  key: string | undefined,
  owner: object,
  text: string,
  copy?: SiloCopyStrings,
): unknown {
  return whenLoaded(markdownChunk, (r) => r.markdownValue(key, owner, text, copy), plain(text));
}
