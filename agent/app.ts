/**
 * The reference agent, built on the SDK's `agent()` API: capabilities, sessions (new, load, resume,
 * list, close, delete — each can be switched off), modes and config options, authentication, and
 * prompt turns played by the scenario named in the prompt (`/scenario <name> [args]`).
 */
import { randomUUID } from 'node:crypto';
import {
  type AgentApp,
  type AgentContext,
  agent,
  type ClientCapabilities,
  type ContentBlock,
  PROTOCOL_VERSION,
  RequestError,
  type StopReason,
} from '@agentclientprotocol/sdk';
import { configOptions, MODELS, modeState, setConfigOption, setMode, useUrlModeIds } from './config.ts';
import { parseSteer } from './mid-turn.ts';
import type { AgentOptions } from './options.ts';
import { aroundReplay, loadReplay, OPEN_TURN } from './replay-shape.ts';
import { modeAnnouncement } from './scenarios/agents.ts';
import { scenario } from './scenarios/index.ts';
import { withoutSubagentText } from './scenarios/subagent.ts';
import { COMMANDS } from './scenarios/tools.ts';
import { pickScenario } from './scenarios.ts';
import { type SessionRecord, SessionStore } from './store.ts';
import { sendThreadStatus } from './thread-status.ts';
import { type RawWriter, Turn } from './turn.ts';
import { COPILOT_INFO, duringTurn, responseFields } from './usage-shapes.ts';

/** What `--hold-init` writes on stderr once it waits for `SIGUSR2` (a test waits for the line, then signals). */
export const HOLD_INIT_LINE = 'reference agent: holding initialize until SIGUSR2';

/** `--hold-init`: resolves once the process gets `SIGUSR2`, the listener in place before the line is written. */
function heldUntilSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGUSR2', () => resolve());
    process.stderr.write(`${HOLD_INIT_LINE}\n`);
  });
}

/** Identity the agent reports in `initialize`. */
export const AGENT_INFO = { name: 'silo-reference-agent', title: 'Silo reference agent', version: '0.1.0' };

/** The variable the `reference-key` sign-in reads from the agent's environment. */
export const API_KEY_VAR = 'SILO_REFERENCE_API_KEY';

/**
 * Auth methods offered under `--auth-required`. The three terminal ones, in the three shapes agents
 * send them (ACP `type: "terminal"`; `_meta["terminal-auth"]` as Copilot CLI; `_meta.type:
 * "terminal"` as Qwen Code), are for clients to show as commands, never as buttons.
 */
export const AUTH_METHODS = [
  { id: 'reference-login', name: 'Log in', description: 'Pretend to log in (always succeeds)' },
  {
    type: 'env_var',
    id: 'reference-key',
    name: 'API key',
    description: `Reads ${API_KEY_VAR} from the agent's environment`,
    vars: [{ name: API_KEY_VAR }],
  },
  { type: 'terminal', id: 'reference-terminal', name: 'Log in from a terminal', args: ['--login'] },
  {
    id: 'reference-device',
    name: 'Device login',
    _meta: { 'terminal-auth': { command: 'reference-agent', args: ['login', '--device'], label: 'Log in' } },
  },
  { id: 'reference-oauth', name: 'OAuth in a terminal', _meta: { type: 'terminal', args: ['--auth'] } },
];

/** What the agent says when it refuses to open a session until a sign-in (as Cline names its key). */
export const SIGN_IN_REFUSAL = `Not signed in: set ${API_KEY_VAR} in the agent's environment, or sign in`;

interface LiveSession {
  record: SessionRecord;
  turn: AbortController | null;
  /** The running turn (for `_session/steering`). */
  current?: Turn;
  /** Settles when the running turn ends (a queued prompt waits for it: `--prompt-queueing`). */
  idle?: Promise<void>;
}

function promptText(blocks: ContentBlock[]): string {
  return blocks
    .map((b) => {
      if (b.type === 'text') return b.text;
      if (b.type === 'resource_link') return `[${b.name}](${b.uri})`;
      if (b.type === 'resource') return `[${b.resource.uri}]`;
      return `[${b.type}]`;
    })
    .join('\n');
}

/** Whether the agent's `promptCapabilities` allow a prompt block (text and resource links always). */
function allowedInPrompt(block: ContentBlock, options: AgentOptions): boolean {
  const caps = options.promptCapabilities;
  if (block.type === 'image') return caps.image;
  if (block.type === 'audio') return caps.audio;
  if (block.type === 'resource') return caps.embeddedContext;
  return true;
}

/** Creates the agent app for one connection (one process over stdio). */
export function createReferenceAgent(options: AgentOptions, rawWriter: RawWriter): AgentApp {
  useUrlModeIds(options.urlModeIds);
  const store = new SessionStore(options.sessionsDir);
  const live = new Map<string, LiveSession>();
  let caps: ClientCapabilities = {};
  let authenticated = false;
  /** Under `--auth-required`, session/new, load and resume fail with -32000 until `authenticate`. */
  const requireSignIn = () => {
    if (options.authRequired && !authenticated)
      throw RequestError.authRequired({ authMethods: AUTH_METHODS }, SIGN_IN_REFUSAL);
  };

  const liveSession = (sessionId: string): LiveSession => {
    const session = live.get(sessionId);
    if (!session) throw RequestError.sessionNotFound(sessionId);
    return session;
  };
  const stored = (sessionId: string): SessionRecord => {
    const record = store.get(sessionId);
    if (!record) throw RequestError.sessionNotFound(sessionId);
    return record;
  };
  const attach = (record: SessionRecord): void => {
    // Under --exclusive-sessions, as the current codex-acp: one client at a time per session.
    if (options.exclusiveSessions && !store.hold(record.sessionId))
      throw new RequestError(
        -32600,
        'This session is in use by another client; close it there before opening it here',
        { reason: 'thread_active_writer' },
      );
    live.get(record.sessionId)?.turn?.abort();
    live.set(record.sessionId, { record, turn: null });
  };
  /**
   * A session response's state. Under `--models` the model is offered as Gemini CLI offers it: the
   * unstable `models` field (set with `session/set_model`), not a config option.
   */
  /** Under `--forget-mode`, a loaded or resumed session is back to the default mode and model (as Codex's). */
  const forget = (record: SessionRecord) => {
    if (!options.forgetMode) return;
    record.modeId = 'ask';
    record.model = 'fast';
    record.thinking = false;
    store.save(record);
  };
  const sessionState = (record: SessionRecord) =>
    options.models
      ? {
          modes: modeState(record),
          configOptions: configOptions(record, caps).filter((o) => o.id !== 'model'),
          models: {
            currentModelId: record.model,
            availableModels: MODELS.map((m) => ({
              modelId: m.value,
              name: m.name,
              description: m.description,
            })),
          },
        }
      : {
          modes: modeState(record),
          // Gemini CLI offers its modes as legacy modes only.
          configOptions: configOptions(record, caps).filter(
            (o) => !options.modeUpdateMarker || o.id !== 'mode',
          ),
        };
  const announceCommands = (client: AgentContext, sessionId: string) => {
    setTimeout(() => {
      void client
        .notify('session/update', {
          sessionId,
          update: { sessionUpdate: 'available_commands_update', availableCommands: COMMANDS },
        })
        .catch(() => {});
    }, 0);
  };

  let app = agent({ name: AGENT_INFO.name })
    .onRequest('initialize', async ({ params, client }) => {
      caps = params.clientCapabilities ?? {};
      if (options.logBeforeInit)
        await client.notify('_silo/agent_log', { message: 'hello before initialize' });
      if (options.holdInit) await heldUntilSignal();
      return {
        protocolVersion: options.protocolVersion ?? PROTOCOL_VERSION,
        ...(options.steering ? { _meta: { steering: { supported: true } } } : {}),
        agentCapabilities: {
          ...(options.promptQueueing ? { _meta: { claudeCode: { promptQueueing: true } } } : {}),
          loadSession: options.loadSession,
          promptCapabilities: options.promptCapabilities,
          mcpCapabilities: { http: false, sse: false },
          sessionCapabilities: {
            ...(options.fork ? { fork: {} } : {}),
            ...(options.list ? { list: {} } : {}),
            ...(options.resume ? { resume: {} } : {}),
            ...(options.close ? { close: {} } : {}),
            ...(options.delete ? { delete: {} } : {}),
          },
        },
        authMethods: options.authRequired ? (AUTH_METHODS as never) : [],
        // Silo knows Copilot CLI's usage by its name (its prompt response counts the whole process).
        agentInfo: options.usageShape === 'copilot' ? COPILOT_INFO : AGENT_INFO,
      };
    })
    .onRequest('authenticate', ({ params }) => {
      // As Cline's OAuth methods: the answer never comes.
      if (options.authHang && params.methodId === 'reference-login') return new Promise<never>(() => {});
      if (params.methodId === 'reference-key' && !process.env[API_KEY_VAR])
        throw RequestError.authRequired({ authMethods: AUTH_METHODS }, `${API_KEY_VAR} is not set`);
      if (params.methodId !== 'reference-login' && params.methodId !== 'reference-key') {
        throw RequestError.invalidParams({ methodId: params.methodId }, 'unknown auth method');
      }
      authenticated = true;
      return {};
    })
    .onRequest('session/new', ({ params, client }) => {
      requireSignIn();
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
      store.save(record);
      attach(record);
      announceCommands(client, record.sessionId);
      return { sessionId: record.sessionId, ...sessionState(record) };
    })
    .onRequest('session/prompt', async ({ params, client }) => {
      const session = liveSession(params.sessionId);
      const refused = params.prompt.find((b) => !allowedInPrompt(b, options));
      if (refused)
        throw RequestError.invalidParams({ type: refused.type }, `${refused.type} blocks are not accepted`);
      // Under --prompt-queueing a prompt during a turn runs once that turn has ended.
      while (session.idle && options.promptQueueing) await session.idle;
      if (session.turn || session.idle)
        throw RequestError.invalidRequest(undefined, 'a turn is already running in this session');
      let ended = () => {};
      const idle = new Promise<void>((resolve) => {
        ended = resolve;
      });
      session.idle = idle;
      const { record } = session;
      const text = promptText(params.prompt);
      // Open until the prompt is answered: a process that dies first leaves the turn open.
      const turnMark = { at: record.history.length, stopReason: OPEN_TURN };
      record.turns = [...(record.turns ?? []), turnMark];
      const userMessageId = `user-${randomUUID().slice(0, 8)}`;
      for (const block of params.prompt) {
        record.history.push({
          sessionUpdate: 'user_message_chunk',
          ...(options.messageId ? { messageId: userMessageId } : {}),
          content: block,
        });
      }
      store.save(record);
      if (options.echoPrompt) {
        for (const block of params.prompt) {
          await client.notify('session/update', {
            sessionId: record.sessionId,
            update: {
              sessionUpdate: 'user_message_chunk',
              content: block,
              ...(options.messageId ? { messageId: userMessageId } : {}),
            },
          });
        }
      }
      const picked = pickScenario(text);
      const controller = new AbortController();
      session.turn = controller;
      const turn = new Turn(
        record.sessionId,
        picked.args,
        picked.text,
        controller.signal,
        client,
        caps,
        options,
        record,
        rawWriter,
        params.prompt,
        () => {
          if (store.get(record.sessionId)) store.save(record);
        },
      );
      session.current = turn;
      await sendThreadStatus(options.threadStatus, client, record.sessionId, {
        type: 'active',
        activeFlags: [],
      });
      try {
        const played = scenario(picked.name);
        let stopReason: StopReason;
        if (played) stopReason = await played.run(turn);
        else {
          await turn.say(`Unknown scenario "${picked.name}". Send \`/scenario list\` to see them all.`);
          stopReason = turn.end();
        }
        turnMark.stopReason = stopReason;
        if (stopReason === 'cancelled' && options.interruptMarker) {
          record.history.push({
            sessionUpdate: 'user_message_chunk',
            ...(options.messageId ? { messageId: `user-${randomUUID().slice(0, 8)}` } : {}),
            content: { type: 'text', text: '[Request interrupted by user]' },
          });
        }
        // Each agent reports usage its own way (--usage-shape, agent/usage-shapes.ts).
        const shape = options.usageShape;
        if (!shape) return { stopReason };
        await duringTurn(shape, turn, text.length);
        return { stopReason, ...responseFields(shape, text.length) };
      } finally {
        void sendThreadStatus(options.threadStatus, client, record.sessionId, { type: 'idle' }).catch(
          () => {},
        );
        if (session.turn === controller) session.turn = null;
        if (session.current === turn) session.current = undefined;
        if (session.idle === idle) session.idle = undefined;
        ended();
        if (store.get(record.sessionId)) store.save(record);
      }
    })
    .onNotification('session/cancel', ({ params }) => {
      live.get(params.sessionId)?.turn?.abort();
    })
    .onRequest('session/set_mode', ({ params, client }) => {
      const { record } = liveSession(params.sessionId);
      setMode(record, params.modeId);
      store.save(record);
      const update = options.modeUpdateMarker
        ? modeAnnouncement(record.modeId, true)
        : { sessionUpdate: 'config_option_update', configOptions: configOptions(record, caps) };
      void client.notify('session/update', { sessionId: record.sessionId, update } as never).catch(() => {});
      return {};
    })
    .onRequest(
      'session/set_model',
      (params: unknown) => {
        const p = params as { sessionId?: unknown; modelId?: unknown } | null;
        if (typeof p?.sessionId !== 'string' || typeof p.modelId !== 'string')
          throw RequestError.invalidParams(params, 'sessionId and modelId are required');
        return { sessionId: p.sessionId, modelId: p.modelId };
      },
      ({ params }) => {
        const { record } = liveSession(params.sessionId);
        setConfigOption(record, 'model', params.modelId);
        store.save(record);
        return {};
      },
    )
    .onRequest('session/set_config_option', async ({ params, client }) => {
      const { record } = liveSession(params.sessionId);
      const before = record.modeId;
      setConfigOption(record, params.configId, params.value);
      store.save(record);
      if (record.modeId !== before) {
        const update = modeAnnouncement(record.modeId, options.modeUpdateMarker);
        await client.notify('session/update', { sessionId: record.sessionId, update } as never);
      }
      return { configOptions: configOptions(record, caps) };
    });

  if (options.fork) {
    app = app.onRequest(
      'session/fork',
      (params: unknown) => {
        const p = params as { sessionId?: unknown; cwd?: unknown } | null;
        if (typeof p?.sessionId !== 'string' || typeof p.cwd !== 'string')
          throw RequestError.invalidParams(params, 'sessionId and cwd are required');
        return { sessionId: p.sessionId, cwd: p.cwd };
      },
      async ({ params, client }) => {
        requireSignIn();
        // As claude-agent-acp and OpenCode do: the whole session is copied under a new id.
        const record: SessionRecord = {
          ...structuredClone(stored(params.sessionId)),
          sessionId: `ses-${randomUUID()}`,
          cwd: params.cwd,
        };
        store.save(record);
        attach(record);
        // OpenCode replays the fork's messages before it answers.
        if (options.forkReplay)
          for (const update of loadReplay(record, options))
            await client.notify('session/update', { sessionId: record.sessionId, update } as never);
        announceCommands(client, record.sessionId);
        return { sessionId: record.sessionId, ...sessionState(record) };
      },
    );
  }
  if (options.steering) {
    app = app.onRequest('_session/steering', parseSteer, ({ params }) => {
      const session = liveSession(params.sessionId);
      const turn = session.current;
      if (!turn || turn.signal.aborted) {
        if (params.promptRequired) return { outcome: 'promptRequired', reason: 'noRunningTurn' };
        throw RequestError.invalidRequest(undefined, 'no turn is running');
      }
      for (const block of params.prompt)
        session.record.history.push({ sessionUpdate: 'user_message_chunk', content: block });
      turn.steers.push(params.prompt);
      return { outcome: 'injected' };
    });
  }
  if (options.loadSession) {
    app = app.onRequest('session/load', async ({ params, client }) => {
      requireSignIn();
      const record = stored(params.sessionId);
      attach(record);
      forget(record);
      const replay = aroundReplay(
        withoutSubagentText(loadReplay(record, options), caps),
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
      if (options.commandsAfterLoad) announceCommands(client, record.sessionId);
      return sessionState(record);
    });
  }
  if (options.resume) {
    app = app.onRequest('session/resume', ({ params, client }) => {
      requireSignIn();
      const record = stored(params.sessionId);
      attach(record);
      forget(record);
      if (options.commandsAfterLoad) announceCommands(client, record.sessionId);
      return sessionState(record);
    });
  }
  if (options.list) {
    app = app.onRequest('session/list', ({ params }) => {
      let start = 0;
      if (params.cursor) {
        start = Number(Buffer.from(params.cursor, 'base64url').toString());
        if (!Number.isSafeInteger(start) || start < 0)
          throw RequestError.invalidParams({ cursor: params.cursor }, 'invalid cursor');
      }
      const all = store.all().filter((r) => !params.cwd || r.cwd === params.cwd);
      const page = all.slice(start, start + options.listPageSize);
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
    });
  }
  if (options.close) {
    app = app.onRequest('session/close', async ({ params }) => {
      const session = live.get(params.sessionId);
      if (!session) stored(params.sessionId);
      session?.turn?.abort();
      live.delete(params.sessionId);
      store.release(params.sessionId);
      if (options.closeDelayMs) await new Promise((r) => setTimeout(r, options.closeDelayMs));
      return {};
    });
  }
  if (options.delete) {
    app = app.onRequest('session/delete', ({ params }) => {
      live.get(params.sessionId)?.turn?.abort();
      live.delete(params.sessionId);
      store.delete(params.sessionId);
      return {};
    });
  }
  return app;
}
