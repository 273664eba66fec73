/**
 * The demo's history: the journaled sessions (readable offline) with the agent's own `loadable` ones,
 * and what can be done with them — search, open, rename, export, delete, import (through the service).
 */
import { type AgentClearResult, type AgentSessionSummary, SiloError } from 'silo-acp';
import { chat, say, service, state, update } from './app.ts';
import { download } from './download.ts';
import { sessionTitle } from './format.ts';

/** The agent's sessions this browser has no journal of (`loadable`), asked for once per bridge. */
let agentSessions: AgentSessionSummary[] = [];

/** Reads the history again; with `askAgent`, also the agent's session list. */
export async function refreshHistory(askAgent = false): Promise<void> {
  try {
    const query = state.query;
    const journaled = await service.sessions({ query });
    if (query !== state.query) return; // typed on meanwhile: a newer search is under way
    if (query.trim()) {
      update({ sessions: journaled });
      return;
    }
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

export async function exportSession(id: string): Promise<void> {
  try {
    // Streamed from the journal into the file's bytes: no string of the whole transcript.
    const stream = await service.exportJsonlStream(id);
    const blob = await new Response(stream.pipeThrough(new TextEncoderStream())).blob();
    download(`${id}.jsonl`, blob, 'application/jsonl');
  } catch (e) {
    say(`Export failed: ${SiloError.from(e).message}`, true);
  }
}

export async function clearSession(id: string): Promise<void> {
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
    say(deletedMessage(result), result.agentCopy === 'failed');
  } catch (e) {
    say(`Delete failed: ${SiloError.from(e).message}`, true);
  }
}

/** What Delete did, in words: the journal, and the agent's copy. */
function deletedMessage(result: AgentClearResult): string {
  switch (result.agentCopy) {
    case 'deleted':
      return 'Session deleted; the agent deleted its copy too.';
    case 'not-offered':
      return 'Session deleted. The agent keeps its own copy: it offers no way to delete it.';
    case 'not-asked':
      return 'Session deleted. The agent was not asked to delete its copy (no bridge).';
    case 'failed':
      return `Session deleted, but the agent could not delete its copy: ${result.error?.message ?? 'unknown error'}`;
  }
}

export async function importFile(file: File): Promise<void> {
  try {
    const known = new Set((await service.sessions()).map((s) => s.sessionId));
    const id = await service.importJsonl(await file.text());
    await refreshHistory();
    update({ viewing: id });
    say(known.has(id) ? `${file.name} is in the history already.` : `Imported ${file.name}.`);
  } catch (e) {
    say(`Import failed: ${SiloError.from(e).message}`, true);
  }
}

/** Gives session `id` the user's `title` (blank gives back the agent's). */
export async function rename(id: string, title: string): Promise<void> {
  update({ renaming: undefined });
  try {
    await service.rename(id, title);
    await refreshHistory();
  } catch (e) {
    say(`Rename failed: ${SiloError.from(e).message}`, true);
  }
}

/** Searches the history's titles and messages for `query`. */
export function search(query: string): void {
  state.query = query;
  void refreshHistory();
}

/** Shows a session: the live chat for the live one, else its journal, read-only. */
export function open(id: string): void {
  if (id === state.liveId && state.bridge) update({ viewing: undefined, drawer: false });
  else update({ viewing: id, drawer: false });
}
