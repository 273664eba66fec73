/**
 * The `/` command menu of `<silo-chat>`'s composer: the agent's slash commands that match the draft's
 * leading `/word`, chosen with ↑/↓ and Enter or Tab (Escape closes the menu), and the chosen command's
 * input hint while the draft is only `/name `.
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { AgentCommand } from '../../src/index.ts';
import type { SiloChatAllStrings } from '../shared/strings/chat.ts';

/** The menu's state beside the composer's draft; the composer owns the draft and the input. */
export class CommandMenu {
  #index = 0;
  #closed = false;

  /** `commands`: the agent's commands now; `pick`: puts a chosen command into the draft. */
  constructor(
    private readonly commands: () => readonly AgentCommand[],
    private readonly pick: (command: AgentCommand) => void,
    private readonly changed: () => void,
  ) {}

  /** The commands matching `draft`'s leading `/word`, or none when the menu is not open. */
  matches(draft: string): readonly AgentCommand[] {
    if (this.#closed) return [];
    const m = /^\/(\S*)$/.exec(draft);
    if (!m) return [];
    const prefix = m[1]!.toLowerCase();
    return this.commands().filter((c) => c.name.toLowerCase().startsWith(prefix));
  }

  /** The chosen command's input hint while `draft` is only `/name `: what to type next. */
  hinted(draft: string): AgentCommand | undefined {
    const m = /^\/(\S+)\s+$/.exec(draft);
    if (!m) return undefined;
    return this.commands().find((c) => c.name === m[1] && c.hint);
  }

  /** The index of the highlighted entry among `menu`. */
  active(menu: readonly AgentCommand[]): number {
    return Math.min(this.#index, Math.max(0, menu.length - 1));
  }

  /** The draft was typed: the menu may open again, at its first entry. */
  typed(): void {
    this.#closed = false;
    this.#index = 0;
  }

  /** Chooses `command`: the menu closes until the draft is typed again. */
  choose(command: AgentCommand): void {
    this.#closed = true;
    this.#index = 0;
    this.pick(command);
  }

  /** A key in the input while `menu` is open: true when the menu took it (↑/↓, Enter, Tab, Escape). */
  keydown(e: KeyboardEvent, menu: readonly AgentCommand[]): boolean {
    if (menu.length === 0) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const n = menu.length;
      this.#index = (this.#index + (e.key === 'ArrowDown' ? 1 : n - 1)) % n;
      this.changed();
      return true;
    }
    if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      this.choose(menu[this.active(menu)]!);
      return true;
    }
    if (e.key === 'Escape') {
      // Closes the menu only (not the turn: the composer's Esc handler sees it prevented).
      e.preventDefault();
      this.#closed = true;
      this.changed();
      return true;
    }
    return false;
  }

  /** The menu (`part="commands"`, a listbox of `part="command"` options), or nothing when closed. */
  render(menu: readonly AgentCommand[], s: SiloChatAllStrings): TemplateResult | typeof nothing {
    if (menu.length === 0) return nothing;
    const active = this.active(menu);
    return html`<ul class="commands" part="commands" role="listbox" id="commands" aria-label=${s.commands}>
            ${menu.map(
              (c, i) => html`<li
                role="option"
                id="command-${i}"
                part="command"
                aria-selected=${i === active ? 'true' : 'false'}
                @mousedown=${(e: Event) => {
                  e.preventDefault();
                  this.choose(c);
                }}
              >
                <span class="name">/${c.name}</span>${c.hint ? html`<span class="hint">${c.hint}</span>` : nothing}<span class="desc">${c.description}</span>
              </li>`,
            )}
          </ul>`;
  }

  /** The chosen command's hint (`part="command-hint"`, `id="command-hint"`), or nothing. */
  renderHint(hinted: AgentCommand | undefined): TemplateResult | typeof nothing {
    return hinted
      ? html`<p class="command-hint" part="command-hint" id="command-hint">
            <span class="name">/${hinted.name}</span> <span class="hint">${hinted.hint}</span>
          </p>`
      : nothing;
  }
}
