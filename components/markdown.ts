/**
 * Agent text → safe HTML. Agent text is untrusted: it is parsed as Markdown by `marked`, then
 * sanitized by a private DOMPurify instance (no script, style, iframe, form or embedded content, no
 * event-handler attributes, only `http:`, `https:` and `mailto:` URLs), and links open in a new tab
 * with `rel="noopener noreferrer nofollow"`. Images in Markdown become links, so agent text cannot
 * make the page fetch a URL by itself. Only the output of {@link renderMarkdown} may reach `unsafeHTML`.
 * @packageDocumentation
 */
import createDOMPurify, { type DOMPurify } from 'dompurify';
import { Marked } from 'marked';

/** A bare URL up to a quote, backtick or brace: where a URL inside JSON in prose ends. */
const URL_BEFORE_QUOTE = /^https?:\/\/[^\s<"'`{}]+(?=["'`{}])/i;

const marked = new Marked({
  gfm: true,
  async: false,
  tokenizer: {
    // GFM autolinks run to the next space, so `{"url":"https://x.test/a","id":1}` became one long
    // link; a bare URL ends at a quote or brace instead (anything else: marked's own rule).
    url(src) {
      const m = URL_BEFORE_QUOTE.exec(src);
      if (!m) return false;
      const href = m[0].replace(/[.,:;!?]+$/, '');
      return { type: 'link', raw: href, text: href, href, tokens: [{ type: 'text', raw: href, text: href }] };
    },
  },
  renderer: {
    // A Markdown image becomes a link to it: never fetched unless the user clicks.
    image({ href, text }) {
      const label = escapeHtml(text || href);
      return `<a href="${escapeHtml(href)}">${label}</a>`;
    },
  },
});

const SAFE_URL = /^(?:https?:|mailto:)/i;

let purifier: DOMPurify | undefined;

function purify(): DOMPurify {
  if (purifier) return purifier;
  const p = createDOMPurify(window);
  p.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      const href = node.getAttribute('href');
      if (href && SAFE_URL.test(href.trim())) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer nofollow');
      } else {
        node.removeAttribute('href');
        node.removeAttribute('target');
      }
    }
  });
  purifier = p;
  return p;
}

const CONFIG = {
  FORBID_TAGS: [
    'style',
    'script',
    'iframe',
    'frame',
    'frameset',
    'form',
    'input',
    'button',
    'textarea',
    'select',
    'option',
    'object',
    'embed',
    'img',
    'picture',
    'source',
    'video',
    'audio',
    'svg',
    'math',
    'link',
    'meta',
    'base',
    'template',
  ],
  FORBID_ATTR: ['style', 'id', 'name', 'srcset', 'action', 'formaction', 'xlink:href'],
  ALLOW_DATA_ATTR: false,
  ALLOWED_URI_REGEXP: SAFE_URL,
};

/** Renders untrusted Markdown to sanitized HTML. Never throws: on a parser failure the text is escaped. */
export function renderMarkdown(text: string): string {
  let html: string;
  try {
    html = marked.parse(text) as string;
  } catch {
    html = `<p>${escapeHtml(text)}</p>`;
  }
  return purify().sanitize(html, CONFIG) as string;
}

/** A URL safe to put in an `href` (`http:`, `https:`, `mailto:`), or undefined. */
export function safeHref(url: unknown): string | undefined {
  return typeof url === 'string' && SAFE_URL.test(url.trim()) ? url.trim() : undefined;
}

/** Escapes text for an HTML text or attribute context. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
