/**
 * What the tabs of one session say to each other on its BroadcastChannel (worker/ownership.ts), and
 * the driving tab's side of it ({@link OwnerChannel}); the following tab's side is worker/follow.ts.
 *
 * A follower says `follow` when it starts (and again when a new owner says `owner`), `unfollow` when
 * it stops. The owner answers a `follow` with a `commit` of no updates (its current state) and the
 * requests that can still be answered, then posts a `commit` after every journal commit, each live
 * request as it is shown, and how each ended. A follower's answers, Stop and Take over go to the
 * owner as `answer`, `cancel` and `handover`.
 */
import { type SerializedSiloError, SiloError, serializeError } from '../src/errors.ts';
import type { AgentRequestResolution, AgentSessionSnapshot, AgentSessionUpdate } from '../src/types.ts';
import type { ElicitationAction } from '../src/worker-api.ts';
import type { LiveRequest } from './live-requests.ts';
import { channel } from './ownership.ts';

/** A follower's answer to a live request, for the owner to give the agent. */
export type TabAnswer =
  | { readonly kind: 'permission'; readonly id: string; readonly optionId: string | null }
  | { readonly kind: 'elicitation'; readonly id: string; readonly action: ElicitationAction };

/** What travels on a session's channel. */
export type TabMessage =
  /** Owner → followers: updates just committed (none when answering a `follow`), the state after them. */
  | { readonly type: 'commit'; readonly batch: AgentSessionUpdate[]; readonly snapshot: AgentSessionSnapshot }
  /**
   * Owner → followers: a live request, to be shown once the follower has delivered every update
   * before `after` (its journaled row among them).
   */
  | { readonly type: 'request'; readonly request: LiveRequest; readonly after: number }
  /** Owner → followers: a live request ended (answered from any tab, cancelled, unanswerable). */
  | { readonly type: 'request-ended'; readonly id: string; readonly resolution: AgentRequestResolution }
  /** Follower → owner: this tab follows (`id` names the tab's follower). */
  | { readonly type: 'follow'; readonly id: string }
  /** Follower → owner: this tab no longer follows. */
  | { readonly type: 'unfollow'; readonly id: string }
  /** Follower → owner: answer a live request; the owner replies `answered` with the same `reply`. */
  | { readonly type: 'answer'; readonly reply: string; readonly answer: TabAnswer }
  /** Owner → the follower that answered: the answer reached the agent, or why not. */
  | { readonly type: 'answered'; readonly reply: string; readonly error?: SerializedSiloError }
  /** Follower → owner: stop the running turn (Stop pressed in a following tab). */
  | { readonly type: 'cancel' }
  /** Follower `to` → owner (and the other followers): hand the session over to `to`. */
  | { readonly type: 'handover'; readonly to: string }
  /** A tab that just took ownership asks the followers to say `follow` again. */
  | { readonly type: 'owner' };

/** What the owner's side of the channel needs of its session. */
export interface OwnerHost {
  /** The state a `follow` is answered with. */
  snapshot(): AgentSessionSnapshot;
  /** Whether this tab owns the session now (only the owner posts or acts). */
  owns(): boolean;
  /** The requests the page can still answer (a new follower is shown them). */
  pending(): LiveRequest[];
  /** A follower answered a live request; throws as the page's own answer would. */
  answer(answer: TabAnswer): void;
  /** A follower pressed Stop. */
  cancel(): void;
  /** Follower `to` takes the session over: stop driving it. */
  handOver(to: string): void;
}

/**
 * The owner's side: posts commits and live requests only while at least one follower has said
 * `follow` (and not `unfollow`). A follower whose tab died without a word keeps the posting on; that
 * is only waste.
 */
export class OwnerChannel {
  private readonly channel: BroadcastChannel;
  private readonly followers = new Set<string>();

  /** Opens the channel and asks followers already waiting to announce themselves. */
  constructor(
    sessionId: string,
    private readonly host: OwnerHost,
  ) {
    this.channel = channel(sessionId);
    this.channel.onmessage = (e: MessageEvent<TabMessage>) => this.receive(e.data);
    this.post({ type: 'owner' });
  }

  /** True once some tab follows. */
  get followed(): boolean {
    return this.followers.size > 0;
  }

  /** After a commit: tells the followers, if there are any and this tab owns the session. */
  committed(batch: AgentSessionUpdate[]): void {
    if (this.live()) this.post({ type: 'commit', batch, snapshot: this.host.snapshot() });
  }

  /** A live request was shown to the page: show it to the followers too, once they have its row. */
  present(request: LiveRequest): void {
    if (this.live()) this.post({ type: 'request', request, after: request.seq + 1 });
  }

  /** A live request ended. */
  requestEnded(id: string, resolution: AgentRequestResolution): void {
    if (this.live()) this.post({ type: 'request-ended', id, resolution });
  }

  close(): void {
    this.channel.onmessage = null;
    this.channel.close();
  }

  private live(): boolean {
    return this.followed && this.host.owns();
  }

  private receive(m: TabMessage): void {
    if (m.type === 'follow') {
      this.followers.add(m.id);
      this.committed([]);
      for (const request of this.host.pending()) this.present(request);
    } else if (m.type === 'unfollow') {
      this.followers.delete(m.id);
    } else if (!this.host.owns()) {
      return;
    } else if (m.type === 'answer') {
      let error: SerializedSiloError | undefined;
      try {
        this.host.answer(m.answer);
      } catch (e) {
        error = serializeError(e);
      }
      this.post({ type: 'answered', reply: m.reply, ...(error ? { error } : {}) });
    } else if (m.type === 'cancel') {
      this.host.cancel();
    } else if (m.type === 'handover') {
      this.host.handOver(m.to);
    }
  }

  private post(m: TabMessage): void {
    this.channel.postMessage(m);
  }
}

/** The error a follower's pending answer rejects with when its owner went away first. */
export function ownerGone(): SiloError {
  return SiloError.closed('The tab that drove this session closed before the answer reached the agent');
}
