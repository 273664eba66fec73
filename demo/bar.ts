/**
 * What is shown (the live session and how it was restored, or a journal read-only), its actions and
 * the scenario picker for the reference agent: in the sidebar on a wide window, so the chat gets the
 * whole height beside it; on a phone in one line above the chat, with the button that opens the
 * history drawer and the scenarios folded into a menu.
 */
import { html, nothing } from 'lit';
import { state, update } from './app.ts';
import { OUTCOME_BADGE, OUTCOME_LABEL, sessionTitle, shortId } from './format.ts';
import { clearSession, exportSession } from './history.ts';
import { canSend, connectChat, sendScenario } from './live.ts';
import { closeMenu } from './menu.ts';
import { featuredScenarios, moreScenarios, type PickerEntry } from './scenarios.ts';

const menuIcon = html`<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
  <path d="M2 4h12M2 8h12M2 12h12" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" />
</svg>`;

/** The phone's button for the history drawer (hidden on wider screens). */
function drawerToggle() {
  return html`<button
    type="button"
    class="drawer-toggle"
    aria-label="History"
    aria-controls="sidebar"
    aria-expanded=${state.drawer ? 'true' : 'false'}
    @click=${() => update({ drawer: !state.drawer })}
  >
    ${menuIcon}
  </button>`;
}

function play(e: Event, entry: PickerEntry | undefined): void {
  closeMenu(e.target as Element);
  if (entry) sendScenario(entry);
}

/**
 * "Try a scenario": the reference agent's scenarios (nothing for another agent). In the sidebar a
 * disclosure, open at first in a tall window (the history stays in view in a short one); on a phone
 * a menu over the chat.
 */
function scenarioPicker() {
  if (!state.bridge?.reference || state.viewing) return nothing;
  const disabled = !canSend();
  return html`<details class="${state.phone ? 'menu' : 'disclosure'} scenarios" id="scenarios" ?open=${!state.phone && innerHeight >= 760}>
    <summary class="button">Try a scenario</summary>
    <div class="menu-panel">
      <div class="chips" role="group" aria-label="Scenarios">
        ${featuredScenarios.map(
          (s) => html`<button
            type="button"
            class="chip"
            data-scenario=${s.name}
            title=${s.description}
            ?disabled=${disabled}
            @click=${(e: Event) => play(e, s)}
          >
            ${s.label}
          </button>`,
        )}
      </div>
      <select
        aria-label="More scenarios"
        ?disabled=${disabled}
        @change=${(e: Event) => {
          const select = e.target as HTMLSelectElement;
          const entry = moreScenarios.find((s) => s.name === select.value);
          select.value = '';
          play(e, entry);
        }}
      >
        <option value="">More…</option>
        ${moreScenarios.map((s) => html`<option value=${s.name} title=${s.description}>${s.name} — ${s.description}</option>`)}
      </select>
    </div>
  </details>`;
}

function viewing(id: string) {
  const s = state.sessions.find((x) => x.sessionId === id);
  const offline = !state.bridge;
  return html`
    <div class="what">
      <span class="pill journal">Journal · read-only</span>
      <span class="bar-title">${s ? sessionTitle(s) : shortId(id)}</span>
      ${s?.lastOutcome ? html`<span class="muted last">last: ${OUTCOME_BADGE[s.lastOutcome]}</span>` : nothing}
    </div>
    <div class="bar-actions">
      <button type="button" id="restore" class="primary" ?disabled=${offline} title=${offline ? 'Needs the bridge' : 'Reconnect the agent to this session'} @click=${() => connectChat(s?.loadable ? { sessionId: id, via: 'load' } : { sessionId: id })}>
        ${s?.loadable ? 'Load from the agent' : 'Restore'}
      </button>
      ${
        s?.lastOutcome === 'journal-only'
          ? html`<button type="button" id="continue" ?disabled=${offline} @click=${() => connectChat({ continueFrom: id })}>
            Continue in a new session
          </button>`
          : nothing
      }
      <button type="button" id="export" @click=${() => exportSession(id)}>Export JSONL</button>
      <button type="button" id="clear" class="danger" title="Delete this session and its journal from this browser" @click=${() => clearSession(id)}>Delete</button>
      ${state.bridge && state.liveId ? html`<button type="button" @click=${() => update({ viewing: undefined })}>Back to live chat</button>` : nothing}
    </div>
  `;
}

function live() {
  if (!state.bridge)
    return html`<div class="what muted">No bridge and no journaled session: run <code>npm start</code>.</div>`;
  const outcome = state.outcome;
  return html`
    <div class="what">
      <span class="pill live">Live</span>
      ${
        outcome
          ? html`<span id="outcome" data-outcome=${outcome} class="outcome" title=${OUTCOME_LABEL[outcome]}>${OUTCOME_LABEL[outcome]}</span>`
          : html`<span class="muted">Connecting…</span>`
      }
    </div>
    <div class="bar-actions">
      ${
        outcome === 'journal-only' && state.liveId
          ? html`<button type="button" id="continue" class="primary" @click=${() => connectChat({ continueFrom: state.liveId })}>
            Continue in a new session
          </button>`
          : nothing
      }
      ${state.phone ? scenarioPicker() : nothing}
      ${
        state.liveId
          ? html`<button type="button" id="clear" class="danger" title="Delete this session's journal from this browser" @click=${() => clearSession(state.liveId!)}>
              Delete
            </button>`
          : nothing
      }
    </div>
    ${state.phone ? nothing : scenarioPicker()}
  `;
}

/** The session shown and its actions (`role="region"`, in the sidebar or above the chat). */
function session() {
  return html`<section class="session-card" aria-label="This session">
    ${state.viewing ? viewing(state.viewing) : live()}
  </section>`;
}

/** The sidebar's part: the session card on a wide window, nothing on a phone. */
export function sessionTemplate() {
  return state.phone ? nothing : session();
}

/** Above the chat, on a phone only: the drawer's button and the session card. */
export function barTemplate() {
  return state.phone ? html`${drawerToggle()}${session()}` : nothing;
}
