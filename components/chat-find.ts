/**
 * `<silo-chat>`'s find bar, as a Lit reactive controller. Ctrl+F (⌘F) while focus is anywhere in
 * the chat opens it instead of the browser's find (which cannot reach the transcript's rows that are
 * not rendered): typing searches the whole transcript (`SiloTranscript.find`), Enter and Shift+Enter
 * (or the buttons) go to the next and previous match, the count ("3 of 12") is announced politely,
 * and Esc closes it, ends the find and returns focus to where it was.
 * @packageDocumentation
 */
import {
  css,
  html,
  nothing,
  type ReactiveController,
  type ReactiveControllerHost,
  type TemplateResult,
} from 'lit';
import { formatNumber } from './format.ts';
import type { SiloTranscript } from './silo-transcript.ts';
import type { SiloFindStrings } from './strings.ts';
import type { SiloFindResult } from './transcript-find.ts';

/** What the find bar needs from the chat. */
export interface ChatFindContext {
  strings(): SiloFindStrings;
  locale(): string | undefined;
  /** The chat's transcript, once rendered. */
  transcript(): SiloTranscript | null;
}

/** Styles of the find bar; part of `<silo-chat>`'s styles. */
export const findBarStyles = css`
  .find {
    display: flex;
    align-items: center;
    gap: 6px;
    padding: 6px var(--_space);
    border-bottom: 1px solid var(--_border);
    background: var(--_surface);
    flex: none;
    flex-wrap: wrap;
  }
  .find input {
    flex: 1 1 8rem;
    min-width: 0;
    font: inherit;
    color: inherit;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: 6px;
    padding: 4px 8px;
  }
  .find .count {
    font-size: 0.85em;
    color: var(--_muted);
    min-width: 5.5em;
  }
  .find button {
    font: inherit;
    color: var(--_fg);
    background: transparent;
    border: 1px solid var(--_border);
    border-radius: 6px;
    min-width: 2em;
    padding: 2px 6px;
    cursor: pointer;
  }
`;

/** The element focus is on, through open shadow roots, starting inside `root`. */
function deepActive(root: ShadowRoot | Document): HTMLElement | null {
  let el = root.activeElement as HTMLElement | null;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement as HTMLElement;
  return el;
}

export class ChatFind implements ReactiveController {
  /** Whether the bar is shown. */
  open = false;
  #query = '';
  #result: SiloFindResult | undefined;
  #returnTo: HTMLElement | null = null;

  constructor(
    private readonly host: ReactiveControllerHost &
      HTMLElement & { renderRoot: HTMLElement | DocumentFragment },
    private readonly ctx: ChatFindContext,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.host.addEventListener('keydown', this.#onHostKeydown);
    this.host.addEventListener('silo-find', this.#onResult);
  }

  hostDisconnected(): void {
    this.host.removeEventListener('keydown', this.#onHostKeydown);
    this.host.removeEventListener('silo-find', this.#onResult);
  }

  /** Opens the bar (or, when open, selects its text) and moves focus into it. */
  async show(): Promise<void> {
    if (!this.open) {
      this.#returnTo = deepActive(this.host.renderRoot as ShadowRoot);
      this.open = true;
      this.host.requestUpdate();
      await this.host.updateComplete;
    }
    const input = this.#input();
    input?.focus();
    input?.select();
  }

  /** Closes the bar, ends the find, and returns focus to where it was before (else the composer). */
  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    this.#query = '';
    this.#result = undefined;
    this.ctx.transcript()?.clearFind();
    this.host.requestUpdate();
    await this.host.updateComplete;
    const back = this.#returnTo;
    this.#returnTo = null;
    if (back?.isConnected) back.focus();
    else this.host.renderRoot.querySelector<HTMLElement>('textarea')?.focus();
  }

  #input(): HTMLInputElement | null {
    return this.host.renderRoot.querySelector<HTMLInputElement>('.find input');
  }

  /** Ctrl+F / ⌘F anywhere in the chat. */
  #onHostKeydown = (e: KeyboardEvent): void => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || e.key.toLowerCase() !== 'f') return;
    e.preventDefault();
    void this.show();
  };

  #onResult = (e: CustomEvent<SiloFindResult>): void => {
    if (!this.open) return;
    this.#result = e.detail;
    this.host.requestUpdate();
  };

  #onInput = (e: Event): void => {
    this.#query = (e.target as HTMLInputElement).value;
    void this.ctx.transcript()?.find(this.#query);
  };

  #step(direction: 1 | -1): void {
    const t = this.ctx.transcript();
    if (!t || !this.#query) return;
    void (direction === 1 ? t.findNext() : t.findPrevious());
  }

  /** Enter / Shift+Enter in the input; Esc anywhere in the bar (it never reaches the chat's Esc). */
  #onKeydown = (e: KeyboardEvent): void => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      void this.close();
    } else if (e.key === 'Enter' && e.target === this.#input() && !e.isComposing) {
      e.preventDefault();
      this.#step(e.shiftKey ? -1 : 1);
    }
  };

  #count(s: SiloFindStrings): string {
    const r = this.#result;
    if (!this.#query || !r || r.query !== this.#query) return '';
    if (r.searching) return s.findSearching;
    if (r.total === 0) return s.findNone;
    const locale = this.ctx.locale();
    return s.findCount(formatNumber(r.current, locale), formatNumber(r.total, locale));
  }

  /** The bar, while open. */
  render(): TemplateResult | typeof nothing {
    if (!this.open) return nothing;
    const s = this.ctx.strings();
    return html`<div class="find" part="find" role="search" aria-label=${s.findLabel} @keydown=${this.#onKeydown}>
      <input
        type="search"
        part="find-input"
        aria-label=${s.findLabel}
        placeholder=${s.findPlaceholder}
        .value=${this.#query}
        @input=${this.#onInput}
      />
      <span class="count" part="find-count" role="status" aria-live="polite">${this.#count(s)}</span>
      <button type="button" part="find-previous" aria-label=${s.findPrevious} title=${s.findPrevious} @click=${() => this.#step(-1)}>↑</button>
      <button type="button" part="find-next" aria-label=${s.findNext} title=${s.findNext} @click=${() => this.#step(1)}>↓</button>
      <button type="button" part="find-close" aria-label=${s.findClose} title=${s.findClose} @click=${() => void this.close()}>✕</button>
    </div>`;
  }
}
