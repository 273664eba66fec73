/**
 * The Markdown chunk: what turns agent text into sanitized HTML (`marked`, DOMPurify, the streaming
 * renderer and the code blocks' copy buttons), loaded with `import()` by markdown-lazy.ts, so the first
 * paint of `<silo-chat>` does not wait for it. Only these functions' output may reach `unsafeHTML`.
 * @packageDocumentation
 */
import type { DirectiveResult } from 'lit/directive.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { renderMarkdown } from './markdown.ts';
import { copyLabels, renderMarkdownBlocks } from './markdown-stream.ts';
import { defaultCopyStrings, type SiloCopyStrings } from './strings.ts';

/** Markdown HTML cached per owner object (a patched row is a new object, so the cache follows it). */
const cache = new WeakMap<object, Map<string, string>>();

/**
 * A message's streaming text as sanitized Markdown, one `unsafeHTML` per block (`key` names the
 * stream: a row's key and part), or the whole text at once when `key` is undefined (cached per
 * `owner`). Code blocks carry their copy buttons (copy.ts), labelled by `copy`. Never throws.
 */
export function markdownValue(
  key: string | undefined,
  owner: object,
  text: string,
  copy: SiloCopyStrings = defaultCopyStrings,
): DirectiveResult[] {
  if (key !== undefined) return renderMarkdownBlocks(key, text, copy).map((b) => unsafeHTML(b));
  let m = cache.get(owner);
  if (!m) {
    m = new Map();
    cache.set(owner, m);
  }
  const cacheKey = `${copyLabels(copy)}\u0000${text}`;
  let out = m.get(cacheKey);
  if (out === undefined) {
    out = renderMarkdown(text, copy);
    m.set(cacheKey, out);
  }
  return [unsafeHTML(out)];
}
