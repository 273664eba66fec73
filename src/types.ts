/**
 * The public data types of Silo's page API about sessions: connect and restore options and outcomes,
 * the agent's information, sign-in methods, config options and commands, and the session snapshot a
 * handle mirrors. The updates a session sends, and what they carry, are in `session-update.ts`; this
 * module re-exports them, so that it stays the one place the page API's data types are imported from.
 * Names and field meanings follow the specification of the public surface (AgentSessionRestore,
 * AgentSessionSnapshot).
 * Everything here is plain, structured-cloneable data: it crosses the worker boundary and is
 * written to IndexedDB as it is.
 * @packageDocumentation
 */
import type { McpServer, PermissionOption } from '@agentclientprotocol/sdk';
import type { SiloErrorCode } from './errors.ts';
import type { AgentSessionUsage, AgentTokenCounts } from './session-update.ts';

export type * from './session-update.ts';

/** A restore target for {@link AgentSessionConnectOptions.resume}. */
export interface AgentSessionRestore {
  sessionId: string;
  startFresh?: boolean;
  transcript?: 'carry' | 'discard';
  /**
   * The method to try first. By default Silo picks `session/resume` for a journal that holds the
   * whole session and `session/load` for one that is empty or ends inside a turn (docs/restore.md).
   * `'load'` asks the agent to replay the session even when the journal looks complete (another
   * device may have continued it); the replay is merged, never appended twice. When the agent lacks
   * the method asked for, the other one is tried; the outcome says which one worked.
   */
  via?: 'resume' | 'load';
}

/**
 * A branch for {@link AgentSessionConnectOptions.fork}: a new session that carries the journal of
 * `sessionId` up to the end of its turn `atTurn` ("Branch from here"). The source stays as it is.
 */
export interface AgentSessionFork {
  sessionId: string;
  /**
   * The turn to branch after: a turn number of the transcript model (`TurnEndRow.turn`), of a turn
   * that ended. Default: the last turn that ended.
   */
  atTurn?: number;
}

/**
 * What a connect did: a new session, an agent-side resume or load, a read-only journal, or a branch
 * of another session (`forked`: see {@link AgentSessionFork}).
 */
export type AgentResumeOutcome = 'new' | 'resumed' | 'loaded' | 'journal-only' | 'forked';

/**
 * What a restore could not do, beside its outcome:
 * - `history-in-agent` — resumed, but the journal here is empty and the agent cannot replay the
 *   session: the conversation goes on, its earlier history lives only in the agent.
 * - `replay-not-merged` — loaded into a journal that holds the session, but Silo could not tell
 *   which part of the replay the journal lacks, so none of it was added (nothing is shown twice).
 * - `options-reapplied` — the agent came back with other values than the mode or options the user
 *   last chose in this session (Codex restores its defaults); Silo set the user's choices again.
 * - `held-elsewhere` — journal-only because the agent refused to restore the session while another
 *   client (another browser, an editor) has it open (codex-acp: -32600 `thread_active_writer`);
 *   closing it there and connecting again restores it.
 * - `history-not-in-agent` — a branch ({@link AgentSessionFork}) whose journal carries the
 *   conversation up to its turn, but the agent started it without that history: ACP forks only a
 *   whole session, so a branch from an earlier turn (or of an agent without `session/fork`) is a new
 *   session.
 */
export type AgentRestoreNote =
  | 'history-in-agent'
  | 'replay-not-merged'
  | 'options-reapplied'
  | 'held-elsewhere'
  | 'history-not-in-agent';

/** Information about the connected agent. `title` is the session's title and follows `session_info_update`. */
export interface AgentInfo {
  readonly name: string;
  readonly version?: string;
  /** The agent's own display name (`agentInfo.title` from `initialize`). */
  readonly displayName?: string;
  /** The session title, following `session_info_update` (null clears it). */
  readonly title?: string;
}

/**
 * One way to sign in to an agent, from its `initialize` answer. An `auth-required` error lists them
 * in `data.authMethods`; pass one's `id` as `authenticate` to `connect()`.
 */
export interface AgentAuthMethod {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  /**
   * `agent`: the agent signs in itself (it may open a browser on its machine); `env_var`: the agent
   * reads a key from its own environment (set it where the bridge starts the agent); `terminal`: the
   * agent needs an interactive terminal, which a web page cannot offer. Other types may appear.
   */
  readonly type: string;
  /** Whether a page can sign in with it through `authenticate` (never for `terminal`). */
  readonly usable: boolean;
  /** `env_var` methods: the variables the agent reads. */
  readonly vars?: readonly string[];
  /**
   * `terminal` methods: what to run in a terminal on the agent's machine before trying again — the
   * `command` when the agent names one (`_meta["terminal-auth"]`, Copilot CLI), else the agent's own
   * command with `args` added (ACP `type: "terminal"`, or `_meta.type: "terminal"` as Qwen Code sends).
   */
  readonly terminal?: { readonly command?: string; readonly args: readonly string[] };
}

/** A session configuration option (ACP config options, with legacy modes surfaced the same way). */
export interface AgentSessionConfigOption {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly category?: string;
  readonly type: 'select' | 'boolean';
  readonly currentValue: string | boolean;
  readonly options?: readonly {
    readonly value: string;
    readonly name: string;
    readonly description?: string;
    readonly group?: string;
  }[];
  /**
   * `"mode"` when this option is the agent's legacy mode list (`session/set_mode`); `"model"` when
   * it is the unstable `models` list of a session response (`session/set_model`, Gemini CLI).
   */
  readonly source: 'config' | 'mode' | 'model';
}

/** One slash command the agent offers. */
export interface AgentCommand {
  readonly name: string;
  readonly description: string;
  readonly hint?: string;
}

/** The state of a session's connection, observable from the page. */
export type AgentConnectionState =
  | 'connecting'
  | 'connected'
  | 'reconnecting'
  | 'read-only'
  /**
   * Another tab drives this session (or did, until it closed): this handle mirrors it live, read-only,
   * until it {@link AgentSessionHandle.takeOver takes over}. Exactly while `role` is `follower`.
   */
  | 'following'
  | 'closed'
  | 'failed';

/**
 * Which tab writes a session: one writer per session across the tabs of a browser (docs/restore.md).
 * - `driver`: this handle's tab holds the session's Web Lock; it talks to the agent and journals.
 * - `follower`: another tab drives the session; this handle mirrors what it journals, live, and shows
 *   its permission requests and questions (answering routes the answer to the driving tab). It cannot
 *   prompt (`not-owner`) until it {@link AgentSessionHandle.takeOver takes over}.
 */
export type AgentSessionRole = 'driver' | 'follower';

/** Where the bridge is: its `ws://` URL and the per-launch token it printed. */
export interface AgentBridgeOptions {
  readonly url: string;
  readonly token: string;
}

/** The content blocks an agent accepts in a prompt besides text and resource links (ACP `promptCapabilities`). */
export interface AgentPromptCapabilities {
  /** `image` blocks (base64 data and a MIME type). */
  readonly image: boolean;
  /** `audio` blocks. */
  readonly audio: boolean;
  /** `resource` blocks: a file's contents embedded as text or a base64 blob. */
  readonly embeddedContext: boolean;
}

/**
 * What the agent takes while a turn runs (from its `initialize` answer): `steer` — a message into
 * the running turn ({@link AgentSessionHandle.steer}, the agent's `_session/steering`); `queue` — a
 * prompt it runs after the running turn ({@link AgentSessionHandle.prompt} during a turn; Claude's
 * `promptQueueing`).
 */
export interface AgentMidTurn {
  readonly steer: boolean;
  readonly queue: boolean;
}

/**
 * What the agent says its session is doing, where it says so (codex-acp 2.6's
 * `session_info_update._meta.codex.threadStatus`): `status` is its word (`idle`, `active`,
 * `systemError`, `notLoaded`, or another); `waitingOn` what an active session waits for: `approval`
 * (a permission) or `input` (an answer to a question).
 */
export interface AgentActivity {
  readonly status: string;
  readonly waitingOn?: readonly ('approval' | 'input')[];
}

/** The session state a handle mirrors; sent with every batch of updates. */
export interface AgentSessionSnapshot {
  readonly sessionId: string;
  readonly resumeOutcome: AgentResumeOutcome;
  /** Set when the last restore left something undone (see {@link AgentRestoreNote}). */
  readonly restoreNote?: AgentRestoreNote;
  readonly state: AgentConnectionState;
  /** Whether this tab drives the session or follows another tab that does ({@link AgentSessionRole}). */
  readonly role: AgentSessionRole;
  /**
   * Followers only: `true` while another tab drives the session, `false` from the moment that tab
   * closed (or reloads) until a tab drives it again. Nobody talks to the agent meanwhile;
   * {@link AgentSessionHandle.takeOver} makes this tab the driver. Absent for a driver.
   */
  readonly driverPresent?: boolean;
  readonly agentInfo: AgentInfo;
  readonly configOptions: readonly AgentSessionConfigOption[];
  readonly availableCommands: readonly AgentCommand[];
  /** The context meter and the latest cost (`usage_update`). */
  readonly usage?: AgentSessionUsage;
  /** The session's tokens: the sum of its turns' (each turn's is on its `turn_end`). */
  readonly tokens?: AgentTokenCounts;
  /** True while a prompt turn is running (in a follower: in the driving tab). */
  readonly busy: boolean;
  /** What the agent last said its session is doing (Codex), absent when it never says. */
  readonly activity?: AgentActivity;
  /** True when the agent can branch a session with its context (`sessionCapabilities.fork`). */
  readonly canFork?: boolean;
  /** What the agent takes while a turn runs; absent when it takes nothing (or Silo has not asked it). */
  readonly midTurn?: AgentMidTurn;
  /** Prompts sent during the running turn that the agent holds behind it (`midTurn.queue`). */
  readonly queuedPrompts?: number;
  /**
   * What the agent accepts in a prompt besides text and resource links (its `initialize`
   * `promptCapabilities`); absent until Silo has talked to the agent (a journal-only session).
   */
  readonly promptCapabilities?: AgentPromptCapabilities;
  /** The coded error behind a `failed`, `reconnecting` or `read-only` state. */
  readonly error?: { readonly code: SiloErrorCode; readonly message: string };
}

/** A journaled session, for a history list (readable offline). */
export interface AgentSessionSummary {
  readonly sessionId: string;
  /**
   * The title the user gave it (`AgentsService.rename`), else the agent's (`session_info_update`),
   * else its first prompt's (without protocol noise; a slash command without its slash).
   */
  readonly title?: string;
  /** True when {@link title} is one the user gave (`AgentsService.rename`). */
  readonly renamed?: boolean;
  readonly agent?: string;
  readonly cwd?: string;
  readonly createdAt?: string;
  readonly updatedAt?: string;
  readonly lastOutcome?: AgentResumeOutcome;
  readonly continuedBy?: string;
  /** Updates in the journal. */
  readonly updateCount?: number;
  /** True for a session the agent lists but the journal does not hold: `session/load` can fetch it. */
  readonly loadable?: boolean;
  /** The session this one branched from, and after which of its turns. */
  readonly forkedFrom?: { readonly sessionId: string; readonly turn: number };
}

export type { McpServer, PermissionOption };
