/**
 * The page↔worker contract: one interface the worker implements (`expose(impl satisfies WorkerApi)`)
 * and the page wraps (`wrap<WorkerApi>()`). Everything crossing it is structured-cloneable data,
 * except the {@link WorkerEvents} object, which crosses as a `Comlink.proxy`, and the JSONL export's
 * stream, which is transferred.
 */
import type {
  AgentClearResult,
  AgentElicitationAnswer,
  AgentElicitationRequest,
  AgentJournalAccess,
  AgentPermissionRequest,
  AgentSessionListOptions,
} from './api.ts';
import type {
  AgentBridgeOptions,
  AgentContentBlock,
  AgentRequestResolution,
  AgentSessionFork,
  AgentSessionRestore,
  AgentSessionSnapshot,
  AgentSessionSummary,
  AgentSessionUpdate,
  McpServer,
} from './types.ts';

/** `connect` options as they cross to the worker (callbacks stay on the page). */
export interface WorkerConnectOptions {
  readonly bridge: AgentBridgeOptions;
  readonly cwd: string;
  readonly mcpServers?: readonly McpServer[];
  readonly resume?: AgentSessionRestore;
  readonly fork?: AgentSessionFork;
  /** An auth method id to sign in with after `initialize` (see `AgentSessionConnectOptions`). */
  readonly authenticate?: string;
  /** How long `authenticate` may take (see `AgentsServiceOptions.signInTimeoutMs`). */
  readonly signInTimeoutMs?: number;
  /** Whether the page registered `onPermission` / `onElicitation` (without one, requests fail closed). */
  readonly handlesPermissions: boolean;
  readonly handlesElicitations: boolean;
}

/**
 * A live permission request as data: {@link AgentPermissionRequest} without what the page adds to it
 * (its signal, its resolution and its answers).
 */
export type PermissionWire = Omit<AgentPermissionRequest, 'signal' | 'resolution' | 'choose' | 'cancel'>;

/**
 * A live question as data: {@link AgentElicitationRequest} without what the page adds to it (its
 * signal, its resolution, its completion and its answers).
 */
export type ElicitationWire = Omit<
  AgentElicitationRequest,
  'signal' | 'resolution' | 'completion' | 'answer' | 'decline' | 'cancel'
>;

/** What the worker tells the page about one handle. Calls are awaited, so they arrive in order. */
/**
 * A snapshot as it crosses to the page. `revision` grows with every snapshot the worker takes: the
 * events and `connect`'s answer travel on different message ports, so an older snapshot can arrive
 * after a newer one, and the page keeps the one with the highest revision.
 */
export interface WireSnapshot {
  readonly snapshot: AgentSessionSnapshot;
  readonly revision: number;
}

export interface WorkerEvents {
  /** Committed updates (at once while sparse, batched during floods) and the state after them. */
  updates(batch: AgentSessionUpdate[], snapshot: WireSnapshot): void;
  /** The state changed without new updates (connection state, busy, options). */
  state(snapshot: WireSnapshot): void;
  permission(request: PermissionWire): void;
  elicitation(request: ElicitationWire): void;
  /** A live request ended: answered, withdrawn or no longer answerable; `resolution` is how it ended. */
  requestEnded(id: string, resolution: AgentRequestResolution): void;
}

/** How a question was answered. */
export type ElicitationAction =
  | { readonly action: 'accept'; readonly answers: Readonly<Record<string, AgentElicitationAnswer>> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** The worker's API. Every method rejects with a serialized SiloError on failure. */
export interface WorkerApi extends Omit<AgentJournalAccess, 'clear' | 'exportJsonl' | 'exportJsonlStream'> {
  /**
   * The export's stream, transferred to the page (worker/export-stream.ts): as
   * {@link AgentJournalAccess.exportJsonlStream}, except that it errors with a serialized SiloError (a
   * plain object: an `Error`'s code would not cross); the page wraps it (src/export-relay.ts).
   * `exportJsonl` is built on it in the page.
   */
  exportJsonlStream(sessionId: string): Promise<ReadableStream<string>>;
  /** As {@link AgentJournalAccess.clear}, with a connection string already parsed. */
  clear(sessionId: string, options?: { readonly bridge?: AgentBridgeOptions }): Promise<AgentClearResult>;
  /**
   * Takes the Web Lock `name` and holds it until the worker dies; resolves once it is held. The page
   * queues for the same lock to learn that the worker has gone (see `watchWorker`).
   */
  holdLifeLock(name: string): Promise<void>;
  /** Opens the journal (idempotent). */
  init(options: { readonly databaseName: string }): Promise<void>;
  /** Connects and starts or restores a session; resolves to the handle id and the first snapshot. */
  connect(
    options: WorkerConnectOptions,
    events: WorkerEvents,
  ): Promise<{ handleId: string; snapshot: WireSnapshot }>;
  prompt(handleId: string, prompt: readonly AgentContentBlock[]): Promise<string>;
  steer(handleId: string, prompt: readonly AgentContentBlock[]): Promise<'steered' | 'ended'>;
  cancel(handleId: string): Promise<void>;
  setConfigOption(handleId: string, configId: string, value: string | boolean): Promise<void>;
  answerPermission(handleId: string, requestId: string, optionId: string | null): Promise<void>;
  answerElicitation(handleId: string, requestId: string, action: ElicitationAction): Promise<void>;
  /**
   * Makes the handle's tab the session's driver (see `AgentSessionHandle.takeOver`); resolves to the
   * snapshot after it (the page has it before its events, which travel on another port).
   */
  takeOver(handleId: string): Promise<WireSnapshot>;
  close(handleId: string): Promise<void>;
  /** As {@link AgentSessionListOptions}, with a connection string already parsed. */
  sessions(
    options?: Omit<AgentSessionListOptions, 'bridge'> & { readonly bridge?: AgentBridgeOptions },
  ): Promise<AgentSessionSummary[]>;
}
