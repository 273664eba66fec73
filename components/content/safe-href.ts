/**
 * The one URL policy for agent links: `http:`, `https:` and `mailto:` only (used by the sanitizer,
 * content/markdown.ts, and by the transcript's resource links). Tiny, so the first paint can use it without
 * the Markdown chunk.
 * @packageDocumentation
 */

/** The URL schemes a link from agent content may have. */
export const SAFE_URL = /^(?:https?:|mailto:)/i;

/** A URL safe to put in an `href` (`http:`, `https:`, `mailto:`), or undefined. Never throws. */
export function safeHref(url: unknown): string | undefined {
  return typeof url === 'string' && SAFE_URL.test(url.trim()) ? url.trim() : undefined;
}
