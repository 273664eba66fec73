/**
 * The session of `<silo-chat>` as a Lit reactive controller: connecting (restore, new, continue,
 * load, sign-in), the live handle and its snapshot, the open permission requests and questions, the
 * element's own service, and the last session of each `cwd` kept in `localStorage`.
 * @packageDocumentation
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import {
  type AgentBridgeOptions,
  type AgentElicitationRequest,
  type AgentPermissionRequest,
  type AgentSessionConnectOptions,
  type AgentSessionFork,
  type AgentSessionHandle,
  type AgentSessionSnapshot,
  type AgentsService,
  createAgentsService,
  SiloError,
} from '../../src/index.ts';
import type { SiloChatStrings } from '../shared/strings/chat.ts';
import type { ChatPhase, PageDriver } from './banners.ts';

/**
 * The sessions the chats of this page hold, each with its chat: a chat that follows a session
 * another chat of this same page drives says so (not "another tab"), and is asked to render again
 * when a chat of the page connects, closes, or changes role.
 */
const pageChats = new Map<AgentSessionHandle, ReactiveControllerHost>();
const pageChanged = () => {
  for (const host of pageChats.values()) host.requestUpdate();
};
/**
 * The sessions whose driving chat of this page let them go (it was removed, or connected to another
 * session), until a driver shows up again: a chat that followed it says that chat went, not that a
 * tab closed.
 */
const pageDriversGone = new Set<string>();

/** Options of {@link ChatSessionController.connect} (and `<silo-chat>`'s `connect`). */
export interface ChatConnectOptions {
  fresh?: boolean;
  /** Branch the session (a turn's "Branch from here"): see `AgentSessionConnectOptions.fork`. */
  fork?: AgentSessionFork;
  continueFrom?: string;
  sessionId?: string;
  via?: 'resume' | 'load';
  authenticate?: string;
}

/** What the session needs from its element. */
export interface ChatSessionConfig {
  /** The bridge to connect to, or undefined when it is not set. */
  bridge(): AgentBridgeOptions | string | undefined;
  cwd(): string | undefined;
  /** A service given to the element, if any (else the controller starts its own). */
  service(): AgentsService | undefined;
  storageKey(): string;
  /** A connect starts: the element clears its last error. */
  connecting(): void;
  /** A connect failed (phase is `failed`). */
  failed(error: unknown): void;
  /** A session is connected. */
  connected(handle: AgentSessionHandle): void;
}

/**
 * Holds at most one open session. Each {@link connect} supersedes the one before: a late result of an
 * earlier attempt is closed, never shown. Removing the element closes the session and disposes of the
 * controller's own service (not one given to the element).
 */
export class ChatSessionController implements ReactiveController {
  handle: AgentSessionHandle | undefined;
  snapshot: AgentSessionSnapshot | undefined;
  phase: ChatPhase = 'idle';
  permissionRequests: readonly AgentPermissionRequest[] = [];
  elicitationRequests: readonly AgentElicitationRequest[] = [];
  #ownService: AgentsService | undefined;
  #attempt = 0;
  /** The sign-in method chosen in the banner, used for every later connect. */
  #signIn: string | undefined;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly cfg: ChatSessionConfig,
  ) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.#attempt++;
    void this.close().then(() => {
      const own = this.#ownService;
      this.#ownService = undefined;
      if (own && !this.host.isConnected) void own.dispose();
    });
  }

  #set(patch: Partial<Pick<ChatSessionController, 'handle' | 'snapshot' | 'phase'>>): void {
    Object.assign(this, patch);
    this.host.requestUpdate();
  }

  /** The service in use: the element's `service`, else the controller's own (started on first use). */
  service(): AgentsService {
    const given = this.cfg.service();
    if (given) return given;
    this.#ownService ??= createAgentsService();
    return this.#ownService;
  }

  /** The service to read journals through while offline (none is started for it). */
  serviceIfAny(): AgentsService | undefined {
    return this.cfg.service() ?? this.#ownService;
  }

  #key(): string {
    return `${this.cfg.storageKey()}:${this.cfg.cwd() ?? ''}`;
  }

  /** The last session connected in this `cwd` (from `localStorage`), if any. */
  lastSession(): string | undefined {
    try {
      return localStorage.getItem(this.#key()) ?? undefined;
    } catch {
      return undefined;
    }
  }

  #remember(sessionId: string): void {
    try {
      localStorage.setItem(this.#key(), sessionId);
    } catch {
      // Storage unavailable (private mode, sandboxed frame): the chat still works, without restore.
    }
  }

  /** See `<silo-chat>`'s `connect`. Resolves once connected or failed (a failure goes to `failed`). */
  async connect(options: ChatConnectOptions = {}): Promise<void> {
    if (options.authenticate) this.#signIn = options.authenticate;
    const attempt = ++this.#attempt;
    await this.close();
    const bridge = this.cfg.bridge();
    const cwd = this.cfg.cwd();
    if (!bridge || !cwd) {
      this.#set({ phase: 'idle' });
      return;
    }
    this.permissionRequests = [];
    this.elicitationRequests = [];
    this.#set({ phase: 'connecting' });
    this.cfg.connecting();
    const current = () => attempt === this.#attempt;
    const last =
      options.fresh || options.fork
        ? undefined
        : (options.continueFrom ?? options.sessionId ?? this.lastSession());
    const base: AgentSessionConnectOptions = {
      bridge,
      cwd,
      ...(this.#signIn ? { authenticate: this.#signIn } : {}),
      onPermission: (req) => {
        if (!current()) return;
        this.permissionRequests = [...this.permissionRequests.filter((r) => !r.signal.aborted), req];
        this.host.requestUpdate();
      },
      onElicitation: (req) => {
        if (!current()) return;
        this.elicitationRequests = [...this.elicitationRequests.filter((r) => !r.signal.aborted), req];
        this.host.requestUpdate();
      },
      // The one wire of the snapshot: the handle calls it on every change, its close included.
      onStateChange: (snapshot) => {
        if (current()) this.#snapshot(snapshot);
      },
    };
    const service = this.service();
    let handle: AgentSessionHandle;
    try {
      const resume = last
        ? {
            sessionId: last,
            ...(options.continueFrom ? { startFresh: true } : {}),
            ...(options.via && !options.continueFrom ? { via: options.via } : {}),
          }
        : undefined;
      try {
        handle = await service.connect(
          options.fork ? { ...base, fork: options.fork } : resume ? { ...base, resume } : base,
        );
      } catch (e) {
        // A remembered session the agent and journal no longer know: start a new one.
        const remembered = resume && !options.continueFrom && !options.sessionId;
        if (!remembered || SiloError.from(e).code !== 'session-not-found') throw e;
        handle = await service.connect(base);
      }
    } catch (e) {
      if (!current()) return;
      this.#set({ phase: 'failed' });
      this.cfg.failed(e);
      return;
    }
    if (!current()) {
      void handle.close();
      return;
    }
    this.#set({ handle, snapshot: handle.snapshot, phase: 'ready' });
    this.#remember(handle.sessionId);
    pageChats.set(handle, this.host);
    pageChanged();
    this.cfg.connected(handle);
  }

  /** A new snapshot; a change of role is news for the page's other chats ({@link pageDriver}). */
  #snapshot(snapshot: AgentSessionSnapshot): void {
    const before = this.snapshot;
    this.#set({ snapshot });
    // A driver again (this chat took over, or a tab drives it now): no chat gone to speak of. Not
    // from the close of a handle this chat let go (its last snapshot still says `driver`).
    const again = snapshot.role === 'driver' || (before?.driverPresent === false && snapshot.driverPresent);
    if (again && this.handle?.sessionId === snapshot.sessionId) pageDriversGone.delete(snapshot.sessionId);
    if (snapshot.role !== before?.role) pageChanged();
  }

  /**
   * While this chat follows its session: `here` when another `<silo-chat>` of this same page drives
   * it (two chats of one page have two services, so the second follows the first as a tab would),
   * `gone` once that chat let it go (it was removed, or connected to another session) and until a
   * driver shows up again; undefined when the driver is another tab, or this chat does not follow.
   * A handle the page holds outside a chat is not known here: that one still reads as another tab.
   */
  pageDriver(): PageDriver | undefined {
    const handle = this.handle;
    if (!handle || this.snapshot?.role !== 'follower') return undefined;
    for (const other of pageChats.keys())
      if (other !== handle && other.sessionId === handle.sessionId && other.snapshot.role === 'driver')
        return 'here';
    return pageDriversGone.has(handle.sessionId) ? 'gone' : undefined;
  }

  /** Why a message cannot be sent now (in the words of `s`), or undefined when it can. */
  whyNotSendable(s: SiloChatStrings): string | undefined {
    const snapshot = this.snapshot;
    if (!this.handle || !snapshot)
      return this.phase === 'connecting' ? s.notSentConnecting : s.notSentOffline;
    if (snapshot.role === 'follower') {
      const where = this.pageDriver();
      return where === 'here'
        ? s.notSentFollowingInPage
        : where === 'gone'
          ? s.notSentPageDriverGone
          : s.notSentFollowing;
    }
    if (snapshot.resumeOutcome === 'journal-only' || snapshot.state === 'read-only') return s.notSentReadOnly;
    if (snapshot.state === 'reconnecting') return s.notSentReconnecting;
    if (snapshot.state !== 'connected') return s.notSentOffline;
    return undefined;
  }

  /**
   * Makes this tab drive the session it follows (see `AgentSessionHandle.takeOver`); the snapshot is
   * current once it resolves (the handle reports it through `onStateChange` first). Rejects as that does.
   */
  async takeOver(): Promise<void> {
    await this.handle?.takeOver();
  }

  /** True while the session is on its way: connecting, or reconnecting after a drop. */
  waiting(): boolean {
    if (this.phase === 'connecting') return true;
    const state = this.handle ? this.snapshot?.state : undefined;
    return state === 'connecting' || state === 'reconnecting';
  }

  /** The state the header shows: the session's once connected, else the phase. */
  stateKey(): string {
    if (this.phase === 'ready') return this.snapshot?.state ?? 'connected';
    return this.phase;
  }

  /** Closes the open session, if any. */
  async close(): Promise<void> {
    const handle = this.handle;
    this.#set({ handle: undefined, snapshot: undefined });
    if (handle?.snapshot.role === 'driver' && pageChats.has(handle)) pageDriversGone.add(handle.sessionId);
    if (handle && pageChats.delete(handle)) pageChanged();
    // A chat of this page that opens the session meanwhile waits for this close (src/page-closes.ts).
    await handle?.close().catch(() => undefined);
  }
}
