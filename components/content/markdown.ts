/**
 * Agent text → safe HTML. Agent text is untrusted: it is parsed as Markdown by `marked`, then
 * sanitized (content/markdown-sanitize.ts: the browser parses it in an inert document, and a new tree
 * is built of an allowlist of text-structure elements and attributes: no script, style, class, id,
 * image, media, frame, form control or dialog; no event handler; the only URL is a link's `href`,
 * `http:`, `https:` or `mailto:`), and links open in a new tab with `rel="noopener noreferrer nofollow"`.
 * Images, in Markdown or raw `<img>`, become links, so agent text never makes the page fetch a URL
 * without a click, nor look like Silo's own UI. Policy and tests: docs/security.md. Only the output of
 * {@link renderMarkdown} may reach `unsafeHTML`.
 *
 * What one text may cost is bounded too: callers render only the part `markdownCut` allows
 * (content/text-budget.ts), and the lexer here bounds the inline work of that part
 * ({@link INLINE_LIMITS}): past it, inline source is kept as literal text and raw HTML is escaped.
 * @packageDocumentation
 */
import { type Links, Marked, type Token, type Tokens, type TokensList } from 'marked';
import type { SiloCopyStrings } from '../shared/strings/strings.ts';
import { sanitizeHtml as sanitize } from './markdown-sanitize.ts';

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

/**
 * The inline work one lexing may do. `marked`'s inline lexer can scan the rest of a paragraph from
 * each delimiter (`*a` repeated is quadratic), so a source's cost is taken as its delimiters times
 * its length; a source over `sourceCost`, or past `cost` or `elements` in all, is kept as literal
 * text. Raw HTML is escaped past `tags` tags in all, or where it would leave more than `open`
 * elements, or `openInline` inline ones, open: the HTML parser reopens unclosed formatting tags in
 * every later block, and an inline element around blocks is split at each of them, so a few dozen
 * unclosed `<b>` multiplied the DOM and its layout (Firefox: 0.9 s for 32 of them over a thousand
 * paragraphs).
 */
export const INLINE_LIMITS = {
  /** Delimiters × length of one inline source (a paragraph's text, a cell, a list item's line). */
  sourceCost: 1 << 20,
  /** The same, summed over every inline source of one lexing. */
  cost: 1 << 22,
  /** Inline elements (emphasis, code spans, links…) one lexing makes. */
  elements: 2_048,
  /** Raw HTML opening tags one lexing keeps. */
  tags: 256,
  /** Raw HTML elements open at once. */
  open: 32,
  /** Raw HTML inline elements (not block-level ones) open at once. */
  openInline: 3,
} as const;

/** Characters at which an inline rule other than plain text may start (and scan ahead). */
const DELIMITERS = new Set([...'\\<>[]!*_~`&@'].map((c) => c.charCodeAt(0)));

function delimiters(src: string): number {
  let n = 0;
  for (let i = 0; i < src.length; i++) if (DELIMITERS.has(src.charCodeAt(i))) n++;
  return n;
}

/** Elements that have no content, so never stay open. */
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

/** Block-level elements: open around blocks, they split nothing. */
const BLOCK_TAGS = new Set([
  ...['address', 'article', 'aside', 'blockquote', 'details', 'dialog', 'dd', 'div', 'dl', 'dt'],
  ...['fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
  ...['header', 'hgroup', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table'],
  ...['tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul'],
]);

/** Literal text for `raw` (escaped when rendered). */
const literal = (raw: string): Tokens.Text => ({ type: 'text', raw, text: raw, escaped: false });

/** `marked`'s lexer with the work of one lexing bounded by {@link INLINE_LIMITS}. */
class BoundedLexer extends marked.Lexer {
  #cost = 0;
  #elements = 0;
  #tags = 0;
  /** Raw HTML elements open, by name, innermost last. */
  #open: string[] = [];

  override lex(src: string): TokensList {
    const tokens = super.lex(src);
    this.#boundHtml(tokens);
    return tokens;
  }

  override inlineTokens(src: string, tokens: Token[] = []): Token[] {
    const cost = delimiters(src) * src.length;
    if (
      cost > INLINE_LIMITS.sourceCost ||
      this.#cost + cost > INLINE_LIMITS.cost ||
      this.#elements >= INLINE_LIMITS.elements
    ) {
      tokens.push(literal(src));
      return tokens;
    }
    this.#cost += cost;
    const first = tokens.length;
    super.inlineTokens(src, tokens);
    // Nested runs (a link's text, an emphasis) count their own tokens: only this run's are counted here.
    for (let i = first; i < tokens.length; i++) {
      const t = tokens[i]!.type;
      if (t !== 'text' && t !== 'escape') this.#elements++;
    }
    return tokens;
  }

  /**
   * Raw HTML, block or inline, in document order: a tag past the budget, or one that would leave too
   * many elements open, turns its token into literal text (a block's into a paragraph of it).
   */
  #boundHtml(tokens: Token[], inline = false): void {
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]! as Token & {
        tokens?: Token[];
        items?: Token[];
        header?: unknown[];
        rows?: unknown[][];
      };
      if (t.type === 'html') {
        if (!this.#keepHtml(t.raw))
          tokens[i] = inline
            ? literal(t.raw)
            : { type: 'paragraph', raw: t.raw, text: t.raw, tokens: [literal(t.raw)] };
        continue;
      }
      const inner = t.type === 'paragraph' || t.type === 'heading' || t.type === 'text' || inline;
      if (Array.isArray(t.tokens)) this.#boundHtml(t.tokens, inner);
      if (Array.isArray(t.items)) this.#boundHtml(t.items);
      for (const cell of [...(t.header ?? []), ...(t.rows ?? []).flat()])
        this.#boundHtml((cell as { tokens: Token[] }).tokens, true);
    }
  }

  /** Whether raw HTML `raw` stays within the tag budget and nesting (taking its share if it does). */
  #keepHtml(raw: string): boolean {
    let tags = this.#tags;
    const open = [...this.#open];
    for (const [, close, tag] of raw.matchAll(/<(\/?)([a-z][a-z0-9-]*)/gi)) {
      const name = tag!.toLowerCase();
      if (VOID.has(name)) continue;
      if (close) {
        const at = open.lastIndexOf(name);
        if (at >= 0) open.splice(at, 1);
        continue;
      }
      tags++;
      open.push(name);
      if (
        tags > INLINE_LIMITS.tags ||
        open.length > INLINE_LIMITS.open ||
        open.filter((n) => !BLOCK_TAGS.has(n)).length > INLINE_LIMITS.openInline
      )
        return false;
    }
    this.#tags = tags;
    this.#open = open;
    return true;
  }
}

/**
 * Renders untrusted Markdown to sanitized HTML; with `codeCopy`, code blocks get Silo's copy button
 * (added after sanitizing). Never throws: on a parser failure the text is escaped. The caller bounds
 * the text's size (`markdownCut`, content/text-budget.ts); the inline work is bounded here.
 */
export function renderMarkdown(text: string, codeCopy?: SiloCopyStrings): string {
  let tokens: Token[];
  try {
    tokens = lexMarkdown(text);
  } catch {
    return sanitize(`<p>${escapeHtml(text)}</p>`, codeCopy);
  }
  return renderTokens(tokens, codeCopy);
}

/**
 * Lexes Markdown into block tokens, with the reference definitions `links` known beforehand (from
 * earlier blocks of the same text); the result's `links` holds those and the ones `src` defines.
 * Bounded as {@link INLINE_LIMITS} says. Throws on a lexer failure. For the streaming renderer
 * (content/markdown-stream.ts).
 */
export function lexMarkdown(src: string, links: Readonly<Links> = {}): TokensList {
  const lexer = new BoundedLexer(marked.defaults);
  Object.assign(lexer.tokens.links, links);
  return lexer.lex(src);
}

/**
 * Renders block tokens from {@link lexMarkdown} to sanitized HTML, under the same policy as
 * {@link renderMarkdown} (and `codeCopy` as there). Never throws: on a parser failure the tokens' source
 * is escaped.
 */
export function renderTokens(tokens: readonly Token[], codeCopy?: SiloCopyStrings): string {
  let html: string;
  try {
    html = marked.parser([...tokens]) as string;
  } catch {
    html = `<p>${escapeHtml(tokens.map((t) => t.raw).join(''))}</p>`;
  }
  return sanitize(html, codeCopy);
}

/** Escapes text for an HTML text or attribute context. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
