/**
 * The template of `<silo-chat>`'s composer, and the parts of it that only display state: the config
 * option pickers and the status row (the running turn's working state and elapsed time, the queued
 * follow-up). `chat/composer.controller.ts` holds the state it shows.
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { AgentCommand, AgentSessionConfigOption } from '../../src/index.ts';
import { clip } from '../shared/format.ts';
import type { SiloChatAllStrings } from '../shared/strings/chat.ts';
import type { Attachment, Attachments } from './attachments.ts';
import type { CommandMenu } from './command-menu.ts';

/** What one render of the composer shows, and the handlers its input and buttons call. */
export interface ComposerView {
  readonly strings: SiloChatAllStrings;
  /** The text being typed. */
  readonly draft: string;
  /** True while a turn runs (or a prompt is being sent). */
  readonly busy: boolean;
  /** Why a message cannot be sent now (Send is disabled), or undefined when it can. */
  readonly why: string | undefined;
  /** Why the composer's text was not sent (`part="note"`), while that is said. */
  readonly note: string | undefined;
  /** The note's button, when there is something to do about it. */
  readonly remedy: { readonly label: string; run(): void } | undefined;
  /** The `/` command menu over the draft. */
  readonly commands: CommandMenu;
  /** The commands matching the draft (none while the menu is closed). */
  readonly menu: readonly AgentCommand[];
  /** The chosen command whose input hint shows, if any. */
  readonly hinted: AgentCommand | undefined;
  /** The attached files: their chips, the Attach button, and the paste, drag and drop handlers. */
  readonly attachments: Attachments;
  /** True when files are attached. */
  readonly files: boolean;
  /** True when Edit last is offered. */
  readonly canEdit: boolean;
  /** The agent's config options, whether they can be changed now, and changing one. */
  readonly options: readonly AgentSessionConfigOption[];
  readonly optionsEnabled: boolean;
  readonly setOption: (option: AgentSessionConfigOption, value: string | boolean) => void;
  /** The running turn, the message held until it ends, and whether the session is still on its way. */
  readonly turn: TurnStatus;
  readonly queued: QueuedMessage | undefined;
  readonly waiting: boolean;
  readonly unqueue: () => void;
  readonly onInput: (e: Event) => void;
  readonly onKeydown: (e: KeyboardEvent) => void;
  readonly editLast: () => void;
  /** Stops the running turn. */
  readonly stop: () => void;
  readonly submit: () => void;
}

/** Renders the composer (`part="composer"`) from `v`. Pure: it only builds the template. */
export function renderComposer(v: ComposerView): TemplateResult {
  const { strings: s, busy, why, note, remedy, menu, hinted, files } = v;
  const active = v.commands.active(menu);
  return html`<div
      class="composer"
      part="composer"
      @dragover=${v.attachments.onDragOver}
      @drop=${v.attachments.onDrop}
    >
      ${v.commands.render(menu, s)}
      ${renderPickers(v.options, v.optionsEnabled, v.setOption)}
      ${renderStatusRow(s, v.turn, v.queued, v.waiting, v.unqueue)}
      ${
        note
          ? html`<p class="note" part="note" id="composer-note" role="status">
            ${note}${remedy ? html` <button type="button" part="remedy" @click=${remedy.run}>${remedy.label}</button>` : nothing}
          </p>`
          : nothing
      }
      ${v.commands.renderHint(hinted)}
      ${v.attachments.renderChips()}
      <div class="input-row">
        ${v.attachments.renderButton()}
        <textarea
          part="input"
          rows="1"
          aria-label=${s.composerLabel}
          placeholder=${s.placeholder}
          aria-autocomplete="list"
          aria-controls=${menu.length > 0 ? 'commands' : nothing}
          aria-activedescendant=${menu.length > 0 ? `command-${active}` : nothing}
          aria-describedby=${note || hinted ? [note ? 'composer-note' : '', hinted ? 'command-hint' : ''].join(' ').trim() : nothing}
          .value=${v.draft}
          @input=${v.onInput}
          @keydown=${v.onKeydown}
          @paste=${v.attachments.onPaste}
        ></textarea>
        ${
          v.canEdit
            ? html`<button type="button" part="edit-last" title=${s.editLastLabel} @click=${() => v.editLast()}>
              ${s.editLast}
            </button>`
            : nothing
        }
        ${
          busy
            ? html`<button type="button" part="stop" title=${s.stopHint} @click=${() => v.stop()}>${s.stop}</button>`
            : nothing
        }
        ${
          !busy || v.draft.trim() || files
            ? html`<button
              type="button"
              class="primary"
              part="send"
              ?disabled=${why !== undefined || (!v.draft.trim() && !files)}
              @click=${() => v.submit()}
            >
              ${s.send}
            </button>`
            : nothing
        }
      </div>
    </div>`;
}

/** The pickers of the agent's config options (`part="pickers"`), or nothing when it offers none. */
export function renderPickers(
  options: readonly AgentSessionConfigOption[],
  enabled: boolean,
  set: (option: AgentSessionConfigOption, value: string | boolean) => void,
): TemplateResult | typeof nothing {
  if (options.length === 0) return nothing;
  const disabled = !enabled;
  return html`<div class="pickers" part="pickers">
    ${options.map((o) =>
      o.type === 'boolean'
        ? html`<label title=${o.description ?? ''}>
            <input
              type="checkbox"
              .checked=${o.currentValue === true}
              ?disabled=${disabled}
              @change=${(e: Event) => set(o, (e.target as HTMLInputElement).checked)}
            />${o.name}
          </label>`
        : html`<label title=${o.description ?? ''}>
            <span>${o.name}</span>
            <select
              .value=${String(o.currentValue)}
              ?disabled=${disabled}
              @change=${(e: Event) => set(o, (e.target as HTMLSelectElement).value)}
            >
              ${(o.options ?? []).map(
                (v) =>
                  html`<option value=${v.value} ?selected=${v.value === o.currentValue}>${v.name}</option>`,
              )}
              ${
                o.options?.some((v) => v.value === o.currentValue)
                  ? nothing
                  : html`<option value=${String(o.currentValue)} selected>${valueName(String(o.currentValue))}</option>`
              }
            </select>
          </label>`,
    )}
  </div>`;
}

/**
 * A name for an option value the agent set but does not list: the fragment or last path segment of a
 * URL id (Copilot CLI's modes are `https://…/session-modes#agent`), else the value itself.
 */
export function valueName(value: string): string {
  try {
    const url = new URL(value);
    return (
      decodeURIComponent(url.hash.slice(1) || url.pathname.split('/').filter(Boolean).at(-1) || '') || value
    );
  } catch {
    return value; // not a URL (or a malformed escape in one)
  }
}

/** A message typed while the agent works, with the files attached to it. */
export interface QueuedMessage {
  readonly text: string;
  readonly attachments: readonly Attachment[];
}

/** The running turn as the status row shows it. */
export interface TurnStatus {
  readonly busy: boolean;
  readonly seconds: number;
  /** A message went into the turn (the agent steers); said until the next turn starts. */
  readonly steered: boolean;
  /** Messages the agent holds behind the running turn (it queues prompts), oldest first. */
  readonly agentQueued: readonly string[];
  /** What the agent says the running turn waits for (Codex's `threadStatus`), if anything. */
  readonly waitingOn?: readonly ('approval' | 'input')[];
}

/**
 * The running turn's state, what became of messages sent during it (into the turn, or held by the
 * agent), and the message Silo holds until it ends — when there is any of these; the held one says
 * when it goes (when the agent finishes, or once connected while `waiting`).
 */
export function renderStatusRow(
  s: SiloChatAllStrings,
  turn: TurnStatus,
  queued: QueuedMessage | undefined,
  waiting: boolean,
  unqueue: () => void,
): TemplateResult | typeof nothing {
  const { busy } = turn;
  if (!busy && !turn.steered && queued === undefined && turn.agentQueued.length === 0) return nothing;
  return html`<div class="status-row">
    ${
      busy
        ? html`<span class="working" part="working"
            ><span role="status">${
              turn.waitingOn?.includes('approval')
                ? s.waitingOnApproval
                : turn.waitingOn?.includes('input')
                  ? s.waitingOnInput
                  : s.working
            }</span>
            <span class="elapsed" part="elapsed">${s.elapsed(turn.seconds)}</span></span
          >`
        : nothing
    }
    ${turn.steered ? html`<span class="queued" part="steered-note" role="status">${s.steeredNote}</span>` : nothing}
    ${turn.agentQueued.map(
      (text) => html`<span class="queued" part="agent-queued" role="status">
        <span class="label">${s.agentQueued}</span> <span class="text">${text}</span>
      </span>`,
    )}
    ${
      queued !== undefined
        ? html`<span class="queued" part="queued" role="status">
            <span class="label">${waiting && !busy ? s.queuedConnecting : s.queued}</span> <span class="text">${clip(queued.text, 1000)}</span
            >${queued.attachments.map((a) => html` <span class="file">${a.name}</span>`)}
            <button type="button" part="unqueue" @click=${unqueue}>${s.unqueue}</button>
          </span>`
        : nothing
    }
  </div>`;
}
