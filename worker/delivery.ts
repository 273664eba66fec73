/**
 * Delivery to the page. An update reaches the page as soon as its commit lands while the stream is
 * sparse: up to {@link BURST} messages go out at once in any {@link WINDOW_MS} window. Beyond that
 * (a flood) committed updates are batched until the window has room again, so a flood of chunks
 * costs a few `postMessage`s per frame, not thousands. Only committed updates are pushed here (the
 * page never sees an update the journal will not hold). Calls to the page are posted at once, in
 * order (none waits for the page's reply to the one before); a page that went away only makes them
 * fail quietly (the journal has it all).
 */
import type { AgentRequestResolution, AgentSessionUpdate } from '../src/types.ts';
import type { ElicitationWire, PermissionWire, WireSnapshot, WorkerEvents } from '../src/worker-api.ts';

/** The window that bounds how often updates are sent: one frame. */
export const WINDOW_MS = 16;
/** Messages of updates sent at once in any window; more than this in a window are batched. */
export const BURST = 3;

export class Delivery {
  private outbox: AgentSessionUpdate[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the last (up to {@link BURST}) messages of updates were sent, oldest first. */
  private readonly sentAt: number[] = [];
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly events: WorkerEvents,
    private readonly snapshot: () => WireSnapshot,
    /** The clock the window is measured with (tests pass their own). */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Queues committed updates. They are sent at once (after anything sent before) when fewer than
   * {@link BURST} messages went out in the last {@link WINDOW_MS}; otherwise when the window has room,
   * together with whatever else was committed meanwhile.
   */
  push(updates: AgentSessionUpdate[]): void {
    if (updates.length === 0) return;
    for (const u of updates) this.outbox.push(u);
    if (this.timer !== undefined) return;
    const wait = this.sentAt.length < BURST ? 0 : this.sentAt[0]! + WINDOW_MS - this.now();
    if (wait <= 0) void this.flush();
    else this.timer = setTimeout(() => void this.flush(), wait);
  }

  /** Sends what is queued now; resolves once the page has received everything sent so far. */
  flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.outbox.length > 0) {
      const batch = this.outbox;
      this.outbox = [];
      this.sentAt.push(this.now());
      if (this.sentAt.length > BURST) this.sentAt.shift();
      this.send(() => this.events.updates(batch, this.snapshot()));
    }
    return this.chain.then(() => {});
  }

  /** Tells the page the state changed (after any queued updates); resolves once the page has it. */
  state(): Promise<void> {
    void this.flush();
    this.send(() => this.events.state(this.snapshot()));
    return this.chain.then(() => {});
  }

  permission(request: PermissionWire): void {
    void this.flush();
    this.send(() => this.events.permission(request));
  }

  elicitation(request: ElicitationWire): void {
    void this.flush();
    this.send(() => this.events.elicitation(request));
  }

  requestEnded(id: string, resolution: AgentRequestResolution): void {
    this.send(() => this.events.requestEnded(id, resolution));
  }

  /**
   * Posts a call to the page now: messages to the page arrive in the order they are posted, so a
   * call never waits for the page's reply to the one before (that wait was a round trip through a
   * busy page added to each update's latency). The chain only tracks the replies, for `flush`.
   */
  private send(call: () => unknown): void {
    let reply: Promise<unknown>;
    try {
      reply = Promise.resolve(call()).catch(() => {});
    } catch {
      reply = Promise.resolve();
    }
    this.chain = Promise.all([this.chain, reply]);
  }
}
