/**
 * The sanitizer of agent HTML (what `marked` makes of agent Markdown, raw HTML included), without a
 * sanitizer library: the HTML is parsed by the browser in an inert document (`DOMParser`: nothing in
 * it runs or loads), and a new tree is built from it that holds only what the allowlist below names:
 * elements of {@link ALLOWED_TAGS} (created afresh, with the allowed attributes copied one by one),
 * text (as text nodes) and nothing else. Nothing of the parsed tree is kept (no comment, no foreign
 * SVG or MathML element, no attribute not named), so what is serialized is only HTML elements that
 * hold no raw text (no `<script>`, `<style>`, `<noscript>`, `<textarea>`, `<title>`…): its text and
 * attribute values are escaped, and parsing it again in the page yields the same elements and
 * attributes, never new ones. Policy and tests: docs/security.md.
 * @packageDocumentation
 */
import type { SiloCopyStrings } from '../shared/strings/strings.ts';
import { wrapCodeBlocks } from './copy.ts';
import { SAFE_URL } from './safe-href.ts';

const HTML_NS = 'http://www.w3.org/1999/xhtml';

/**
 * What agent Markdown may contain: text structure only. An allowlist, so anything not named here is
 * dropped (its text kept): no `<img>`, `<picture>`, `<video>`, `<audio>`, `<svg>`, `<iframe>`,
 * `<object>`, `<link>`, `<style>`, `<form>` controls, `<dialog>`, `<button>`, `<input>`…
 */
export const ALLOWED_TAGS: ReadonlySet<string> = new Set([
  ...['p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code'],
  ...['em', 'strong', 'b', 'i', 's', 'del', 'ins', 'sup', 'sub', 'kbd', 'samp', 'var', 'abbr', 'q'],
  ...['ul', 'ol', 'li', 'dl', 'dt', 'dd', 'a'],
  ...['table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'details', 'summary'],
]);

/**
 * The attributes agent Markdown keeps besides a link's `href` (below): none fetches, styles or names
 * anything. Every attribute that makes a browser fetch (`src`, `srcset`, `background`, `poster`,
 * `data`, `action`, `formaction`, `ping`, `cite`, `longdesc`, `xlink:href`, `usemap`…) is not listed,
 * so it is not copied, and neither are event handlers, `class` (but a code block's language),
 * `id`, `style`, `name`, `open`, `role`, `aria-*` and `data-*`, with which agent content could take
 * on Silo's own styles (fake tool cards or permission prompts), be found as Silo's rows, or cover
 * the page.
 */
export const ALLOWED_ATTRS: ReadonlySet<string> = new Set([
  ...['title', 'align', 'start', 'colspan', 'rowspan', 'abbr', 'lang', 'dir'],
]);

/**
 * Elements dropped with everything inside them (others not allowed keep their content): code,
 * styles, embedded media and documents, and what the inert document parses differently from the
 * page (`<noscript>`'s content is markup there, text in the page).
 */
const DROP_WITH_CONTENT = new Set([
  ...['script', 'style', 'template', 'noscript', 'noembed', 'noframes', 'xmp', 'plaintext'],
  ...['iframe', 'frame', 'frameset', 'head', 'title', 'audio', 'video', 'colgroup'],
]);

/** The class a fenced code block's `<code>` may keep: `language-` and a short name (for the highlighter). */
const CODE_LANGUAGE = /^language-[\w+#.-]{1,32}$/;

/**
 * Sanitizes agent `html` under the policy above and serializes it; with `codeCopy`, each code block is
 * also wrapped with its copy button (content/copy.ts `wrapCodeBlocks`) in the inert document, before
 * the tree is serialized once. Links that keep an `href` (`http:`, `https:`, `mailto:`) open in a new
 * tab with `rel="noopener noreferrer nofollow"`; a raw `<img>` with such a `src` becomes a link to it
 * (its `alt`, or the URL, as text), so nothing is fetched without a click. Never throws.
 */
export function sanitizeHtml(html: string, codeCopy?: SiloCopyStrings): string {
  const doc = new DOMParser().parseFromString(`<!DOCTYPE html><body>${html}`, 'text/html');
  const out = doc.createElement('div');
  rebuild(doc.body, out, doc);
  if (codeCopy) wrapCodeBlocks(out, codeCopy);
  return out.innerHTML;
}

/** Appends to `to` the allowed copy of `from`'s children (in document `doc`). */
function rebuild(from: Node, to: Element, doc: Document): void {
  for (let node = from.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === Node.TEXT_NODE) {
      to.append(doc.createTextNode((node as Text).data));
      continue;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) continue; // comments, processing instructions
    const el = node as Element;
    const tag = el.localName;
    // SVG and MathML are dropped whole: their elements share names with HTML ones (`a`, `title`, `style`).
    if (el.namespaceURI !== HTML_NS || DROP_WITH_CONTENT.has(tag)) continue;
    if (tag === 'img') {
      const link = imageLink(el, doc);
      if (link) to.append(link);
      continue;
    }
    if (!ALLOWED_TAGS.has(tag)) {
      rebuild(el, to, doc);
      continue;
    }
    const copy = doc.createElement(tag);
    for (const { name, value, namespaceURI } of Array.from(el.attributes)) {
      if (namespaceURI !== null) continue;
      const v = value.trim();
      if (ALLOWED_ATTRS.has(name)) copy.setAttribute(name, v);
      else if (name === 'class' && tag === 'code' && CODE_LANGUAGE.test(v)) copy.setAttribute('class', v);
      else if (name === 'href' && tag === 'a' && SAFE_URL.test(v)) copy.setAttribute('href', v);
    }
    if (copy.hasAttribute('href')) opensApart(copy);
    rebuild(el, copy, doc);
    to.append(copy);
  }
}

/** Makes link `a` open in a new tab, without Referer or opener. */
function opensApart(a: Element): void {
  a.setAttribute('target', '_blank');
  a.setAttribute('rel', 'noopener noreferrer nofollow');
}

/** A raw `<img>` as a link to its `src` (when that is a safe URL), labelled by its `alt` or the URL. */
function imageLink(img: Element, doc: Document): Element | undefined {
  const src = img.getAttribute('src')?.trim();
  if (!src || !SAFE_URL.test(src)) return undefined;
  const a = doc.createElement('a');
  a.setAttribute('href', src);
  opensApart(a);
  a.textContent = img.getAttribute('alt')?.trim() || src;
  return a;
}
