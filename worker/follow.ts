/**
 * The tabs of one session ({@link ./ownership.ts}): the owner announces what it commits on the
 * session's BroadcastChannel, and only while some tab follows; a follower mirrors it read-only and
 * takes over once the owner's lock is released.
 *
 * The channel's messages ({@link TabMessage}): a follower says `follow` when it starts (and again
 * when a new owner says `owner`), `unfollow` when it closes; the owner answers a `follow` with a
 * `commit` of no updates (its current state), then posts a `commit` after every journal commit.
 * {@link SessionTabs} is a session's side of all this.
 */
import { SiloError } from '../src/errors.ts';
import type { AgentSessionSnapshot, AgentSessionUpdate } from '../src/types.ts';
import type { Delivery } from './delivery.ts';
import type { Journal } from './journal.ts';
import { channel, type Ownership, tryOwn, waitToOwn } from './ownership.ts';
import type { SessionStatus } from './status.ts';

/** What travels on a session's channel. */
export type TabMessage =
  /** Owner → followers: updates just committed (none when answering a `follow`), the state after them. */
  | { readonly type: 'commit'; readonly batch: AgentSessionUpdate[]; readonly snapshot: AgentSessionSnapshot }
  /** Follower → owner: this tab follows (`id` names the tab's follower). */
  | { readonly type: 'follow'; readonly id: string }
  /** Follower → owner: this tab no longer follows. */
  | { readonly type: 'unfollow'; readonly id: string }
  /** A tab that just took ownership asks the followers to say `follow` again. */
  | { readonly type: 'owner' };

/**
 * The owner's side: posts commits only while at least one follower has said `follow` (and not
 * `unfollow`). A follower whose tab died without a word keeps the posting on; that is only waste.
 */
export class OwnerChannel {
  private readonly channel: BroadcastChannel;
  private readonly followers = new Set<string>();

  /** Opens the channel and asks followers already waiting to announce themselves. */
  constructor(
    sessionId: string,
    /** The state a `follow` is answered with. */
    private readonly snapshot: () => AgentSessionSnapshot,
    /** Whether this tab owns the session now (only the owner posts). */
    private readonly owns: () => boolean,
  ) {
    this.channel = channel(sessionId);
    this.channel.onmessage = (e: MessageEvent<TabMessage>) => {
      const m = e.data;
      if (m.type === 'follow') {
        this.followers.add(m.id);
        this.post([]);
      } else if (m.type === 'unfollow') {
        this.followers.delete(m.id);
      }
    };
    this.channel.postMessage({ type: 'owner' } satisfies TabMessage);
  }

  /** True once some tab follows. */
  get followed(): boolean {
    return this.followers.size > 0;
  }

  /** After a commit: tells the followers, if there are any and this tab owns the session. */
  post(batch: AgentSessionUpdate[]): void {
    if (!this.followed || !this.owns()) return;
    this.channel.postMessage({ type: 'commit', batch, snapshot: this.snapshot() } satisfies TabMessage);
  }

  close(): void {
    this.channel.close();
  }
}

/** What a follower needs of its session. */
export interface FollowHost {
  readonly journal: Journal;
  readonly delivery: Delivery;
  /** The owner's state (after each of its commits). */
  mirror(snapshot: AgentSessionSnapshot): void;
  /** The owner's lock is ours now: restore the session and drive it. */
  takeOver(ownership: Ownership): Promise<void>;
}

/**
 * A tab following a session another tab owns. It delivers every update from `nextSeq` on, in
 * order and once: the owner's commits, and from the journal whatever it committed before it heard
 * this follower (or between two commits this follower saw). When the lock comes free it hands over
 * to {@link FollowHost.takeOver}.
 */
export class Follower {
  private readonly id = crypto.randomUUID();
  private readonly channel: BroadcastChannel;
  private readonly stop = new AbortController();
  /** Mirrored commits, one after another (a gap is read from the journal first). */
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly sessionId: string,
    private nextSeq: number,
    private readonly host: FollowHost,
  ) {
    this.channel = channel(sessionId);
    this.channel.onmessage = (e: MessageEvent<TabMessage>) => {
      const m = e.data;
      if (m.type === 'owner') this.announce('follow');
      if (m.type !== 'commit') return;
      host.mirror(m.snapshot);
      // An empty commit answers a `follow`: read whatever the owner committed before it heard us.
      this.deliver(m.batch[0]?.seq ?? Number.POSITIVE_INFINITY, m.batch);
    };
    this.announce('follow');
    void waitToOwn(sessionId, this.stop.signal)
      .then(async (ownership) => {
        this.leave();
        // Everything the old owner committed, read once its lock is released: nothing comes later.
        this.deliver(Number.POSITIVE_INFINITY, []);
        await this.chain;
        await host.takeOver(ownership);
      })
      .catch(() => {});
  }

  /** Stops following (the session handle closed). */
  close(): void {
    this.stop.abort();
    this.leave();
  }

  private leave(): void {
    if (this.channel.onmessage === null) return;
    this.channel.onmessage = null;
    this.announce('unfollow');
    this.channel.close();
  }

  private announce(type: 'follow' | 'unfollow'): void {
    this.channel.postMessage({ type, id: this.id } satisfies TabMessage);
  }

  /** Delivers `batch`, reading first from the journal what lies between `nextSeq` and `first`. */
  private deliver(first: number, batch: AgentSessionUpdate[]): void {
    this.chain = this.chain.then(async () => {
      if (first > this.nextSeq) {
        // A journal that cannot be read leaves this gap unfilled; the batch is delivered all the same.
        const journaled = await this.host.journal.read(this.sessionId).catch(() => []);
        this.push(journaled.filter((u) => (u.seq ?? -1) >= this.nextSeq && (u.seq ?? -1) < first));
      }
      this.push(batch);
    });
  }

  private push(updates: AgentSessionUpdate[]): void {
    const fresh = updates.filter((u) => (u.seq ?? -1) >= this.nextSeq);
    if (fresh.length) this.nextSeq = fresh.at(-1)!.seq! + 1;
    this.host.delivery.push(fresh);
  }
}

/** What a session lends to its {@link SessionTabs}. */
export interface TabsHost {
  readonly journal: Journal;
  readonly delivery: Delivery;
  readonly status: SessionStatus;
  /** The snapshot followers get. */
  snapshot(): AgentSessionSnapshot;
  /** This tab followed and now holds the lock: restore the session and drive it. */
  takeOver(): Promise<void>;
}

/** One session among the tabs: whether this tab owns it, and its owner channel or its follower. */
export class SessionTabs {
  /** The Web Lock that makes this tab the session's one writer; unset while following another tab. */
  private ownership: Ownership | undefined;
  private owner: OwnerChannel | undefined;
  private follower: Follower | undefined;

  constructor(private readonly host: TabsHost) {}

  /** Takes the session's lock unless held already; false when another tab holds it. */
  async own(sessionId: string): Promise<boolean> {
    this.ownership ??= await tryOwn(sessionId);
    return this.ownership !== undefined;
  }

  /**
   * Another tab owns the session: mirror what it commits, read-only (state `following`, error
   * `not-owner`), and take over once its lock is released.
   */
  async follow(sessionId: string): Promise<void> {
    const { journal, status } = this.host;
    const record = await journal.upsertSession(sessionId, {});
    status.sessionId = sessionId;
    status.outcome = record.lastOutcome ?? 'journal-only';
    status.config.remember(record);
    status.error = new SiloError('not-owner', 'Another tab is driving this session; this one follows it');
    status.state = 'following';
    this.follower = new Follower(sessionId, record.nextSeq, {
      journal,
      delivery: this.host.delivery,
      mirror: (snapshot) => status.mirror(snapshot),
      takeOver: async (ownership) => {
        this.ownership = ownership;
        this.follower = undefined;
        status.unmirror();
        await this.host.takeOver();
      },
    });
  }

  /** The session id is bound (again): open its owner channel. */
  bind(sessionId: string): void {
    this.owner?.close();
    this.owner = new OwnerChannel(sessionId, this.host.snapshot, () => this.ownership !== undefined);
  }

  /** After a journal commit: tells the followers, if any. */
  committed(batch: AgentSessionUpdate[]): void {
    this.owner?.post(batch);
  }

  /** Stops following, closes the channel and releases the lock. */
  close(): void {
    this.follower?.close();
    this.owner?.close();
    this.ownership?.release();
    this.ownership = undefined;
  }
}
