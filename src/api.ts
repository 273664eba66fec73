/**
 * The page API's interfaces: what `createAgentsService()` returns and what `connect()` resolves to.
 * Implementations live in `src/service.ts` (page side) and `worker/` (everything that speaks ACP).
 */
import type { SiloError, SiloErrorCode } from './errors.ts';
import type { AgentElicitationRequest, AgentPermissionRequest } from './live-requests.ts';
import type {
  AgentBridgeOptions,
  AgentCommand,
  AgentConnectionState,
  AgentContentBlock,
  AgentInfo,
  AgentRestoreNote,
  AgentResumeOutcome,
  AgentSessionConfigOption,
  AgentSessionFork,
  AgentSessionRestore,
  AgentSessionRole,
  AgentSessionSnapshot,
  AgentSessionSummary,
  AgentSessionUpdate,
  AgentSessionUsage,
  McpServer,
} from './types.ts';

export type {
  AgentElicitationAnswer,
  AgentElicitationRequest,
  AgentPermissionRequest,
} from './live-requests.ts';

/** Options for {@link AgentsService.connect}. */
export interface AgentSessionConnectOptions {
  /**
   * The bridge: the one connection string `silo-bridge` prints (`ws://127.0.0.1:PORT/#token=…`), or
   * its URL and token apart. A string that is not a connection string rejects with `invalid-params`.
   */
  readonly bridge: AgentBridgeOptions | string;
  /** The session's working directory (absolute path on the bridge's machine). */
  readonly cwd: string;
  readonly mcpServers?: readonly McpServer[];
  /**
   * Restore an earlier session instead of starting a new one. While this page is still closing that
   * session (a handle's `close()` not awaited, in this service or another), the connect waits for
   * the close first, so this page drives the session instead of following itself.
   */
  readonly resume?: AgentSessionRestore;
  /**
   * Branch a journaled session instead ("Branch from here"): a new session that carries its journal
   * up to the end of turn `atTurn`. When that is the session's last turn and the agent offers
   * `session/fork`, the agent forks it with its context; otherwise it is a new session that carries
   * the journal, and the agent starts it without that history (`restoreNote: 'history-not-in-agent'`).
   * `resumeOutcome` is `forked`. Rejects `invalid-params` when the journal holds no such ended turn;
   * the source session is never changed. Not with `resume`.
   */
  readonly fork?: AgentSessionFork;
  /**
   * Sign in before the session opens: the `id` of a usable method from an `auth-required` error's
   * `data.authMethods`. Silo sends ACP `authenticate` right after `initialize`, and again on every
   * reconnect (a new agent process). A refused sign-in rejects with `auth-required`.
   */
  readonly authenticate?: string;
  /** Called for every live update, in journal order, after it is committed. */
  readonly onUpdate?: (update: AgentSessionUpdate) => void;
  /** Called for each permission request; with no handler requests are answered `cancelled` (fail closed). */
  readonly onPermission?: (request: AgentPermissionRequest) => void;
  /** Called for each question; with no handler questions are answered `cancel`. */
  readonly onElicitation?: (request: AgentElicitationRequest) => void;
  /** Called whenever the connection state or mirrored session state changes. */
  readonly onStateChange?: (snapshot: AgentSessionSnapshot) => void;
}

/**
 * A connected (or journal-only) session. State getters mirror the worker and are current as of the
 * last delivered batch of updates.
 */
export interface AgentSessionHandle {
  readonly sessionId: string;
  readonly resumeOutcome: AgentResumeOutcome;
  /** What the last restore left undone, if anything (docs/restore.md). */
  readonly restoreNote: AgentRestoreNote | undefined;
  readonly agentInfo: AgentInfo;
  readonly configOptions: readonly AgentSessionConfigOption[];
  readonly availableCommands: readonly AgentCommand[];
  readonly usage: AgentSessionUsage | undefined;
  readonly state: AgentConnectionState;
  /**
   * Whether this tab drives the session or follows another tab that does (one writer per session,
   * docs/restore.md). A handle that restores a session another tab drives starts as a `follower`:
   * it mirrors that tab live (updates, state, permission requests and questions) and cannot prompt.
   */
  readonly role: AgentSessionRole;
  readonly snapshot: AgentSessionSnapshot;
  /**
   * Sends a prompt and resolves to the stop reason once every update of the turn is journaled.
   * While a turn runs, an agent that queues prompts (`snapshot.midTurn.queue`) gets it at once and
   * runs it after that turn (`snapshot.queuedPrompts` counts them; it is journaled when its turn
   * begins); any other agent's rejects with `invalid-params`. Rejects with `journal-only` on a
   * journal-only session, `not-owner` while this tab follows another ({@link takeOver} first),
   * `interrupted` when the connection drops mid-turn, `closed` after
   * {@link close}.
   */
  prompt(input: string | readonly AgentContentBlock[]): Promise<string>;
  /**
   * Sends a message into the running turn, where the agent offers that (`snapshot.midTurn.steer`):
   * resolves `'steered'` once the agent took it (it is journaled with `steered: true` and starts no
   * turn of its own; the turn's `prompt()` ends as usual), or `'ended'` when no turn runs any more
   * (nothing was sent: send it with {@link prompt}). Rejects with `invalid-params` when the agent
   * takes no such message, with the agent's coded error when it refuses, and as {@link prompt} does
   * when nothing can be sent.
   */
  steer(input: string | readonly AgentContentBlock[]): Promise<'steered' | 'ended'>;
  /**
   * "Branch from here": connects a new session, with this handle's options, that carries this
   * session's journal up to the end of turn `atTurn` (a `TurnEndRow.turn`; default: the last turn
   * that ended). This session stays as it is and stays connected. The same as `connect()` with
   * {@link AgentSessionConnectOptions.fork}, which says what the agent keeps of the history
   * (`resumeOutcome` `forked`, `restoreNote` `history-not-in-agent` when it starts without it).
   * Rejects `invalid-params` when no such turn ended, and as `connect()` does.
   */
  fork(options?: { readonly atTurn?: number }): Promise<AgentSessionHandle>;
  /**
   * Cancels the running turn: pending permission requests and questions are answered cancelled. In a
   * follower it asks the driving tab to stop its turn.
   */
  cancel(): Promise<void>;
  /**
   * Makes this tab the session's driver. A follower asks the driving tab to hand the session over:
   * that tab stops its running turn (cancelled, as {@link cancel} does), ends its connection and
   * follows from then on, with `role` `follower`. This tab then restores the session on a connection
   * of its own (resume or load, docs/restore.md). With no driving tab (it closed: `driverPresent` is
   * false) this tab takes the session at once.
   *
   * Resolves once this tab drives the session and the restore is done (`state` `connected`, or
   * `reconnecting` while the bridge cannot be reached, which goes on as any reconnect does); at once
   * for a driver. Rejects with `not-owner` when the driving tab did not hand over within 15 s (it
   * hangs), `closed` once the handle is closed.
   *
   * @example
   * ```ts
   * if (session.role === 'follower') await session.takeOver();
   * await session.prompt('Now from this tab');
   * ```
   */
  takeOver(): Promise<void>;
  /** Sets a config option (or a legacy mode); resolves once the agent accepted it. */
  setConfigOption(id: string, value: string | boolean): Promise<void>;
  /** The journaled updates of this session, in order. */
  transcript(): Promise<AgentSessionUpdate[]>;
  /**
   * The end of this session's journal: at least the last `count` updates (whole journal segments),
   * read from the end, so the last screen of a long session paints without reading it all (as
   * {@link AgentsService.transcriptTail}). Rejects like {@link transcript} once the worker is gone.
   */
  transcriptTail(count: number): Promise<AgentSessionUpdate[]>;
  /**
   * Listens to batches of live updates: each commit as it lands while the stream is sparse, batched
   * (a few batches per animation frame at most) during floods. Returns an unsubscribe.
   */
  subscribe(
    listener: (updates: readonly AgentSessionUpdate[], snapshot: AgentSessionSnapshot) => void,
  ): () => void;
  /** Closes the connection (the journal stays). Pending calls reject with `closed`. */
  close(): Promise<void>;
  /** Resolves when the handle is closed, for whatever reason. */
  readonly closed: Promise<void>;
}

/** Options for `createAgentsService()`. */
export interface AgentsServiceOptions {
  /** A worker running `silo-acp/worker`; by default the package's own worker entry is started. */
  readonly worker?: Worker;
  /** IndexedDB database name (default `"silo"`). */
  readonly databaseName?: string;
  /**
   * How long a sign-in (ACP `authenticate`, see {@link AgentSessionConnectOptions.authenticate}) may
   * take before `connect()` rejects with `auth-required` saying the agent never answered (default
   * 120 000 ms: an OAuth flow the agent starts on its machine may wait for a browser that never
   * comes back). The agent is then stopped, and the page can retry or pick another method.
   */
  readonly signInTimeoutMs?: number;
}

/** Options for listing sessions ({@link AgentsService.sessions}). */
export interface AgentSessionListOptions {
  /** The bridge to ask for the agent's own session list: a connection string, or URL and token. */
  readonly bridge?: AgentBridgeOptions | string;
  readonly cwd?: string;
  /**
   * Only the sessions whose title, or what the user and the agent wrote in them, contains this text
   * (plain text, case-insensitive; the agent's own sessions, which are not journaled, by title only).
   * Blank: every session.
   */
  readonly query?: string;
}

/** Options of {@link AgentJournalAccess.clear}. */
export interface AgentClearOptions {
  /**
   * A bridge to the session's agent: given, Silo also asks the agent to delete its own copy
   * (`session/delete`) when the agent offers that. A connection string, or URL and token.
   */
  readonly bridge?: AgentBridgeOptions | string;
}

/**
 * What {@link AgentJournalAccess.clear} did beside deleting the journal, to the agent's copy of the
 * session:
 * - `deleted` — the agent deleted it (`session/delete` answered);
 * - `not-offered` — the agent offers no `session/delete`: it keeps its copy (its own session list
 *   may still show it);
 * - `not-asked` — no bridge was given, so the agent was not asked;
 * - `failed` — the bridge could not be reached or the agent refused; `error` says why. The journal
 *   is deleted all the same.
 */
export interface AgentClearResult {
  readonly agentCopy: 'deleted' | 'not-offered' | 'not-asked' | 'failed';
  readonly error?: { readonly code: SiloErrorCode; readonly message: string };
}

/**
 * The journal's reads and its only deletion, which need no connection. The page API
 * ({@link AgentsService}) and the worker's contract (`WorkerApi`) both offer exactly these.
 */
export interface AgentJournalAccess {
  /** The journaled transcript of a session, with no bridge and no agent. */
  transcript(sessionId: string): Promise<AgentSessionUpdate[]>;
  /**
   * The end of a journaled transcript: at least the last `count` updates (whole journal segments),
   * read from the end, so the last screen of a huge transcript can be painted without reading it all.
   */
  transcriptTail(sessionId: string, count: number): Promise<AgentSessionUpdate[]>;
  /**
   * Deletes a session from the history, with its whole journal (the only way a journal is ever
   * deleted); with `options.bridge`, also the agent's copy when the agent offers `session/delete`.
   * Resolves once the journal is gone (a session that is not there resolves too), saying what became
   * of the agent's copy; rejects (`journal-write`, `invalid-params` for a bad connection string) only
   * when the journal could not be deleted.
   */
  clear(sessionId: string, options?: AgentClearOptions): Promise<AgentClearResult>;
  /**
   * Renames a session: the title (trimmed, at most 200 characters) wins over the agent's
   * `session_info_update` and the first prompt's from then on, in the history and in the snapshot of
   * the session's open handles in this page; a blank title takes the user's away again. Resolves to the
   * title the session shows now; rejects with `session-not-found` when the journal holds no such session.
   */
  rename(sessionId: string, title: string | undefined): Promise<string | undefined>;
  /**
   * Exports a session's journal as JSONL, streamed: a header line naming its agent, its id and the
   * title the user gave it (`{"kind":"silo_export",…}`, see `silo-acp/export`), then one
   * AgentSessionUpdate a line, as the journal holds them. The worker reads the journal a few segments
   * at a time as the stream is read (a chunk or two ahead), so neither the whole journal nor the
   * whole text is ever held in memory; each chunk is whole lines. Updates journaled after it resolved
   * are not in it (export again for them).
   *
   * Resolves once the worker has found the session, before any update is read; rejects with
   * `session-not-found` when the journal holds no such session, and as every call does when the
   * journal cannot open or the worker is gone. Errors met while the stream is read make its `read()`
   * reject with a {@link SiloError}: `session-not-found` when the session's journal goes away meanwhile
   * (deleted, or continued in another session), `internal` when IndexedDB fails a read (`data.updates`:
   * how many updates came before), `closed` when the worker stops. Cancel it to stop reading.
   *
   * Needs transferable streams (Chromium, Firefox). To save it as a file without making one string:
   *
   * @example
   * ```ts
   * const stream = await service.exportJsonlStream(sessionId);
   * const blob = await new Response(stream.pipeThrough(new TextEncoderStream())).blob();
   * ```
   */
  exportJsonlStream(sessionId: string): Promise<ReadableStream<string>>;
  /**
   * The same JSONL export as {@link exportJsonlStream}, as one string: the whole text in the page's
   * memory at once (some 400 characters an update). For a large session prefer the stream. Rejects as {@link exportJsonlStream} does, and with
   * the error its stream met.
   */
  exportJsonl(sessionId: string): Promise<string>;
  /**
   * Imports a JSONL export into the journal under a new (or given) session id; resolves to that id.
   * An export of a session the journal holds already (the one it was exported from, or an earlier
   * import of it) adds nothing and resolves to that session's id.
   */
  importJsonl(jsonl: string, sessionId?: string): Promise<string>;
}

/** The entry point of the page API. */
export interface AgentsService extends AgentJournalAccess {
  /** Connects to an agent through the bridge and starts (or restores) a session. */
  connect(options: AgentSessionConnectOptions): Promise<AgentSessionHandle>;
  /**
   * The journaled sessions, newest first; readable offline. With `query`, only those that match it;
   * with `bridge`, the agent's own sessions the journal does not hold follow (`loadable`).
   */
  sessions(options?: AgentSessionListOptions): Promise<AgentSessionSummary[]>;
  /** Ends the worker. Every handle closes. */
  dispose(): Promise<void>;
}
