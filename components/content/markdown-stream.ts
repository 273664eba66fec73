/**
 * Streaming Markdown: an agent message that grows by chunks is rendered in blocks, and a block
 * that can no longer change is lexed, rendered and sanitized once and kept, so each frame costs the
 * open tail block only, however long the message already is. Same parser and sanitizer as
 * {@link renderMarkdown} (content/markdown.ts), in pieces: the blocks one call completes are sanitized
 * together and put into the page as one fragment, the open block as another, so nothing can span
 * pieces.
 *
 * A block is complete once another block follows it (the last block, and the blank lines after it,
 * may still grow: a paragraph into a setext heading or a table, a list by another item). Raw HTML
 * (a block, or a tag inside one) keeps everything from it on open, since an open tag there may
 * wrap what follows; a new reference definition (`[x]: url`) re-renders the whole text, since it
 * may change links above it. The result is the same HTML as `renderMarkdown` of the whole text,
 * cut at block boundaries.
 * @packageDocumentation
 */
import type { Links, Token, Tokens } from 'marked';
import { defaultCopyStrings, type SiloCopyStrings } from '../shared/strings/strings.ts';
import { lexMarkdown, renderMarkdown, renderTokens } from './markdown.ts';

/** One message's text, rendered in blocks as it grows. */
export class MarkdownStream {
  /** The text the blocks below were made from (line endings normalized). */
  private text = '';
  /** Sanitized HTML of the complete blocks, in order (the blocks each call completed, together). */
  private done: string[] = [];
  /** Characters of {@link text} the complete blocks cover. */
  private doneLength = 0;
  /** Reference definitions of the complete blocks. */
  private links: Links = {};
  private last: readonly string[] = [];

  /** With `codeCopy`, code blocks get Silo's copy button, as {@link renderMarkdown} gives them. */
  constructor(readonly codeCopy?: SiloCopyStrings) {}

  /**
   * Sanitized HTML of `text` in pieces: the complete blocks of each earlier call (one piece per call
   * that completed any) and the open block last. Complete pieces keep their string, so a caller
   * comparing them updates only the last ones. Text that does not extend the previous text
   * starts over. Never throws.
   */
  render(input: string): readonly string[] {
    const text = input.includes('\r') ? input.replace(/\r\n?/g, '\n') : input;
    if (text === this.text && this.last.length > 0) return this.last;
    if (!text.startsWith(this.text)) this.reset();
    this.text = text;
    try {
      this.last = this.advance();
    } catch {
      this.reset();
      this.text = text;
      this.last = [renderMarkdown(text, this.codeCopy)];
    }
    return this.last;
  }

  private reset(): void {
    this.text = '';
    this.done = [];
    this.doneLength = 0;
    this.links = {};
    this.last = [];
  }

  private advance(): readonly string[] {
    let tokens = lexMarkdown(this.text.slice(this.doneLength), this.links);
    const fresh = (tag: string) => !(tag in this.links);
    if (Object.keys(tokens.links).some(fresh)) {
      // A new reference definition may change links in blocks already rendered: all again.
      const text = this.text;
      this.reset();
      this.text = text;
      tokens = lexMarkdown(text);
    }
    let last = tokens.length - 1;
    while (last >= 0 && tokens[last]!.type === 'space') last--;
    let open = Math.max(0, last);
    const barrier = tokens.findIndex(hasHtml);
    if (barrier >= 0 && barrier < open) open = barrier;
    // A new definition still streaming may change or vanish: nothing is complete until it is.
    const streaming = tokens[last]?.type === 'def' && fresh((tokens[last] as Tokens.Def).tag);
    if (streaming) open = 0;
    // The blocks completed since the last call are rendered and sanitized together, once: a call
    // costs at most two renders (those and the open block), however many blocks it completes.
    const completed: Token[] = [];
    for (let i = 0; i < open; i++) {
      const token = tokens[i]!;
      this.doneLength += token.raw.length;
      if (token.type !== 'space' && token.type !== 'def') completed.push(token);
    }
    if (completed.length > 0) this.done.push(renderTokens(completed, this.codeCopy));
    // Every complete definition is known from now on (its blocks may be complete or not).
    this.links = { ...tokens.links };
    if (streaming) delete this.links[(tokens[last] as Tokens.Def).tag];
    const rest = tokens.slice(open);
    return rest.some((t) => t.type !== 'space' && t.type !== 'def')
      ? [...this.done, renderTokens(rest, this.codeCopy)]
      : [...this.done];
  }
}

/** True when a token holds raw HTML anywhere inside (a block or an inline tag). */
function hasHtml(token: Token): boolean {
  if (token.type === 'html') return true;
  const walk = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.some(walk);
    if (value && typeof value === 'object' && 'type' in value) return hasHtml(value as Token);
    return false;
  };
  const t = token as Token & { tokens?: unknown; items?: unknown; header?: unknown; rows?: unknown };
  return walk(t.tokens) || walk(t.items) || walk(t.header) || walk(t.rows);
}

/** Streams by key (most recently used first out of {@link CAPACITY}). */
const streams = new Map<string, MarkdownStream>();
const CAPACITY = 128;

/**
 * {@link MarkdownStream.render} for the stream named `key` (a row's key and part): one stream per
 * message as it grows. The stream checks that the text extends what it rendered before, so a key
 * reused for other text only costs a full render. Code blocks carry copy buttons labelled by `codeCopy`. Never throws.
 */
export function renderMarkdownBlocks(
  key: string,
  text: string,
  codeCopy: SiloCopyStrings = defaultCopyStrings,
): readonly string[] {
  let stream = streams.get(key);
  if (stream) streams.delete(key);
  // Other copy-button labels (the page changed its strings) render the stream again.
  if (!stream || copyLabels(stream.codeCopy) !== copyLabels(codeCopy)) stream = new MarkdownStream(codeCopy);
  streams.set(key, stream);
  if (streams.size > CAPACITY) streams.delete(streams.keys().next().value!);
  return stream.render(text);
}

/** The copy-button labels that end up in rendered HTML, as one string (a cache key part). */
export function copyLabels(s: SiloCopyStrings | undefined): string {
  return s ? `${s.copy}\u0000${s.copyCode}` : '';
}
