/**
 * The header of `<silo-chat>`: session title, connection state, New session and the exports' menu
 * (what they save: chat/export.ts).
 * @packageDocumentation
 */
import { html, type TemplateResult } from 'lit';
import { clip } from '../shared/format.ts';
import type { SiloChatStrings } from '../shared/strings/chat.ts';

/** What the header shows. */
export interface HeaderView {
  readonly title: string | undefined;
  /** The state key (`connected`, `reconnecting`, `failed`…), shown with `strings.state`. */
  readonly state: string;
  /** New session is possible (bridge set, not connecting). */
  readonly canStart: boolean;
  /** A session is open (the exports are possible). */
  readonly hasSession: boolean;
}

/** What the header's buttons do. */
export interface HeaderActions {
  newSession(): void;
  export(kind: 'jsonl' | 'md'): void;
}

/**
 * The header bar (`part="header"`), with the `header-end` slot after the actions. The exports share
 * one menu (`part="export"`), so the header keeps to one line in a narrow chat.
 */
export function renderHeader(v: HeaderView, act: HeaderActions, s: SiloChatStrings): TemplateResult {
  const choose = (e: Event, kind: 'jsonl' | 'md') => {
    (e.currentTarget as HTMLElement).closest('details')!.open = false;
    act.export(kind);
  };
  return html`<header part="header">
    <span class="title" part="title">${v.title ? clip(v.title, 1000) : s.untitled}</span>
    <span class="state" part="state" data-state=${v.state} role="status">${s.state[v.state] ?? v.state}</span>
    <span class="actions" part="actions">
      <button type="button" part="new-session" ?disabled=${!v.canStart} @click=${() => act.newSession()}>
        ${s.newSession}
      </button>
      ${
        v.hasSession
          ? html`<details class="menu" @toggle=${dismissible}>
              <summary part="export">${s.export}</summary>
              <div class="menu-items" part="export-options">
                <button type="button" @click=${(e: Event) => choose(e, 'jsonl')}>${s.exportJsonl}</button>
                <button type="button" @click=${(e: Event) => choose(e, 'md')}>${s.exportMarkdown}</button>
              </div>
            </details>`
          : html`<button type="button" part="export" disabled>${s.export}</button>`
      }
      <slot name="header-end"></slot>
    </span>
  </header>`;
}

/** An open menu closes on a click outside it or Esc (focus back on its summary). */
function dismissible(e: Event): void {
  const menu = e.currentTarget as HTMLDetailsElement;
  if (!menu.open) return;
  const outside = (p: PointerEvent) => {
    if (!p.composedPath().includes(menu)) close();
  };
  const onKey = (k: KeyboardEvent) => {
    if (k.key !== 'Escape') return;
    k.preventDefault();
    k.stopPropagation();
    close();
    menu.querySelector('summary')?.focus();
  };
  const close = () => {
    menu.open = false;
    document.removeEventListener('pointerdown', outside, true);
    menu.removeEventListener('keydown', onKey);
  };
  document.addEventListener('pointerdown', outside, true);
  menu.addEventListener('keydown', onKey);
  menu.addEventListener('toggle', () => !menu.open && close(), { once: true });
}
