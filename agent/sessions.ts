/**
 * What the reference agent keeps for one connection, shared by its request handlers (app.ts): what
 * the client said of itself (its capabilities, its sign-in), the session store, the sessions open on
 * this connection, and how a handler finds, opens and describes one of them.
 */
import { type AgentContext, type ClientCapabilities, RequestError } from '@agentclientprotocol/sdk';
import { configOptions, MODELS, modeState } from './config.ts';
import type { AgentOptions } from './options.ts';
import { COMMANDS } from './scenarios/tools.ts';
import { type SessionRecord, SessionStore } from './store.ts';
import type { Turn } from './turn.ts';

/** A session open on this connection. */
export interface LiveSession {
  record: SessionRecord;
  turn: AbortController | null;
  /** The running turn (for `_session/steering`). */
  current?: Turn;
  /** Settles when the running turn ends (a queued prompt waits for it: `--prompt-queueing`). */
  idle?: Promise<void>;
}

/** The sessions of one connection (one process over stdio), and the client's side of it. */
export class Sessions {
  readonly store: SessionStore;
  readonly live = new Map<string, LiveSession>();
  /** The client's capabilities, set by its `initialize`. */
  caps: ClientCapabilities = {};
  /** Set once `authenticate` succeeds (what `--auth-required` waits for). */
  authenticated = false;

  constructor(readonly options: AgentOptions) {
    this.store = new SessionStore(options.sessionsDir);
  }

  /** The session open here as `sessionId`; throws `sessionNotFound` when it is not open. */
  liveSession(sessionId: string): LiveSession {
    const session = this.live.get(sessionId);
    if (!session) throw RequestError.sessionNotFound(sessionId);
    return session;
  }

  /** The stored session `sessionId`; throws `sessionNotFound` when the store has none. */
  stored(sessionId: string): SessionRecord {
    const record = this.store.get(sessionId);
    if (!record) throw RequestError.sessionNotFound(sessionId);
    return record;
  }

  /**
   * Opens `record` on this connection, aborting the turn it had here. Under `--exclusive-sessions`
   * throws -32600 (`thread_active_writer`) when another process holds it.
   */
  attach(record: SessionRecord): void {
    // Under --exclusive-sessions, as the current codex-acp: one client at a time per session.
    if (this.options.exclusiveSessions && !this.store.hold(record.sessionId))
      throw new RequestError(
        -32600,
        'This session is in use by another client; close it there before opening it here',
        { reason: 'thread_active_writer' },
      );
    this.live.get(record.sessionId)?.turn?.abort();
    this.live.set(record.sessionId, { record, turn: null });
  }

  /** Under `--forget-mode`, a loaded or resumed session is back to the default mode and model (as Codex's). */
  forget(record: SessionRecord): void {
    if (!this.options.forgetMode) return;
    record.modeId = 'ask';
    record.model = 'fast';
    record.thinking = false;
    this.store.save(record);
  }

  /**
   * A session response's state. Under `--models` the model is offered as Gemini CLI offers it: the
   * unstable `models` field (set with `session/set_model`), not a config option.
   */
  sessionState(record: SessionRecord) {
    const { options, caps } = this;
    return options.models
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
  }

  /** Sends the session's `available_commands_update` in a later task (after the response); never fails. */
  announceCommands(client: AgentContext, sessionId: string): void {
    setTimeout(() => {
      void client
        .notify('session/update', {
          sessionId,
          update: { sessionUpdate: 'available_commands_update', availableCommands: COMMANDS },
        })
        .catch(() => {});
    }, 0);
  }
}
