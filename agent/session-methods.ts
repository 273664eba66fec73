/**
 * The reference agent's session methods besides the prompt turn (prompt.ts): opening a session
 * (`session/new`, `fork`, `load`, `resume`), its settings (`set_mode`, `set_model`,
 * `set_config_option`), `session/list`, `close` and `delete` (app.ts registers fork, load, resume,
 * list, close and delete only when their option is on). Where a method needs the session open here
 * (or stored, to open it), an unknown one fails with `sessionNotFound`; under `--auth-required`,
 * opening one fails until a sign-in (handshake.ts).
 */
import { randomUUID } from 'node:crypto';
import {
  type AgentRequestContext,
  type CloseSessionRequest,
  type DeleteSessionRequest,
  type ListSessionsRequest,
  type ListSessionsResponse,
  type LoadSessionRequest,
  type NewSessionRequest,
  RequestError,
  type ResumeSessionRequest,
  type SetSessionConfigOptionRequest,
  type SetSessionConfigOptionResponse,
  type SetSessionModeRequest,
} from '@agentclientprotocol/sdk';
import { configOptions, setConfigOption, setMode } from './config.ts';
import { requireSignIn } from './handshake.ts';
import { aroundReplay, loadReplay } from './replay-shape.ts';
import { modeAnnouncement } from './scenarios/agents.ts';
import { withoutSubagentText } from './scenarios/subagent.ts';
import { COMMANDS } from './scenarios/tools.ts';
import type { Sessions } from './sessions.ts';
import type { SessionRecord } from './store.ts';

/** `session/new`: a new empty session in the default mode and model, stored and open here. */
export function newSession(sessions: Sessions, { params, client }: AgentRequestContext<NewSessionRequest>) {
  requireSignIn(sessions);
  const record: SessionRecord = {
    sessionId: `ses-${randomUUID()}`,
    cwd: params.cwd,
    title: null,
    updatedAt: new Date().toISOString(),
    modeId: 'ask',
    model: 'fast',
    thinking: false,
    history: [],
  };
  sessions.store.save(record);
  sessions.attach(record);
  sessions.announceCommands(client, record.sessionId);
  return { sessionId: record.sessionId, ...sessions.sessionState(record) };
}

/** `session/set_mode`: sets the mode and announces it (a config option update, or `--mode-update-marker`'s text). */
export function setSessionMode(
  sessions: Sessions,
  { params, client }: AgentRequestContext<SetSessionModeRequest>,
) {
  const { record } = sessions.liveSession(params.sessionId);
  setMode(record, params.modeId);
  sessions.store.save(record);
  const update = sessions.options.modeUpdateMarker
    ? modeAnnouncement(record.modeId, true)
    : { sessionUpdate: 'config_option_update', configOptions: configOptions(record, sessions.caps) };
  void client.notify('session/update', { sessionId: record.sessionId, update } as never).catch(() => {});
  return {};
}

/** Reads the unstable `session/set_model` params (`--models`); invalid params without both ids. */
export function parseSetModel(params: unknown) {
  const p = params as { sessionId?: unknown; modelId?: unknown } | null;
  if (typeof p?.sessionId !== 'string' || typeof p.modelId !== 'string')
    throw RequestError.invalidParams(params, 'sessionId and modelId are required');
  return { sessionId: p.sessionId, modelId: p.modelId };
}

/** `session/set_model` (`--models`, as Gemini CLI): sets the model. */
export function setSessionModel(
  sessions: Sessions,
  { params }: AgentRequestContext<ReturnType<typeof parseSetModel>>,
) {
  const { record } = sessions.liveSession(params.sessionId);
  setConfigOption(record, 'model', params.modelId);
  sessions.store.save(record);
  return {};
}

/** `session/set_config_option`: sets the option, announcing a mode it changed before the answer. */
export async function setSessionConfigOption(
  sessions: Sessions,
  { params, client }: AgentRequestContext<SetSessionConfigOptionRequest>,
): Promise<SetSessionConfigOptionResponse> {
  const { record } = sessions.liveSession(params.sessionId);
  const before = record.modeId;
  setConfigOption(record, params.configId, params.value);
  sessions.store.save(record);
  if (record.modeId !== before) {
    const update = modeAnnouncement(record.modeId, sessions.options.modeUpdateMarker);
    await client.notify('session/update', { sessionId: record.sessionId, update } as never);
  }
  return { configOptions: configOptions(record, sessions.caps) };
}

/** Reads the `session/fork` params (`--fork`); invalid params without a session id and a cwd. */
export function parseFork(params: unknown) {
  const p = params as { sessionId?: unknown; cwd?: unknown } | null;
  if (typeof p?.sessionId !== 'string' || typeof p.cwd !== 'string')
    throw RequestError.invalidParams(params, 'sessionId and cwd are required');
  return { sessionId: p.sessionId, cwd: p.cwd };
}

/** `session/fork` (`--fork`): a copy of a stored session under a new id, open here. */
export async function forkSession(
  sessions: Sessions,
  { params, client }: AgentRequestContext<ReturnType<typeof parseFork>>,
) {
  const { options } = sessions;
  requireSignIn(sessions);
  // As claude-agent-acp and OpenCode do: the whole session is copied under a new id.
  const record: SessionRecord = {
    ...structuredClone(sessions.stored(params.sessionId)),
    sessionId: `ses-${randomUUID()}`,
    cwd: params.cwd,
  };
  sessions.store.save(record);
  sessions.attach(record);
  // OpenCode replays the fork's messages before it answers.
  if (options.forkReplay)
    for (const update of loadReplay(record, options))
      await client.notify('session/update', { sessionId: record.sessionId, update } as never);
  sessions.announceCommands(client, record.sessionId);
  return { sessionId: record.sessionId, ...sessions.sessionState(record) };
}

/**
 * `session/load`: opens a stored session and replays its history (agent/replay-shape.ts) before the
 * answer, or, under `--replay-after-load-response`, only its first update before it.
 */
export async function loadSession(
  sessions: Sessions,
  { params, client }: AgentRequestContext<LoadSessionRequest>,
) {
  const { options } = sessions;
  requireSignIn(sessions);
  const record = sessions.stored(params.sessionId);
  sessions.attach(record);
  sessions.forget(record);
  const replay = aroundReplay(
    withoutSubagentText(loadReplay(record, options), sessions.caps),
    options.replayShape,
    {
      commands: COMMANDS,
      title: record.title,
    },
  );
  const send = async (updates: typeof replay) => {
    for (const update of updates)
      await client.notify('session/update', { sessionId: record.sessionId, update } as never);
  };
  if (options.replayAfterLoadResponse) {
    // As Gemini CLI: the first update before the response, the rest once it is written.
    await send(replay.slice(0, 1));
    setTimeout(() => void send(replay.slice(1)).catch(() => {}), options.lateReplayMs);
  } else await send(replay);
  if (options.commandsAfterLoad) sessions.announceCommands(client, record.sessionId);
  return sessions.sessionState(record);
}

/** `session/resume`: opens a stored session without a replay. */
export function resumeSession(
  sessions: Sessions,
  { params, client }: AgentRequestContext<ResumeSessionRequest>,
) {
  requireSignIn(sessions);
  const record = sessions.stored(params.sessionId);
  sessions.attach(record);
  sessions.forget(record);
  if (sessions.options.commandsAfterLoad) sessions.announceCommands(client, record.sessionId);
  return sessions.sessionState(record);
}

/** `session/list`: the stored sessions (of one cwd, if given), a page at a time; invalid params for a bad cursor. */
export function listSessions(
  sessions: Sessions,
  { params }: AgentRequestContext<ListSessionsRequest>,
): ListSessionsResponse {
  let start = 0;
  if (params.cursor) {
    start = Number(Buffer.from(params.cursor, 'base64url').toString());
    if (!Number.isSafeInteger(start) || start < 0)
      throw RequestError.invalidParams({ cursor: params.cursor }, 'invalid cursor');
  }
  const all = sessions.store.all().filter((r) => !params.cwd || r.cwd === params.cwd);
  const page = all.slice(start, start + sessions.options.listPageSize);
  const next = start + page.length;
  return {
    sessions: page.map((r) => ({
      sessionId: r.sessionId,
      cwd: r.cwd,
      title: r.title,
      updatedAt: r.updatedAt,
    })),
    ...(next < all.length ? { nextCursor: Buffer.from(String(next)).toString('base64url') } : {}),
  };
}

/** `session/close`: aborts its turn and lets it go (answered `--close-delay-ms` late). */
export async function closeSession(sessions: Sessions, { params }: AgentRequestContext<CloseSessionRequest>) {
  const session = sessions.live.get(params.sessionId);
  if (!session) sessions.stored(params.sessionId);
  session?.turn?.abort();
  sessions.live.delete(params.sessionId);
  sessions.store.release(params.sessionId);
  if (sessions.options.closeDelayMs) await new Promise((r) => setTimeout(r, sessions.options.closeDelayMs));
  return {};
}

/** `session/delete`: aborts its turn and removes it from the store. */
export function deleteSession(sessions: Sessions, { params }: AgentRequestContext<DeleteSessionRequest>) {
  sessions.live.get(params.sessionId)?.turn?.abort();
  sessions.live.delete(params.sessionId);
  sessions.store.delete(params.sessionId);
  return {};
}
