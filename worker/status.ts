/**
 * What the page sees of a session besides its updates ({@link AgentSessionSnapshot}): how it was
 * opened, its connection state and error, the agent's identity, and its session state (through the
 * shared reducer, see worker/state.ts), or, while this tab follows another, what that tab mirrors.
 */
import { SiloError } from '../src/errors.ts';
import type {
  AgentConnectionState,
  AgentInfo,
  AgentMidTurn,
  AgentPromptCapabilities,
  AgentRestoreNote,
  AgentResumeOutcome,
  AgentSessionRole,
  AgentSessionSnapshot,
} from '../src/types.ts';
import type { AgentLink } from './link.ts';
import type { Opened } from './open.ts';
import { LiveSessionState } from './state.ts';

/** A session's status, changed by the session, its connection and its follower. */
export class SessionStatus {
  /** The bound session id ('' until the session is opened). */
  sessionId = '';
  outcome: AgentResumeOutcome = 'new';
  restoreNote: AgentRestoreNote | undefined;
  state: AgentConnectionState = 'connecting';
  /** Whether this tab drives the session (worker/tabs.ts). */
  role: AgentSessionRole = 'driver';
  /** While following: whether a tab drives the session now. */
  driverPresent: boolean | undefined;
  /** The coded error behind the state, if any. */
  error: SiloError | undefined;
  agentInfo: AgentInfo = { name: 'unknown' };
  /** The agent's `promptCapabilities`, once it answered `initialize`. */
  promptCapabilities: AgentPromptCapabilities | undefined;
  /** What the agent takes while a turn runs, once it answered `initialize` (worker/mid-turn.ts). */
  midTurn: AgentMidTurn | undefined;
  /** Whether the agent offers `session/fork` (its `initialize` answer). */
  canFork = false;
  /** Title, usage, commands, config options and mode, through the shared session-state reducer. */
  readonly config = new LiveSessionState();
  /** What a follower mirrors of the owner's state that it does not compute itself. */
  private mirrored: { configOptions: AgentSessionSnapshot['configOptions']; busy: boolean } | undefined;

  constructor(
    /** Called after every state change (the page is told). */
    private readonly changed: () => void,
  ) {}

  /** Sets the connection state and tells the page. */
  setState(state: AgentConnectionState): void {
    this.state = state;
    this.changed();
  }

  /** What the agent said of itself in `initialize`, merged into what was known. */
  identify(
    info: AgentLink['initialize']['agentInfo'],
    prompt?: NonNullable<AgentLink['initialize']['agentCapabilities']>['promptCapabilities'],
  ): void {
    this.promptCapabilities = {
      image: prompt?.image === true,
      audio: prompt?.audio === true,
      embeddedContext: prompt?.embeddedContext === true,
    };
    this.agentInfo = {
      ...this.agentInfo,
      name: info?.name ?? 'agent',
      ...(info?.version ? { version: info.version } : {}),
      ...(info?.title ? { displayName: info.title } : {}),
    };
  }

  /** The session opened on a link: how, and the state that follows (tells the page). */
  opened(opened: Opened): void {
    this.outcome = opened.outcome;
    this.restoreNote = opened.note;
    this.error = opened.error;
    this.setState(this.outcome === 'journal-only' ? 'read-only' : 'connected');
  }

  /** Copies the owner's snapshot while following it. */
  mirror(snapshot: AgentSessionSnapshot): void {
    const { title: _, ...info } = snapshot.agentInfo;
    this.agentInfo = info;
    this.promptCapabilities = snapshot.promptCapabilities;
    this.config.mirror(snapshot);
    this.mirrored = { configOptions: [...snapshot.configOptions], busy: snapshot.busy };
  }

  /** Stops mirroring: this tab drives the session now. */
  unmirror(): void {
    this.mirrored = undefined;
  }

  /**
   * The link a message can go out on now (`link`, the session's; `journalError`, its writer's);
   * throws why not: `not-owner` in a follower, `journal-only`, the journal's error, or `closed`.
   */
  sendable(link: AgentLink | undefined, journalError: SiloError | undefined): AgentLink {
    if (this.role === 'follower')
      throw this.error ?? new SiloError('not-owner', 'Another tab drives this session');
    if (this.outcome === 'journal-only')
      throw this.error ?? new SiloError('journal-only', 'This session is read-only');
    if (journalError) throw journalError;
    if (!link || this.state !== 'connected') throw this.error ?? SiloError.closed();
    return link;
  }

  /**
   * The snapshot the page gets; `busy` is whether this tab runs a turn, `queued` how many prompts
   * the agent holds behind it.
   */
  snapshot(busy: boolean, queued = 0): AgentSessionSnapshot {
    const { usage, tokens, commands, activity } = this.config.current;
    const title = this.config.title;
    return {
      sessionId: this.sessionId,
      resumeOutcome: this.outcome,
      ...(this.restoreNote ? { restoreNote: this.restoreNote } : {}),
      state: this.state,
      role: this.role,
      ...(this.role === 'follower' ? { driverPresent: this.driverPresent !== false } : {}),
      agentInfo: title === undefined ? this.agentInfo : { ...this.agentInfo, title },
      configOptions: this.mirrored?.configOptions ?? this.config.options,
      availableCommands: commands,
      ...(usage ? { usage } : {}),
      ...(tokens ? { tokens } : {}),
      ...(activity ? { activity } : {}),
      busy: this.mirrored?.busy ?? busy,
      ...(this.midTurn && !this.mirrored ? { midTurn: this.midTurn } : {}),
      ...(this.canFork ? { canFork: true } : {}),
      ...(queued > 0 ? { queuedPrompts: queued } : {}),
      ...(this.promptCapabilities ? { promptCapabilities: this.promptCapabilities } : {}),
      ...(this.error ? { error: { code: this.error.code, message: this.error.message } } : {}),
    };
  }
}
