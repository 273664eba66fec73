/**
 * The demo page: a history of journaled sessions (readable offline), new session, restore with its
 * outcome, "Continue in a new session", clear, export/import, a scenario picker for the reference
 * agent, and the live `<silo-chat>`. It uses only the package's public entry points.
 */
import { html, nothing, render } from 'lit';
import {
  type AgentClearResult,
  type AgentResumeOutcome,
  type AgentSessionHandle,
  type AgentSessionSummary,
  createAgentsService,
  SiloError,
} from 'silo-acp';
import 'silo-acp/components';
import { type BridgeConfig, loadBridgeConfig, openDemoTab } from './bridge-config.ts';
import { download } from './download.ts';
import { agentName, OUTCOME_BADGE, OUTCOME_LABEL, sessionTitle, shortId, timeAgo } from './format.ts';
import { featuredScenarios, moreScenarios, type PickerEntry } from './scenarios.ts';

const service = createAgentsService();
const chat = document.querySelector('silo-chat')!;
const viewer = document.querySelector('silo-transcript')!;
const sidebar = document.getElementById('sidebar')!;
const bar = document.getElementById('session-bar')!;
const picker = document.getElementById('scenarios')!;

interface State {
  /** The bridge, or undefined when none is running (offline). */
  bridge: BridgeConfig | undefined;
  /** True once the bridge config was asked for. */
  checked: boolean;
  /** A bridge runs, but this tab holds no launch key or session for it (bridge-config.ts). */
  locked: boolean;
  sessions: AgentSessionSummary[];
  /** The session `<silo-chat>` holds, and how it was restored. */
  liveId: string | undefined;
  outcome: AgentResumeOutcome | undefined;
  connection: string | undefined;
  busy: boolean;
  /** A journaled session shown read-only instead of the chat. */
  viewing: string | undefined;
  message: { text: string; error?: boolean } | undefined;
}

const state: State = {
  bridge: undefined,
  checked: false,
  locked: false,
  sessions: [],
  liveId: undefined,
  outcome: undefined,
  connection: undefined,
  busy: false,
  viewing: undefined,
  message: undefined,
};

function update(patch: Partial<State>): void {
  Object.assign(state, patch);
  paint();
}

function say(text: string, error = false): void {
  update({ message: { text, error } });
}

/** The agent's sessions this browser has no journal of (`loadable`), asked for once per bridge. */
let agentSessions: AgentSessionSummary[] = [];

async function refreshHistory(askAgent = false): Promise<void> {
  try {
    const journaled = await service.sessions();
    const bridge = state.bridge;
    if (askAgent && bridge) {
      const listed = await service
        .sessions({ bridge: { url: bridge.url, token: bridge.token }, cwd: bridge.cwd })
        .catch(() => []);
      agentSessions = listed.filter((s) => s.loadable);
    }
    const known = new Set(journaled.map((s) => s.sessionId));
    update({ sessions: [...journaled, ...agentSessions.filter((s) => !known.has(s.sessionId))] });
  } catch (e) {
    say(`Cannot read the journal: ${SiloError.from(e).message}`, true);
  }
}

// ── the live session ─────────────────────────────────────────────────────────────────────────────

let unsubscribe: (() => void) | undefined;

function follow(handle: AgentSessionHandle): void {
  unsubscribe?.();
  let refresh = false;
  unsubscribe = handle.subscribe((updates, snapshot) => {
    if (updates.some((u) => u.kind === 'turn_end' || u.kind === 'session_info_update')) refresh = true;
    if (refresh && !snapshot.busy) {
      refresh = false;
      void refreshHistory();
    }
    if (snapshot.busy !== state.busy || snapshot.state !== state.connection) {
      update({ busy: snapshot.busy, connection: snapshot.state });
    }
  });
}

chat.addEventListener('silo-session', (e) => {
  const handle = chat.session;
  if (handle) follow(handle);
  update({
    liveId: e.detail.sessionId,
    outcome: e.detail.resumeOutcome as AgentResumeOutcome,
    connection: handle?.snapshot.state,
    busy: handle?.snapshot.busy ?? false,
    message: undefined,
  });
  void refreshHistory();
});

async function connectChat(options: Parameters<typeof chat.connect>[0]): Promise<void> {
  update({ viewing: undefined, message: undefined });
  await chat.connect(options);
}

/** "New session": keeps the live session while it is still empty, so no empty entries pile up. */
function newSession(): void {
  update({ viewing: undefined, message: undefined });
  void chat.newSession();
}

function send(entry: PickerEntry): void {
  if (!canSend()) return;
  void chat.send(entry.prompt);
}

function canSend(): boolean {
  return (
    state.bridge !== undefined &&
    state.liveId !== undefined &&
    state.connection === 'connected' &&
    state.outcome !== 'journal-only' &&
    !state.busy
  );
}

// ── journal actions ──────────────────────────────────────────────────────────────────────────────

async function exportSession(id: string): Promise<void> {
  try {
    download(`${id}.jsonl`, await service.exportJsonl(id), 'application/jsonl');
  } catch (e) {
    say(`Export failed: ${SiloError.from(e).message}`, true);
  }
}

async function clearSession(id: string): Promise<void> {
  const summary = state.sessions.find((s) => s.sessionId === id);
  const what = `“${summary ? sessionTitle(summary) : id}”`;
  if (!confirm(`Delete ${what} from this browser, and the agent’s copy if it offers that?`)) return;
  try {
    if (id === state.liveId) {
      update({ liveId: undefined, outcome: undefined });
      if (state.bridge) await chat.connect({ fresh: true });
    }
    const bridge = state.bridge;
    const result = await service.clear(
      id,
      bridge ? { bridge: { url: bridge.url, token: bridge.token } } : {},
    );
    update({ viewing: state.viewing === id ? undefined : state.viewing });
    await refreshHistory();
    if (!state.bridge && !state.viewing) update({ viewing: state.sessions[0]?.sessionId });
    say(clearedMessage(result), result.agentCopy === 'failed');
  } catch (e) {
    say(`Clear failed: ${SiloError.from(e).message}`, true);
  }
}

/** What Clear did, in words: the journal, and the agent's copy. */
function clearedMessage(result: AgentClearResult): string {
  switch (result.agentCopy) {
    case 'deleted':
      return 'Journal cleared; the agent deleted its copy too.';
    case 'not-offered':
      return 'Journal cleared. The agent keeps its own copy: it offers no way to delete it.';
    case 'not-asked':
      return 'Journal cleared. The agent was not asked to delete its copy (no bridge).';
    case 'failed':
      return `Journal cleared, but the agent could not delete its copy: ${result.error?.message ?? 'unknown error'}`;
  }
}

async function importFile(file: File): Promise<void> {
  try {
    const id = await service.importJsonl(await file.text());
    await refreshHistory();
    update({ viewing: id });
    say(`Imported ${file.name}.`);
  } catch (e) {
    say(`Import failed: ${SiloError.from(e).message}`, true);
  }
}

function open(id: string): void {
  if (id === state.liveId && state.bridge) update({ viewing: undefined });
  else update({ viewing: id });
}

// ── bridge ───────────────────────────────────────────────────────────────────────────────────────

async function checkBridge(): Promise<void> {
  const access = await loadBridgeConfig();
  const bridge = access.state === 'online' ? access.config : undefined;
  update({ bridge, checked: true, locked: access.state === 'locked' });
  if (bridge) {
    // One service for the chat and the history; setting all at once connects once.
    chat.service = service;
    chat.cwd = bridge.cwd;
    chat.bridgeUrl = bridge.url;
    chat.bridgeToken = bridge.token;
    void refreshHistory(true);
  } else if (!state.viewing) {
    await refreshHistory();
    update({ viewing: state.sessions[0]?.sessionId });
  }
}

// ── rendering ────────────────────────────────────────────────────────────────────────────────────

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
  return html`<li>
    <button
      type="button"
      class="session"
      data-session-id=${s.sessionId}
      aria-current=${current ? 'true' : 'false'}
      @click=${() => open(s.sessionId)}
    >
      <span class="title">${sessionTitle(s)}</span>
      <span class="meta">
        ${live ? html`<span class="badge live">live</span>` : nothing}
        ${s.lastOutcome ? html`<span class="badge" data-outcome=${s.lastOutcome}>${OUTCOME_BADGE[s.lastOutcome]}</span>` : nothing}
        ${meta}
      </span>
    </button>
  </li>`;
}

function sidebarTemplate() {
  return html`
    <header class="brand">
      <span class="logo" aria-hidden="true">◆</span>
      <span><strong>Silo</strong> <span class="muted">demo</span></span>
    </header>
    ${bridgeStatus()}
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
    ${
      state.sessions.length === 0
        ? html`<p class="muted empty">No journaled sessions yet.</p>`
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
          ? html`<button type="button" class="link" id="open-embed" @click=${() => openDemoTab('/embed.html')}>Minimal embed</button>
              · <button type="button" class="link" id="new-tab" @click=${() => openDemoTab()}>New tab</button> · `
          : nothing
      }
      <a href="/offline.html" target="_blank" rel="noopener">Offline viewer</a>
    </footer>
  `;
}

function barTemplate() {
  if (state.viewing) {
    const id = state.viewing;
    const s = state.sessions.find((x) => x.sessionId === id);
    const offline = !state.bridge;
    return html`
      <div class="what">
        <span class="pill journal">Journal · read-only</span>
        <span class="bar-title">${s ? sessionTitle(s) : shortId(id)}</span>
        ${s?.lastOutcome ? html`<span class="muted">last: ${OUTCOME_BADGE[s.lastOutcome]}</span>` : nothing}
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
        <button type="button" id="clear" class="danger" @click=${() => clearSession(id)}>Clear</button>
        ${state.bridge && state.liveId ? html`<button type="button" @click=${() => update({ viewing: undefined })}>Back to live chat</button>` : nothing}
      </div>
    `;
  }
  if (!state.bridge)
    return html`<div class="what muted">No bridge and no journaled session: run <code>npm start</code>.</div>`;
  const outcome = state.outcome;
  return html`
    <div class="what">
      <span class="pill live">Live</span>
      ${
        outcome
          ? html`<span id="outcome" data-outcome=${outcome} class="outcome">${OUTCOME_LABEL[outcome]}</span>`
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
      ${
        state.liveId
          ? html`<button type="button" id="clear" class="danger" title="Delete this session's journal from this browser" @click=${() => clearSession(state.liveId!)}>
              Clear
            </button>`
          : nothing
      }
    </div>
  `;
}

function pickerTemplate() {
  if (!state.bridge?.reference || state.viewing) return nothing;
  const disabled = !canSend();
  return html`
    <span class="picker-label" id="picker-label">Try a scenario</span>
    <div class="chips" role="group" aria-labelledby="picker-label">
      ${featuredScenarios.map(
        (
          s,
        ) => html`<button type="button" class="chip" data-scenario=${s.name} title=${s.description} ?disabled=${disabled} @click=${() => send(s)}>
          ${s.label}
        </button>`,
      )}
      <select
        aria-label="More scenarios"
        ?disabled=${disabled}
        @change=${(e: Event) => {
          const select = e.target as HTMLSelectElement;
          const entry = moreScenarios.find((s) => s.name === select.value);
          select.value = '';
          if (entry) send(entry);
        }}
      >
        <option value="">More…</option>
        ${moreScenarios.map((s) => html`<option value=${s.name} title=${s.description}>${s.name} — ${s.description}</option>`)}
      </select>
    </div>
  `;
}

function paint(): void {
  render(sidebarTemplate(), sidebar);
  render(barTemplate(), bar);
  render(pickerTemplate(), picker);
  const viewing = state.viewing;
  chat.hidden = viewing !== undefined || !state.bridge;
  viewer.hidden = viewing === undefined;
  if (viewing && (viewer.sessionId !== viewing || viewer.service !== service)) {
    viewer.service = service;
    viewer.sessionId = viewing;
  } else if (!viewing && viewer.sessionId) {
    // Read again from the journal next time: the session may have grown meanwhile.
    viewer.sessionId = undefined;
  }
}

paint();
void refreshHistory();
void checkBridge();
// A printed URL opened in this tab again only changes the fragment: no reload, so redeem it here.
addEventListener('hashchange', () => {
  if (location.hash.includes('launch=')) void checkBridge();
});
