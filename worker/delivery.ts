/**
 * Delivery to the page: committed updates are batched into at most one message per frame (16 ms),
 * so a flood of chunks costs a few `postMessage`s, not thousands. Calls to the page are chained, so
 * they arrive in order; a page that went away only makes them fail quietly (the journal has it all).
 */
import type { AgentRequestResolution, AgentSessionSnapshot, AgentSessionUpdate } from '../src/types.ts';
import type { ElicitationWire, PermissionWire, WorkerEvents } from '../src/worker-api.ts';

const FRAME_MS = 16;

export class Delivery {
  private outbox: AgentSessionUpdate[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private last = 0;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly events: WorkerEvents,
    private readonly snapshot: () => AgentSessionSnapshot,
  ) {}

  /** Queues committed updates; they reach the page within one frame. */
  push(updates: AgentSessionUpdate[]): void {
    for (const u of updates) this.outbox.push(u);
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => void this.flush(), Math.max(0, this.last + FRAME_MS - performance.now()));
  }

  /** Sends what is queued now; resolves once the page has received everything sent so far. */
  flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.outbox.length > 0) {
      const batch = this.outbox;
      this.outbox = [];
      this.last = performance.now();
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

  private send(call: () => unknown): void {
    this.chain = this.chain.then(call).catch(() => {});
  }
}
