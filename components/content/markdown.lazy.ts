/**
 * Agent Markdown without the Markdown code in the first paint: {@link markdown} renders the sanitized Markdown (content/markdown-render.ts, its own chunk with `marked` and the sanitizer)
 * once that chunk is loaded, and until then the text itself, escaped by Lit as plain text (never as
 * HTML), then swaps in the Markdown when the chunk arrives (content/code.lazy.ts's `whenLoaded`). The components entry starts loading the
 * chunk as soon as it is imported, so a transcript rarely sees the plain stage.
 * @packageDocumentation
 */
import { html, type TemplateResult } from 'lit';
import { clip } from '../shared/format.ts';
import type { SiloContentStrings } from '../shared/strings/strings.ts';
import { whenLoaded } from './code.lazy.ts';
import { markdownChunk } from './markdown-render.chunk.ts';

export { loadMarkdown } from './markdown-render.chunk.ts';

/**
 * The plain stage, cut to one piece's length (content/text-budget.ts `PIECE_CHARS`): a megabyte line
 * laid out whole held Chromium for seconds, and the whole text arrives with the chunk.
 */
const plain = (text: string): TemplateResult => html`<div class="plain">${clip(text, 4096)}</div>`;

/**
 * Untrusted agent text as sanitized Markdown (policy: content/markdown.ts, docs/security.md): `key` names a
 * stream that grows by chunks (a row's key and part; rendered block by block, see content/markdown-stream.ts),
 * or is undefined for text rendered whole (cached per `owner`, a row object); `s` labels the code
 * blocks' copy buttons and the long-text bar (default `defaultContentStrings`). Only a bounded part is
 * Markdown; the rest is collapsed plain text, whose open state `restKey` names (default `key`;
 * content/markdown-render.ts). Plain text until the Markdown chunk is loaded.
 */
export function markdown(
  key: string | undefined,
  owner: object,
  text: string,
  s?: SiloContentStrings,
  restKey: string | undefined = key,
  locale?: string,
): unknown {
  return whenLoaded(markdownChunk, (r) => r.markdownValue(key, owner, text, s, restKey, locale), plain(text));
}
