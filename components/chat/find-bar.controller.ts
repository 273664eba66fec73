/**
 * `<silo-chat>`'s find bar, as a Lit reactive controller, its own chunk: find-shortcut.controller.ts (in the
 * first paint) takes Ctrl+F (⌘F) while focus is anywhere in the chat, instead of the browser's find
 * (which cannot reach the transcript's rows that are not rendered), loads this and opens it. Typing
 * searches the whole transcript (`SiloTranscript.find`), Enter and Shift+Enter (or the buttons) go to
 * the next and previous match, the count ("3 of 12") is announced politely, and Esc closes it, ends
 * the find and returns focus to where it was.
 * @packageDocumentation
 */
import {
  html,
  nothing,
  type ReactiveController,
  type ReactiveControllerHost,
  type TemplateResult,
} from 'lit';
import { formatNumber } from '../shared/format.ts';
import { icon } from '../shared/icons.ts';
import type { SiloFindStrings } from '../shared/strings/chat.ts';
import type { SiloFindResult } from '../transcript/silo-transcript.ts';
import type { FindBarContext } from './find-bar-context.ts';

/** The element focus is on, through open shadow roots, starting inside `root`. */
function deepActive(root: ShadowRoot | Document): HTMLElement | null {
  let el = root.activeElement as HTMLElement | null;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement as HTMLElement;
  return el;
}

export class FindBarController implements ReactiveController {
  /** Whether the bar is shown. */
  open = false;
  #query = '';
  #result: SiloFindResult | undefined;
  #returnTo: HTMLElement | null = null;

  constructor(
    private readonly host: ReactiveControllerHost &
      HTMLElement & { renderRoot: HTMLElement | DocumentFragment },
    private readonly ctx: FindBarContext,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.host.addEventListener('silo-find', this.#onResult);
  }

  hostDisconnected(): void {
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

  #onResult = (e: CustomEvent<SiloFindResult>): void => {
    if (!this.open) return;
    this.#result = e.detail;
    this.host.requestUpdate();
  };

  #onInput = (e: Event): void => {
    this.#query = (e.target as HTMLInputElement).value;
    this.ctx
      .transcript()
      ?.find(this.#query)
      .catch(() => undefined);
  };

  #step(direction: 1 | -1): void {
    const t = this.ctx.transcript();
    if (!t || !this.#query) return;
    (direction === 1 ? t.findNext() : t.findPrevious()).catch(() => undefined);
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
      <button type="button" part="find-close" aria-label=${s.findClose} title=${s.findClose} @click=${() => void this.close()}>${icon('close')}</button>
    </div>`;
  }
}
