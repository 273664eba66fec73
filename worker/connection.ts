/**
 * A session's connection to its agent: open a link, sign in, open the session on it (new, continue
 * fresh, or restore; see worker/open.ts) and, when the link ends while the session is live, reconnect
 * with backoff and restore it again, until it reconnects or the session closes.
 */
import { SiloError } from '../src/errors.ts';
import type { WorkerConnectOptions } from '../src/worker-api.ts';
import { signIn } from './auth.ts';
import { forkSession, offersFork } from './fork.ts';
import type { Journal } from './journal.ts';
import { AgentLink, type LinkEnd, type LinkHost } from './link.ts';
import { midTurnOffers } from './mid-turn.ts';
import { continueFresh, latestId, newSession, type OpenHost, restoreSession } from './open.ts';
import type { SessionStatus } from './status.ts';

/** Reconnect backoff: first delay and cap. */
export const BACKOFF_FIRST_MS = 250;
export const BACKOFF_MAX_MS = 5000;
/** How long closing a session waits for the agent to answer `session/close`. */
export const SESSION_CLOSE_MS = 2000;

/** What a connection needs of its session. */
export interface ConnectionHost {
  readonly journal: Journal;
  readonly options: WorkerConnectOptions;
  /** Receives what each link's tap sees. */
  readonly tap: LinkHost;
  /** What the open functions may use of the session. */
  readonly open: OpenHost;
  /** The session's status, which the connection keeps current. */
  readonly status: SessionStatus;
  /** The journal's write error, if it refused one: a link that ends is not replaced then. */
  readonly journalError: SiloError | undefined;
  /** Resolves once everything journaled so far is committed; rejects with the write error. */
  flushed(): Promise<void>;
  /** A link ended (its live requests can no longer be answered). */
  linkEnded(serial: number): void;
}

/** The live link of one session, replaced after it ends until the session closes. */
export class Connection {
  /** The open link, if any. */
  link: AgentLink | undefined;
  private closing = false;
  /** Set while another tab drives the session ({@link release}): no link is opened or replaced. */
  private released = false;
  private reconnecting: Promise<void> | undefined;

  constructor(private readonly host: ConnectionHost) {}

  /**
   * Opens a link and the session on it: restores the bound session when `reconnect`, else opens it
   * as the connect options say. Rejects with a coded SiloError (`unreachable`, `auth-required`,
   * `protocol-version`, `closed` when the session closed meanwhile…); the link is closed then.
   */
  async establish(reconnect: boolean): Promise<void> {
    const { host } = this;
    const link = await AgentLink.open(host.options.bridge, host.tap);
    if (this.closing || this.released) {
      link.close();
      throw SiloError.closed();
    }
    this.link = link;
    void link.ended.then((end) => this.ended(link, end));
    const { status } = host;
    status.identify(link.initialize.agentInfo, link.initialize.agentCapabilities?.promptCapabilities);
    status.midTurn = midTurnOffers(link.initialize);
    status.canFork = offersFork(link);
    if (host.options.authenticate)
      await signIn(link, host.options.authenticate, host.options.signInTimeoutMs);
    const resume = host.options.resume;
    const open = host.open;
    const fork = host.options.fork;
    const opened = reconnect
      ? await restoreSession(link, open, status.sessionId)
      : fork
        ? await forkSession(link, open, fork)
        : resume?.startFresh
          ? await continueFresh(link, open, resume.sessionId, resume.transcript ?? 'carry')
          : resume
            ? await restoreSession(link, open, await latestId(host.journal, resume.sessionId), resume.via)
            : await newSession(link, open);
    // A turn the journal holds open that nothing runs now (its page died mid-turn) has ended.
    open.endDeadTurn();
    status.opened(opened);
    await host.journal.upsertSession(status.sessionId, {
      agent: status.agentInfo.displayName ?? status.agentInfo.name,
      cwd: host.options.cwd,
      lastOutcome: status.outcome,
    });
    await host.flushed();
  }

  /**
   * Restores the bound session on a new link, retrying with backoff while that fails (also after
   * {@link release}: this tab drives the session again).
   */
  async restore(): Promise<void> {
    this.released = false;
    try {
      await this.establish(true);
    } catch (error) {
      if (this.closing || this.released) return;
      this.host.status.error = SiloError.from(error);
      this.startReconnect();
    }
  }

  /**
   * Tells the agent that `sessionId` is closed (`session/close`: it stops the session's work and frees
   * it) when the agent offers that (`sessionCapabilities.close`). Waits for the answer at most
   * {@link SESSION_CLOSE_MS}; never rejects (the link is closed next anyway).
   */
  async closeSession(sessionId: string): Promise<void> {
    const link = this.link;
    if (!link || !sessionId || !link.initialize.agentCapabilities?.sessionCapabilities?.close) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      link.request('session/close', { sessionId }).catch(() => undefined),
      new Promise((resolve) => {
        timer = setTimeout(resolve, SESSION_CLOSE_MS);
      }),
    ]);
    clearTimeout(timer);
  }

  /** Closes the link; resolves once its end is handled (state `closed`). False when none was open. */
  async close(): Promise<boolean> {
    this.closing = true;
    const link = this.link;
    if (!link) return false;
    link.close();
    await link.ended;
    return true;
  }

  /**
   * Ends the link because another tab takes the session over: no reconnect, and the state is left to
   * the caller. Resolves once the link's end is handled (its live requests journaled as ended).
   */
  async release(): Promise<void> {
    this.released = true;
    const link = this.link;
    if (!link) return;
    link.close();
    await link.ended;
  }

  private ended(link: AgentLink, end: LinkEnd): void {
    if (this.link !== link) return;
    this.link = undefined;
    const { host } = this;
    const { status } = host;
    host.linkEnded(link.serial);
    if (this.closing) {
      status.setState('closed');
      return;
    }
    if (this.released) return;
    if (status.outcome === 'journal-only') return;
    if (host.journalError) {
      // A journal that refused a write cannot take a reconnected session: close and restore instead.
      status.setState('failed');
      return;
    }
    status.error = end.error;
    this.startReconnect();
  }

  private startReconnect(): void {
    this.host.status.setState('reconnecting');
    this.reconnecting ??= this.reconnectLoop().finally(() => {
      this.reconnecting = undefined;
    });
  }

  private async reconnectLoop(): Promise<void> {
    let delay = BACKOFF_FIRST_MS;
    while (!this.closing && !this.released) {
      await new Promise((r) => setTimeout(r, delay));
      if (this.closing || this.released) return;
      try {
        await this.establish(true);
        return;
      } catch (error) {
        if (this.closing || this.released) return;
        this.host.status.error = SiloError.from(error);
        this.host.status.setState('reconnecting');
        delay = Math.min(delay * 2, BACKOFF_MAX_MS);
      }
    }
  }
}
