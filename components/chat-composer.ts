/**
 * The composer of `<silo-chat>` as a Lit reactive controller: the text being typed, the `/` command
 * menu and its input hint, why a message was not sent, the running turn's working state (elapsed time,
 * Stop, Esc), a follow-up queued while the agent works, and editing the last message.
 * @packageDocumentation
 */
import {
  html,
  nothing,
  type ReactiveController,
  type ReactiveControllerHost,
  type TemplateResult,
} from 'lit';
import type { AgentCommand, AgentSessionConfigOption, AgentSessionSnapshot } from '../src/index.ts';
import type { SiloChatActionStrings, SiloChatStrings } from './strings.ts';

/** What the composer needs from its element. */
export interface ComposerContext {
  strings(): SiloChatStrings & SiloChatActionStrings;
  snapshot(): AgentSessionSnapshot | undefined;
  /** Why a message cannot be sent now (not connected, read-only…), or undefined when it can. */
  whyNotSendable(): string | undefined;
  /** True while a turn runs (or a prompt is being sent). */
  busy(): boolean;
  /** Sends a prompt; resolves once the turn ended or failed (a failure is shown by the element). */
  send(text: string): Promise<unknown>;
  /** The code of the element's last error, if any. */
  errorCode(): string | undefined;
  /** Stops the running turn. */
  cancel(): void;
  /** The last message the user sent in this session, if any. */
  lastPrompt(): string | undefined;
  setOption(option: AgentSessionConfigOption, value: string | boolean): void;
  /** True when config options can be changed now. */
  optionsEnabled(): boolean;
}

/**
 * Typed text is never thrown away: Enter sends it when it can, queues it while a turn runs (sent
 * when the turn ends, shown above the input and cancellable back into the composer), and otherwise
 * keeps it and says why. A prompt refused before it reached the agent gives its text back.
 */
export class ComposerController implements ReactiveController {
  draft = '';
  /** A message typed while the agent worked, sent when the turn ends. */
  queued: string | undefined;
  #menuIndex = 0;
  #menuClosed = false;
  /** True after Enter or Send could not send: the composer says why (until it can, or the text changes). */
  #refused = false;
  /** When the running turn started (`performance.now()`), undefined while idle. */
  #busySince: number | undefined;
  #tick: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement & { renderRoot: ParentNode },
    private readonly ctx: ComposerContext,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.host.addEventListener('keydown', this.#onHostKeydown);
  }

  hostDisconnected(): void {
    this.host.removeEventListener('keydown', this.#onHostKeydown);
    this.#stopClock();
  }

  hostUpdated(): void {
    const busy = this.ctx.busy();
    if (busy && this.#busySince === undefined) {
      this.#busySince = performance.now();
      this.#tick = setInterval(() => this.host.requestUpdate(), 1000);
    } else if (!busy && this.#busySince !== undefined) this.#stopClock();
    // The turn ended and the session can take a message: send the queued one (after this update).
    if (this.queued !== undefined && !busy && this.ctx.whyNotSendable() === undefined) {
      const text = this.queued;
      this.queued = undefined;
      queueMicrotask(() => this.#send(text));
    }
  }

  #stopClock(): void {
    clearInterval(this.#tick);
    this.#tick = undefined;
    this.#busySince = undefined;
  }

  #update(): void {
    this.host.requestUpdate();
  }

  #input(): HTMLTextAreaElement | null {
    return this.host.renderRoot.querySelector('textarea');
  }

  /** The commands matching the draft's leading `/word`, or none when the menu is not open. */
  #menu(): readonly AgentCommand[] {
    if (this.#menuClosed) return [];
    const m = /^\/(\S*)$/.exec(this.draft);
    if (!m) return [];
    const prefix = m[1]!.toLowerCase();
    return (this.ctx.snapshot()?.availableCommands ?? []).filter((c) =>
      c.name.toLowerCase().startsWith(prefix),
    );
  }

  /** The picked command's input hint while the draft is only `/name `: what to type next. */
  #commandHint(): AgentCommand | undefined {
    const m = /^\/(\S+)\s+$/.exec(this.draft);
    if (!m) return undefined;
    return this.ctx.snapshot()?.availableCommands.find((c) => c.name === m[1] && c.hint);
  }

  #pick(command: AgentCommand): void {
    this.draft = `/${command.name} `;
    this.#menuClosed = true;
    this.#menuIndex = 0;
    this.#update();
    this.#input()?.focus();
  }

  /** Sends the composer's text, queues it while a turn runs, or keeps it and says why not. */
  submit(): void {
    const text = this.draft;
    if (!text.trim()) return;
    if (this.ctx.whyNotSendable()) {
      this.#refused = true;
      this.#update();
      return;
    }
    this.#refused = false;
    this.draft = '';
    if (this.ctx.busy()) this.queued = this.queued === undefined ? text : `${this.queued}\n\n${text}`;
    else this.#send(text);
    this.#update();
  }

  #send(text: string): void {
    void this.ctx.send(text).then(() => {
      // A prompt refused before it reached the agent gives its text back (unless the user typed anew).
      const code = this.ctx.errorCode();
      if ((code === 'journal-only' || code === 'closed') && this.draft === '') {
        this.draft = text;
        this.#update();
      }
    });
  }

  /** Cancels the queued message: its text returns to the composer, before anything typed since. */
  unqueue(): void {
    if (this.queued === undefined) return;
    this.draft = this.draft ? `${this.queued}\n${this.draft}` : this.queued;
    this.queued = undefined;
    this.#update();
    this.#input()?.focus();
  }

  /** Puts the last message sent back into the composer (to edit it and send it again). */
  editLast(): void {
    const last = this.ctx.lastPrompt();
    if (last === undefined) return;
    this.draft = last;
    this.#refused = false;
    this.#update();
    const input = this.#input();
    input?.focus();
    void (this.host as unknown as { updateComplete: Promise<unknown> }).updateComplete.then(() =>
      input?.setSelectionRange(last.length, last.length),
    );
  }

  #onInput = (e: Event): void => {
    this.draft = (e.target as HTMLTextAreaElement).value;
    this.#refused = false;
    this.#menuClosed = false;
    this.#menuIndex = 0;
    this.#update();
  };

  #onKeydown = (e: KeyboardEvent): void => {
    const menu = this.#menu();
    if (menu.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const n = menu.length;
        this.#menuIndex = (this.#menuIndex + (e.key === 'ArrowDown' ? 1 : n - 1)) % n;
        this.#update();
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        this.#pick(menu[Math.min(this.#menuIndex, menu.length - 1)]!);
        return;
      }
      if (e.key === 'Escape') {
        // Closes the menu only (not the turn: see #onHostKeydown).
        e.preventDefault();
        this.#menuClosed = true;
        this.#update();
        return;
      }
    }
    if (e.key === 'ArrowUp' && this.draft === '' && !e.shiftKey && this.ctx.lastPrompt() !== undefined) {
      e.preventDefault();
      this.editLast();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      this.submit();
    }
  };

  /** Esc stops the running turn, from anywhere in the element but the transcript (its prompts use Esc). */
  #onHostKeydown = (e: KeyboardEvent): void => {
    if (e.key !== 'Escape' || e.defaultPrevented || !this.ctx.busy()) return;
    if (e.composedPath().some((n) => n instanceof HTMLElement && n.localName === 'silo-transcript')) return;
    e.preventDefault();
    this.ctx.cancel();
  };

  #pickers(): TemplateResult | typeof nothing {
    const options = this.ctx.snapshot()?.configOptions ?? [];
    if (options.length === 0) return nothing;
    const disabled = !this.ctx.optionsEnabled();
    return html`<div class="pickers" part="pickers">
      ${options.map((o) =>
        o.type === 'boolean'
          ? html`<label title=${o.description ?? ''}>
              <input
                type="checkbox"
                .checked=${o.currentValue === true}
                ?disabled=${disabled}
                @change=${(e: Event) => this.ctx.setOption(o, (e.target as HTMLInputElement).checked)}
              />${o.name}
            </label>`
          : html`<label title=${o.description ?? ''}>
              <span>${o.name}</span>
              <select
                .value=${String(o.currentValue)}
                ?disabled=${disabled}
                @change=${(e: Event) => this.ctx.setOption(o, (e.target as HTMLSelectElement).value)}
              >
                ${(o.options ?? []).map(
                  (v) =>
                    html`<option value=${v.value} ?selected=${v.value === o.currentValue}>${v.name}</option>`,
                )}
              </select>
            </label>`,
      )}
    </div>`;
  }

  /** The running turn's state and the queued message, when there is either. */
  #statusRow(s: SiloChatStrings & SiloChatActionStrings, busy: boolean): TemplateResult | typeof nothing {
    const queued = this.queued;
    if (!busy && queued === undefined) return nothing;
    const seconds =
      this.#busySince === undefined ? 0 : Math.floor((performance.now() - this.#busySince) / 1000);
    return html`<div class="status-row">
      ${
        busy
          ? html`<span class="working" part="working"
              ><span role="status">${s.working}</span>
              <span class="elapsed" part="elapsed">${s.elapsed(seconds)}</span></span
            >`
          : nothing
      }
      ${
        queued !== undefined
          ? html`<span class="queued" part="queued" role="status">
              <span class="label">${s.queued}</span> <span class="text">${queued}</span>
              <button type="button" part="unqueue" @click=${() => this.unqueue()}>${s.unqueue}</button>
            </span>`
          : nothing
      }
    </div>`;
  }

  render(): TemplateResult {
    const s = this.ctx.strings();
    const busy = this.ctx.busy();
    const menu = this.#menu();
    const active = Math.min(this.#menuIndex, Math.max(0, menu.length - 1));
    const why = this.ctx.whyNotSendable();
    const note = this.#refused ? why : undefined;
    const hinted = menu.length === 0 ? this.#commandHint() : undefined;
    const canEdit = !busy && !why && this.draft === '' && this.ctx.lastPrompt() !== undefined;
    return html`<div class="composer" part="composer">
      ${
        menu.length > 0
          ? html`<ul class="commands" part="commands" role="listbox" id="commands" aria-label=${s.commands}>
            ${menu.map(
              (c, i) => html`<li
                role="option"
                id="command-${i}"
                part="command"
                aria-selected=${i === active ? 'true' : 'false'}
                @mousedown=${(e: Event) => {
                  e.preventDefault();
                  this.#pick(c);
                }}
              >
                <span class="name">/${c.name}</span>${c.hint ? html`<span class="hint">${c.hint}</span>` : nothing}<span class="desc">${c.description}</span>
              </li>`,
            )}
          </ul>`
          : nothing
      }
      ${this.#pickers()} ${this.#statusRow(s, busy)}
      ${note ? html`<p class="note" part="note" id="composer-note" role="status">${note}</p>` : nothing}
      ${
        hinted
          ? html`<p class="command-hint" part="command-hint" id="command-hint">
            <span class="name">/${hinted.name}</span> <span class="hint">${hinted.hint}</span>
          </p>`
          : nothing
      }
      <div class="input-row">
        <textarea
          part="input"
          rows="1"
          aria-label=${s.composerLabel}
          placeholder=${s.placeholder}
          aria-autocomplete="list"
          aria-controls=${menu.length > 0 ? 'commands' : nothing}
          aria-activedescendant=${menu.length > 0 ? `command-${active}` : nothing}
          aria-describedby=${note || hinted ? [note ? 'composer-note' : '', hinted ? 'command-hint' : ''].join(' ').trim() : nothing}
          .value=${this.draft}
          @input=${this.#onInput}
          @keydown=${this.#onKeydown}
        ></textarea>
        ${
          canEdit
            ? html`<button type="button" part="edit-last" title=${s.editLastLabel} @click=${() => this.editLast()}>
              ${s.editLast}
            </button>`
            : nothing
        }
        ${
          busy
            ? html`<button type="button" part="stop" title=${s.stopHint} @click=${() => this.ctx.cancel()}>${s.stop}</button>`
            : nothing
        }
        ${
          !busy || this.draft.trim()
            ? html`<button
              type="button"
              class="primary"
              part="send"
              ?disabled=${why !== undefined || !this.draft.trim()}
              @click=${() => this.submit()}
            >
              ${s.send}
            </button>`
            : nothing
        }
      </div>
    </div>`;
  }
}
