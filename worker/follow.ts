/**
 * A tab following a session another tab drives (worker/ownership.ts, worker/tab-channel.ts): it
 * mirrors the owner's commits and live requests, sends its answers, Stop and Take over to the owner,
 * and queues for the session's lock to learn when the owner is gone.
 *
 * When the lock comes to this tab, what happens depends on what it knows:
 * - it asked to take over ({@link Follower.takeOver}), or it never heard an owner (the tab that held
 *   the lock was dying as this one started: a reload, a worker restarted): it drives the session;
 * - another follower is taking over (it said `handover`): it gives the lock back and queues again;
 * - otherwise the driving tab closed or reloads: it gives the lock back and reports the session
 *   driverless ({@link FollowHost.driverChanged}), until a new owner says `owner` (the reloaded tab).
 */
import { SiloError } from '../src/errors.ts';
import type { AgentRequestResolution, AgentSessionSnapshot, AgentSessionUpdate } from '../src/types.ts';
import type { Delivery } from './delivery.ts';
import type { Journal } from './journal.ts';
import type { LiveRequest } from './live-requests.ts';
import { channel, type Ownership, waitToOwn } from './ownership.ts';
import { ownerGone, type TabAnswer, type TabMessage } from './tab-channel.ts';

/** How long {@link Follower.takeOver} waits for the driving tab to hand the session over. */
export const HANDOVER_MS = 15_000;

/** What a follower needs of its session. */
export interface FollowHost {
  readonly journal: Journal;
  readonly delivery: Delivery;
  /** The owner's state (after each of its commits). */
  mirror(snapshot: AgentSessionSnapshot): void;
  /** Whether a tab drives the session now changed (false: it closed; true: a tab drives it again). */
  driverChanged(present: boolean): void;
  /** The session's lock is this tab's now: restore the session and drive it. */
  takeOver(ownership: Ownership): Promise<void>;
}

/**
 * Delivers every update from `nextSeq` on, in order and once: the owner's commits, and from the
 * journal whatever it committed before this follower heard it (or between two commits it saw).
 */
export class Follower {
  private readonly id = crypto.randomUUID();
  private readonly channel: BroadcastChannel;
  /** Aborts the queued request for the lock (none is queued while no tab drives the session). */
  private queued: AbortController | undefined;
  /** Mirrored commits and requests, one after another (a gap is read from the journal first). */
  private chain: Promise<void> = Promise.resolve();
  /** Requests waiting for the updates before them, and the ids of the requests shown. */
  private waiting: { request: LiveRequest; after: number }[] = [];
  private readonly shown = new Set<string>();
  /** Answers sent to the owner, by reply id. */
  private readonly answers = new Map<string, { resolve(): void; reject(e: SiloError): void }>();
  /** A {@link takeOver} waiting for the lock. */
  private wanted:
    | { resolve(): void; reject(e: SiloError): void; timer: ReturnType<typeof setTimeout> }
    | undefined;
  /** The follower another tab said is taking over (this one then lets the lock pass). */
  private handoverTo: string | undefined;
  private present = true;
  private stopped = false;

  constructor(
    private readonly sessionId: string,
    private nextSeq: number,
    private readonly host: FollowHost,
    /** True when a live owner was known (this tab drove the session until now). */
    private heardOwner = false,
    handoverTo?: string,
  ) {
    this.handoverTo = handoverTo;
    this.channel = channel(sessionId);
    this.channel.onmessage = (e: MessageEvent<TabMessage>) => this.receive(e.data);
    this.queue();
    this.post({ type: 'follow', id: this.id });
  }

  /**
   * Asks the owner to hand the session over and resolves once this tab drives it (the host's
   * takeOver done). Rejects with `not-owner` when the owner does not let go within {@link HANDOVER_MS}.
   */
  takeOver(): Promise<void> {
    if (this.stopped) return Promise.reject(SiloError.closed('This session handle is closed'));
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.wanted = undefined;
        reject(new SiloError('not-owner', 'The tab driving this session did not hand it over'));
      }, HANDOVER_MS);
      this.wanted = { resolve, reject, timer };
      this.queue();
      this.post({ type: 'handover', to: this.id });
    });
  }

  /** Sends an answer to the owner; settles with the owner's reply (`closed` if the owner went away first). */
  answer(answer: TabAnswer): Promise<void> {
    if (!this.present || this.stopped) return Promise.reject(ownerGone());
    const reply = crypto.randomUUID();
    return new Promise<void>((resolve, reject) => {
      this.answers.set(reply, { resolve, reject });
      this.post({ type: 'answer', reply, answer });
    });
  }

  /** Asks the owner to stop its running turn. */
  cancel(): void {
    this.post({ type: 'cancel' });
  }

  /** Stops following (the session handle closed, or this tab drives the session now). */
  close(): void {
    this.stopped = true;
    this.queued?.abort();
    this.queued = undefined;
    this.endAnswers();
    if (this.wanted) {
      clearTimeout(this.wanted.timer);
      this.wanted.reject(SiloError.closed('This session handle is closed'));
      this.wanted = undefined;
    }
    this.leave();
  }

  private receive(m: TabMessage): void {
    switch (m.type) {
      case 'owner':
        this.endAnswers();
        this.post({ type: 'follow', id: this.id });
        this.queue();
        return;
      case 'commit':
        this.heardOwner = true;
        if (!this.present) {
          this.present = true;
          this.host.driverChanged(true);
        }
        this.host.mirror(m.snapshot);
        // An empty commit answers a `follow`: read whatever the owner committed before it heard us,
        // and tell the page the owner's state (no update may come with it).
        this.deliver(m.batch[0]?.seq ?? Number.POSITIVE_INFINITY, m.batch);
        if (m.batch.length === 0) this.inOrder(() => void this.host.delivery.state());
        return;
      case 'request':
        this.inOrder(() => {
          if (!this.shown.has(m.request.wire.id)) this.waiting.push({ request: m.request, after: m.after });
        });
        this.deliver(m.after, []);
        return;
      case 'request-ended':
        this.inOrder(() => this.ended(m.id, m.resolution));
        return;
      case 'answered': {
        const pending = this.answers.get(m.reply);
        this.answers.delete(m.reply);
        if (m.error) pending?.reject(SiloError.from(m.error));
        else pending?.resolve();
        return;
      }
      case 'handover':
        if (m.to !== this.id) this.handoverTo = m.to;
        return;
      default:
        return;
    }
  }

  /** Queues for the session's lock, unless queued already. */
  private queue(): void {
    if (this.queued || this.stopped) return;
    const queued = new AbortController();
    this.queued = queued;
    void waitToOwn(this.sessionId, queued.signal)
      .then((ownership) => this.granted(ownership))
      .catch(() => {})
      .finally(() => {
        if (this.queued === queued) this.queued = undefined;
      });
  }

  private async granted(ownership: Ownership): Promise<void> {
    this.queued = undefined;
    if (this.stopped) {
      ownership.release();
      return;
    }
    const wanted = this.wanted;
    if (!wanted && this.heardOwner && this.handoverTo === undefined) {
      // The driving tab closed or reloads: say so, read what it committed last, and let the lock go
      // (a reloaded tab takes it back and says `owner`).
      ownership.release();
      this.endAnswers();
      this.deliver(Number.POSITIVE_INFINITY, []);
      if (this.present) {
        this.present = false;
        this.host.driverChanged(false);
      }
      return;
    }
    if (!wanted && this.heardOwner) {
      // Another follower takes over: let it have the lock, and learn again if it never does.
      this.handoverTo = undefined;
      ownership.release();
      this.queue();
      return;
    }
    this.stopped = true;
    this.leave();
    this.endAnswers();
    // Everything the old owner committed, read once its lock is released: nothing comes later.
    this.deliver(Number.POSITIVE_INFINITY, []);
    await this.chain;
    if (wanted) clearTimeout(wanted.timer);
    this.wanted = undefined;
    try {
      await this.host.takeOver(ownership);
      wanted?.resolve();
    } catch (e) {
      wanted?.reject(SiloError.from(e));
    }
  }

  private leave(): void {
    if (this.channel.onmessage === null) return;
    this.channel.onmessage = null;
    this.post({ type: 'unfollow', id: this.id });
    this.channel.close();
  }

  private post(m: TabMessage): void {
    if (this.channel.onmessage !== null) this.channel.postMessage(m);
  }

  /** Rejects the answers the owner has not replied to: it went away (or another tab owns the session). */
  private endAnswers(): void {
    for (const pending of this.answers.values()) pending.reject(ownerGone());
    this.answers.clear();
  }

  private ended(id: string, resolution: AgentRequestResolution): void {
    this.waiting = this.waiting.filter((w) => w.request.wire.id !== id);
    if (this.shown.delete(id)) this.host.delivery.requestEnded(id, resolution);
  }

  private inOrder(step: () => void): void {
    this.chain = this.chain.then(step);
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
    // A request is shown once every update before it is delivered (its row comes first).
    const ready = this.waiting.filter((w) => w.after <= this.nextSeq);
    this.waiting = this.waiting.filter((w) => w.after > this.nextSeq);
    for (const { request } of ready) {
      this.shown.add(request.wire.id);
      if (request.kind === 'permission') this.host.delivery.permission(request.wire);
      else this.host.delivery.elicitation(request.wire);
    }
  }
}
