/**
 * The demo's sidebar: the bridge's state, New session and Import, the history, messages, and the
 * links to more tabs. On a phone it is a drawer (drawer.ts).
 */

import { html, nothing } from 'lit';
import { type AgentSessionSummary, SiloError } from 'silo-acp';
import { state, update } from './app.ts';
import { sessionTemplate } from './bar.ts';
import { openDemoTab } from './bridge-config.ts';
import { agentName, OUTCOME_BADGE, sessionTitle, timeAgo } from './format.ts';
import { clearSession, importFile, open, rename, search } from './history.ts';
import { checkBridge, newSession } from './live.ts';

function bridgeStatus() {
  if (!state.checked) return html`<p class="status" data-bridge="checking">Looking for the bridge…</p>`;
  if (state.locked) {
    return html`<div class="status" data-bridge="locked">
      <p><strong>This tab has no launch key.</strong> Open the URL <code>npm start</code> printed: each one
      opens one tab, and Enter in its terminal prints another. The history still opens from this browser's journal.</p>
    </div>`;
  }
  if (!state.bridge) {
    return html`<div class="status" data-bridge="offline">
      <p><strong>Bridge offline.</strong> The history and every transcript still open from this browser's journal.</p>
      <button type="button" @click=${() => checkBridge()}>Check again</button>
    </div>`;
  }
  const port = new URL(state.bridge.url).port;
  return html`<p class="status" data-bridge="online">
    <strong>Bridge on port ${port}</strong><br /><span class="muted">${agentName(state.bridge.agent)}</span>
  </p>`;
}

function historyItem(s: AgentSessionSummary) {
  const live = s.sessionId === state.liveId && state.bridge !== undefined;
  const current = state.viewing ? s.sessionId === state.viewing : live;
  const meta = [
    s.agent ? agentName(s.agent) : 'no agent recorded',
    timeAgo(s.updatedAt ?? s.createdAt),
    s.updateCount !== undefined ? `${s.updateCount} update${s.updateCount === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const title = sessionTitle(s);
  if (state.renaming === s.sessionId && !s.loadable)
    return html`<li class="renaming">
      <input
        class="rename"
        aria-label="New title for “${title}” (Enter saves, Esc cancels; empty gives back the agent’s)"
        .value=${s.renamed ? title : (s.title ?? '')}
        @keydown=${(e: KeyboardEvent) => {
          if (e.key === 'Enter') void rename(s.sessionId, (e.target as HTMLInputElement).value);
          else if (e.key === 'Escape') update({ renaming: undefined });
        }}
        @blur=${() => state.renaming === s.sessionId && update({ renaming: undefined })}
      />
    </li>`;
  return html`<li>
    <button
      type="button"
      class="session"
      data-session-id=${s.sessionId}
      aria-current=${current ? 'true' : 'false'}
      @click=${() => open(s.sessionId)}
    >
      <span class="title">${title}</span>
      <span class="meta">
        ${live ? html`<span class="badge live">live</span>` : nothing}
        ${s.lastOutcome ? html`<span class="badge" data-outcome=${s.lastOutcome}>${OUTCOME_BADGE[s.lastOutcome]}</span>` : nothing}
        ${meta}
      </span>
    </button>
    ${
      s.loadable
        ? nothing
        : html`<span class="item-actions">
            <button type="button" class="link" data-rename=${s.sessionId} aria-label="Rename “${title}”" @click=${() => update({ renaming: s.sessionId })}>Rename</button>
            <button type="button" class="link danger" data-delete=${s.sessionId} aria-label="Delete “${title}”" @click=${() => clearSession(s.sessionId)}>Delete</button>
          </span>`
    }
  </li>`;
}

/**
 * Opens a new tab of the demo (call it in the click: the tab opens at once); says so when the browser
 * blocked it or the server refused (this tab has no secret).
 */
async function newTab(path?: string): Promise<void> {
  try {
    const opened = await openDemoTab(path);
    if (opened === 'blocked')
      update({ message: { text: 'Could not open a tab: the browser blocked the window.', error: true } });
    else if (opened === 'refused')
      update({ message: { text: 'Could not open a tab: no launch key.', error: true } });
  } catch (e) {
    update({ message: { text: `Could not open a tab: ${SiloError.from(e).message}`, error: true } });
  }
}

export function sidebarTemplate() {
  return html`
    <header class="brand">
      <span class="logo" aria-hidden="true">◆</span>
      <span><strong>Silo</strong> <span class="muted">demo</span></span>
      <button type="button" class="drawer-close" aria-label="Close the history" @click=${() => update({ drawer: false })}>
        Close
      </button>
    </header>
    ${bridgeStatus()}
    ${sessionTemplate()}
    <div class="actions">
      <button type="button" class="primary" id="new-session" ?disabled=${!state.bridge} @click=${() => newSession()}>
        New session
      </button>
      <label class="button">
        Import JSONL…
        <input
          type="file"
          id="import"
          accept=".jsonl,application/jsonl,application/x-ndjson,text/plain"
          @change=${(e: Event) => {
            const input = e.target as HTMLInputElement;
            const file = input.files?.[0];
            input.value = '';
            if (file) void importFile(file);
          }}
        />
      </label>
    </div>
    <h2 id="history-label">History</h2>
    <input
      type="search"
      id="history-search"
      placeholder="Search titles and messages"
      aria-label="Search the history (titles and messages)"
      .value=${state.query}
      @input=${(e: Event) => search((e.target as HTMLInputElement).value)}
    />
    ${
      state.sessions.length === 0
        ? html`<p class="muted empty">${state.query.trim() ? 'No session matches.' : 'No journaled sessions yet.'}</p>`
        : html`<ul class="history" id="history" aria-labelledby="history-label">${state.sessions.map(historyItem)}</ul>`
    }
    ${
      state.message
        ? html`<p class="message ${state.message.error ? 'error' : ''}" role=${state.message.error ? 'alert' : 'status'}>
          ${state.message.text}
        </p>`
        : nothing
    }
    <footer>
      ${
        // A new tab holds none of this tab's history, so it gets in on a launch key of its own.
        state.bridge
          ? html`<button type="button" class="link" id="open-embed" @click=${() => newTab('/embed.html')}>Minimal embed</button>
              <button type="button" class="link" id="new-tab" @click=${() => newTab()}>New tab</button>`
          : nothing
      }
      <a href="/offline.html" target="_blank" rel="noopener">Offline viewer</a>
    </footer>
  `;
}
