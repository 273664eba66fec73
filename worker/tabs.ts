/**
 * One session among the tabs of a browser: whether this tab drives it (holds its Web Lock,
 * worker/ownership.ts) and its owner channel (worker/tab-channel.ts), or follows another tab
 * (worker/follow.ts); and the moves between the two — taking over, and handing over.
 */
import { SiloError } from '../src/errors.ts';
import type { AgentSessionSnapshot, AgentSessionUpdate } from '../src/types.ts';
import type { Delivery } from './delivery.ts';
import { Follower } from './follow.ts';
import type { Journal } from './journal.ts';
import type { RequestLedger } from './ledger.ts';
import type { LiveRequest, RequestDelivery } from './live-requests.ts';
import { type Ownership, tryOwn } from './ownership.ts';
import type { SessionStatus } from './status.ts';
import { OwnerChannel, type TabAnswer } from './tab-channel.ts';

/** What a session lends to its {@link SessionTabs}. */
export interface TabsHost {
  readonly journal: Journal;
  readonly delivery: Delivery;
  readonly status: SessionStatus;
  /** The snapshot followers get. */
  snapshot(): AgentSessionSnapshot;
  /** The session's live requests (followers are shown them, and answer them through it). */
  requests(): RequestLedger;
  /** A follower pressed Stop. */
  cancel(): void;
  /**
   * Another tab takes over: stop the turn, end the connection, commit everything; resolves to the
   * journal position after the last update (the follower goes on from there).
   */
  release(): Promise<number>;
  /** This tab holds the lock now (it followed): restore the session and drive it. */
  takeOver(): Promise<void>;
}

/** A session's side of the tabs: its lock, and its owner channel or its follower. */
export class SessionTabs {
  /** The Web Lock that makes this tab the session's one writer; unset while following another tab. */
  private ownership: Ownership | undefined;
  private owner: OwnerChannel | undefined;
  private follower: Follower | undefined;
  /** Set while handing over to another tab (see {@link handOver}). */
  private releasing: Promise<void> | undefined;

  constructor(private readonly host: TabsHost) {}

  /** Takes the session's lock unless held already; false when another tab holds it. */
  async own(sessionId: string): Promise<boolean> {
    this.ownership ??= await tryOwn(sessionId);
    if (this.ownership) this.host.status.role = 'driver';
    return this.ownership !== undefined;
  }

  /**
   * Another tab owns the session: mirror what it commits, read-only (state `following`, error
   * `not-owner`), until this tab takes over. `nextSeq` is where the follower starts delivering.
   */
  async follow(sessionId: string): Promise<void> {
    const { journal, status } = this.host;
    const record = await journal.upsertSession(sessionId, {});
    status.sessionId = sessionId;
    status.outcome = record.lastOutcome ?? 'journal-only';
    status.config.remember(record);
    this.startFollowing(sessionId, record.nextSeq, false);
  }

  /** Makes this tab the driver (see `AgentSessionHandle.takeOver`); resolves at once for the driver. */
  takeOver(): Promise<void> {
    if (this.releasing) return this.releasing.then(() => this.takeOver());
    return this.follower?.takeOver() ?? Promise.resolve();
  }

  /** The session id is bound (again): open its owner channel. */
  bind(sessionId: string): void {
    this.owner?.close();
    const { host } = this;
    this.owner = new OwnerChannel(sessionId, {
      snapshot: host.snapshot,
      owns: () => this.ownership !== undefined && !this.releasing,
      pending: () => host.requests().pending(),
      answer: (a: TabAnswer) =>
        a.kind === 'permission'
          ? host.requests().answerPermission(a.id, a.optionId)
          : host.requests().answerElicitation(a.id, a.action),
      cancel: host.cancel,
      handOver: (to) => void this.handOver(sessionId, to),
    });
  }

  /** After a journal commit: tells the followers, if any. */
  committed(batch: AgentSessionUpdate[]): void {
    this.owner?.committed(batch);
  }

  /**
   * Where the ledger shows live requests (each once its row's commit was delivered): this tab's page,
   * and the tabs that follow it (each shows it once it has delivered that row).
   */
  requestDelivery(): RequestDelivery {
    const { delivery } = this.host;
    return {
      show: (request: LiveRequest) => {
        if (request.kind === 'permission') delivery.permission(request.wire);
        else delivery.elicitation(request.wire);
        this.owner?.present(request);
      },
      requestEnded: (id, resolution) => {
        delivery.requestEnded(id, resolution);
        this.owner?.requestEnded(id, resolution);
      },
    };
  }

  /** A follower's answer goes to the owner; rejects `not-owner` when this tab follows no one. */
  forward(answer: TabAnswer): Promise<void> | undefined {
    return this.follower?.answer(answer);
  }

  /** Stop pressed while following: asks the owner to stop. False when this tab drives the session. */
  forwardCancel(): boolean {
    this.follower?.cancel();
    return this.follower !== undefined;
  }

  /** Stops following, closes the channel and releases the lock. */
  close(): void {
    this.follower?.close();
    this.follower = undefined;
    this.owner?.close();
    this.owner = undefined;
    this.ownership?.release();
    this.ownership = undefined;
  }

  /** Follower `to` takes over: this tab stops driving, gives up the lock and follows from then on. */
  private handOver(sessionId: string, to: string): Promise<void> {
    this.releasing ??= (async () => {
      const nextSeq = await this.host.release();
      this.owner?.close();
      this.owner = undefined;
      this.ownership?.release();
      this.ownership = undefined;
      this.startFollowing(sessionId, nextSeq, true, to);
    })().finally(() => {
      this.releasing = undefined;
    });
    return this.releasing;
  }

  private startFollowing(sessionId: string, nextSeq: number, heardOwner: boolean, to?: string): void {
    const { status } = this.host;
    status.error = new SiloError('not-owner', 'Another tab is driving this session; this one follows it');
    status.role = 'follower';
    status.driverPresent = true;
    status.setState('following');
    this.follower = new Follower(
      sessionId,
      nextSeq,
      {
        journal: this.host.journal,
        delivery: this.host.delivery,
        mirror: (snapshot) => status.mirror(snapshot),
        driverChanged: (present) => {
          status.driverPresent = present;
          void this.host.delivery.state();
        },
        takeOver: async (ownership) => {
          this.ownership = ownership;
          this.follower = undefined;
          status.unmirror();
          status.role = 'driver';
          status.driverPresent = undefined;
          status.error = undefined;
          status.setState('connecting');
          await this.host.takeOver();
        },
      },
      heardOwner,
      to,
    );
  }
}
