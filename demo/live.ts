/**
 * The demo's live side: the bridge this tab may use (bridge-config.ts), the `<silo-chat>` connected
 * to it, and what the session bar and the scenario picker do with it.
 */
import type { AgentResumeOutcome, AgentSessionHandle } from 'silo-acp';
import { chat, service, state, update } from './app.ts';
import { loadBridgeConfig } from './bridge-config.ts';
import { refreshHistory } from './history.ts';
import type { PickerEntry } from './scenarios.ts';

let unsubscribe: (() => void) | undefined;

/** Keeps the bar and the history current with the chat's session. */
function watch(handle: AgentSessionHandle): void {
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
  if (handle) watch(handle);
  update({
    liveId: e.detail.sessionId,
    outcome: e.detail.resumeOutcome as AgentResumeOutcome,
    connection: handle?.snapshot.state,
    busy: handle?.snapshot.busy ?? false,
    message: undefined,
  });
  void refreshHistory();
});

export async function connectChat(options: Parameters<typeof chat.connect>[0]): Promise<void> {
  update({ viewing: undefined, message: undefined });
  await chat.connect(options);
}

/** "New session": keeps the live session while it is still empty, so no empty entries pile up. */
export function newSession(): void {
  update({ viewing: undefined, message: undefined, drawer: false });
  void chat.newSession();
}

/** True when a scenario can be sent now (connected, driving, idle). */
export function canSend(): boolean {
  return (
    state.bridge !== undefined &&
    state.liveId !== undefined &&
    state.connection === 'connected' &&
    state.outcome !== 'journal-only' &&
    !state.busy
  );
}

export function sendScenario(entry: PickerEntry): void {
  if (canSend()) void chat.send(entry.prompt);
}

/** Asks for the bridge this tab may use; connects the chat to it, or shows the history offline. */
export async function checkBridge(): Promise<void> {
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
