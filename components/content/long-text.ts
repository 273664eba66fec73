/**
 * Text past the rendering bounds (content/text-budget.ts), drawn so that no text can hold the page:
 * plain text in pieces of at most 4 KiB, each its own block that the browser lays out only while it
 * is on screen (`content-visibility: auto`), and the part past the bounds collapsed behind a bar that
 * says how much it holds, with "Show all" and "Copy all". "Show all" draws the rest a few pieces per
 * frame ({@link PIECES_PER_FRAME}), so even megabytes appear without a long task; "Copy all" writes
 * the whole text to the clipboard. A part the user opened stays open while the page lives (also when
 * the log scrolls it out and back). `data-long-text` says `closed`, `drawing` (opened, pieces still
 * to come) or `open`. Agent text reaches the DOM only as Lit text bindings.
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import { AsyncDirective, directive } from 'lit/async-directive.js';
import { formatNumber } from '../shared/format.ts';
import { defaultContentStrings, type SiloContentStrings } from '../shared/strings/strings.ts';
import { copyButton } from './copy.ts';
import { plainCut, plainPieces } from './text-budget.ts';

/** Pieces drawn at once when a part opens, and added in each frame after that. */
const FIRST_PIECES = 8;
export const PIECES_PER_FRAME = 32;

/** The parts the user opened, by key (bounded: the oldest choice goes first). */
const opened = new Set<string>();
const OPENED_CAPACITY = 2000;

function pieceViews(pieces: readonly string[], count = pieces.length): TemplateResult[] {
  const out: TemplateResult[] = [];
  for (let i = 0; i < count; i++) out.push(html`<span class="piece">${pieces[i]}</span>`);
  return out;
}

/**
 * The collapsed rest of `text` from `from` on, for the part named `key` (a row's key and part): the
 * bar, and once opened, the pieces. Re-rendered with a longer `text` (a message still streaming), an
 * open part draws the new pieces too.
 */
class LongTextRest extends AsyncDirective {
  #key = '';
  #text = '';
  #from = 0;
  #s: SiloContentStrings = defaultContentStrings;
  #locale: string | undefined;
  #pieces: string[] = [];
  #piecesOf = '';
  #piecesFrom = -1;
  #count = 0;
  #frame = 0;

  render(key: string, text: string, from: number, s: SiloContentStrings, locale?: string): unknown {
    if (key !== this.#key) this.#count = 0;
    this.#key = key;
    this.#text = text;
    this.#from = from;
    this.#s = s;
    this.#locale = locale;
    return this.#view();
  }

  override disconnected(): void {
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
  }

  override reconnected(): void {
    if (opened.has(this.#key)) this.setValue(this.#view());
  }

  #view(): TemplateResult {
    const s = this.#s;
    const open = opened.has(this.#key);
    let body: unknown = nothing;
    let state = 'closed';
    if (open) {
      const pieces = this.#allPieces();
      this.#count = Math.min(pieces.length, Math.max(this.#count, FIRST_PIECES));
      state = this.#count < pieces.length ? 'drawing' : 'open';
      if (state === 'drawing') this.#schedule();
      body = pieceViews(pieces, this.#count);
    }
    const rest = formatNumber(this.#text.length - this.#from, this.#locale);
    return html`<div class="long-text" part="long-text" data-long-text=${state}>
      <div class="long-text-bar">
        <span class="long-text-note">${s.longText(rest)}</span>
        <button
          type="button"
          class="copy long-text-toggle"
          part="long-text-toggle"
          aria-expanded=${open ? 'true' : 'false'}
          @click=${this.#toggle}
        >${open ? s.showLess : s.showAll}</button>
        ${copyButton(() => this.#text, s, { label: s.copyAll, title: s.copyAllTitle, part: 'copy long-text-copy' })}
      </div>
      ${body}
    </div>`;
  }

  /** The rest's pieces; a text that grew keeps the pieces before its last one. */
  #allPieces(): string[] {
    const text = this.#text;
    if (text === this.#piecesOf && this.#from === this.#piecesFrom) return this.#pieces;
    let keep = 0;
    let at = this.#from;
    if (this.#from === this.#piecesFrom && this.#pieces.length > 1 && text.startsWith(this.#piecesOf)) {
      keep = this.#pieces.length - 1;
      for (let i = 0; i < keep; i++) at += this.#pieces[i]!.length;
    }
    this.#pieces = [...this.#pieces.slice(0, keep), ...plainPieces(text, at)];
    this.#piecesOf = text;
    this.#piecesFrom = this.#from;
    return this.#pieces;
  }

  #toggle = (): void => {
    const key = this.#key;
    if (opened.has(key)) opened.delete(key);
    else {
      opened.add(key);
      if (opened.size > OPENED_CAPACITY) opened.delete(opened.values().next().value!);
    }
    this.#count = 0;
    this.setValue(this.#view());
  };

  #schedule(): void {
    if (this.#frame) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      if (!this.isConnected || !opened.has(this.#key)) return;
      this.#count += PIECES_PER_FRAME;
      this.setValue(this.#view());
    });
  }
}

const longTextRest = directive(LongTextRest);

/**
 * The collapsed rest of `text`, from `from` on (see {@link LongTextRest}); `key` names the part (a
 * row's key and part) so that an opened part stays open.
 */
export function restOf(
  key: string,
  text: string,
  from: number,
  s: SiloContentStrings = defaultContentStrings,
  locale?: string,
): unknown {
  return longTextRest(key, text, from, s, locale);
}

/**
 * Untrusted plain text (a user's message, a tool's output): its first 32 KiB in pieces, the rest
 * collapsed ({@link restOf}). Never parsed as HTML.
 */
export function plainText(
  key: string,
  text: string,
  s: SiloContentStrings = defaultContentStrings,
  locale?: string,
): unknown {
  const cut = plainCut(text);
  if (cut === text.length) return pieceViews(plainPieces(text));
  return html`${pieceViews(plainPieces(text.slice(0, cut)))}${restOf(key, text, cut, s, locale)}`;
}
