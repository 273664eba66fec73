/**
 * Parts of `<silo-chat>`'s composer that only display state: the config option pickers and the status
 * row (the running turn's working state and elapsed time, the queued follow-up).
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { AgentSessionConfigOption } from '../../src/index.ts';
import { clip } from '../shared/format.ts';
import type { SiloChatAllStrings } from '../shared/strings/strings.ts';
import type { Attachment } from './attachments.ts';

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
