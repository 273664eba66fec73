/**
 * The Markdown chunk: what turns agent text into sanitized HTML (`marked`, the sanitizer of content/markdown-sanitize.ts, the streaming
 * renderer and the code blocks' copy buttons), loaded with `import()` by content/markdown.lazy.ts, so the first
 * paint of `<silo-chat>` does not wait for it. Only these functions' output may reach `unsafeHTML`.
 * @packageDocumentation
 */
import { html } from 'lit';
import { guard } from 'lit/directives/guard.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { defaultContentStrings, type SiloContentStrings } from '../shared/strings/strings.ts';
import { restOf } from './long-text.ts';
import { renderMarkdown } from './markdown.ts';
import { copyLabels, renderMarkdownBlocks } from './markdown-stream.ts';
import { markdownCut } from './text-budget.ts';

/** Markdown HTML cached per owner object (a patched row is a new object, so the cache follows it). */
const cache = new WeakMap<object, Map<string, string>>();

/**
 * A message's streaming text as sanitized Markdown, in pieces ({@link grouped}; `key` names the
 * stream: a row's key and part), or the whole text at once when `key` is undefined (cached per
 * `owner`). Only the part `markdownCut` allows is Markdown (content/text-budget.ts); the rest follows
 * as collapsed plain text (content/long-text.ts), whose open state `restKey` names (default `key`).
 * Code blocks carry their copy buttons (content/copy.ts), labelled by `s`. Never throws.
 */
export function markdownValue(
  key: string | undefined,
  owner: object,
  text: string,
  s: SiloContentStrings = defaultContentStrings,
  restKey: string | undefined = key,
  locale?: string,
): unknown[] {
  const cut = markdownCut(text);
  const shown = cut === text.length ? text : text.slice(0, cut);
  const out =
    key !== undefined ? grouped(renderMarkdownBlocks(key, shown, s)) : [unsafeHTML(whole(owner, shown, s))];
  if (cut < text.length) out.push(restOf(restKey ?? '', text, cut, s, locale));
  return out;
}

function whole(owner: object, text: string, s: SiloContentStrings): string {
  let m = cache.get(owner);
  if (!m) {
    m = new Map();
    cache.set(owner, m);
  }
  const cacheKey = `${copyLabels(s)}\u0000${text}`;
  let out = m.get(cacheKey);
  if (out === undefined) {
    out = renderMarkdown(text, s);
    m.set(cacheKey, out);
  }
  return out;
}

/** Complete pieces a group holds (see {@link grouped}). */
const GROUP = 16;

/**
 * A streaming message's pieces (content/markdown-stream.ts: complete ones, then the open block) as Lit values:
 * every full run of {@link GROUP} complete pieces in one wrapper `div` that is only rendered once
 * (`guard`), the rest one `unsafeHTML` each. So each frame's render and layout walk a few wrappers and
 * the last pieces, not every block of a long answer: the browser reuses a wrapper whose content did
 * not change as a whole. The wrapper has no box of its own (no margin, padding or border), so the
 * blocks' margins collapse across it as they did without it.
 */
function grouped(pieces: readonly string[]): unknown[] {
  const whole = Math.floor(Math.max(0, pieces.length - 1) / GROUP) * GROUP;
  const out: unknown[] = [];
  for (let i = 0; i < whole; i += GROUP) {
    const group = pieces.slice(i, i + GROUP);
    out.push(guard(group, () => html`<div class="md-group">${group.map((b) => unsafeHTML(b))}</div>`));
  }
  for (let i = whole; i < pieces.length; i++) out.push(unsafeHTML(pieces[i]!));
  return out;
}
