/**
 * The page-side {@link AgentSessionHandle}: mirrors the worker's session state, fans live updates out
 * to listeners, and turns live permission requests and questions into objects with methods.
 */
import { proxy, type Remote } from 'comlink';
import type {
  AgentElicitationRequest,
  AgentPermissionRequest,
  AgentSessionConnectOptions,
  AgentSessionHandle,
} from './api.ts';
import { SiloError } from './errors.ts';
import { trackClose } from './page-closes.ts';
import type {
  AgentContentBlock,
  AgentRequestResolution,
  AgentSessionSnapshot,
  AgentSessionUpdate,
} from './types.ts';
import type { ElicitationWire, PermissionWire, WireSnapshot, WorkerApi, WorkerEvents } from './worker-api.ts';

type Listener = (updates: readonly AgentSessionUpdate[], snapshot: AgentSessionSnapshot) => void;

/** Receives the worker's events for one handle (the object passed as a Comlink proxy). */
export class HandleEvents implements WorkerEvents {
  handle: SessionHandle | undefined;
  /** Events that arrived before the handle existed (during connect), replayed once it does. */
  private early: (() => void)[] = [];
  constructor(private readonly options: AgentSessionConnectOptions) {}

  private run(fn: (h: SessionHandle) => void): void {
    if (this.handle) fn(this.handle);
    else this.early.push(() => fn(this.handle!));
  }
  attach(handle: SessionHandle): void {
    this.handle = handle;
    for (const f of this.early.splice(0)) f();
  }
  updates(batch: AgentSessionUpdate[], snapshot: WireSnapshot): void {
    this.run((h) => h.receive(batch, snapshot));
  }
  state(snapshot: WireSnapshot): void {
    this.run((h) => h.receive([], snapshot));
  }
  permission(request: PermissionWire): void {
    this.run((h) => h.presentPermission(request, this.options));
  }
  elicitation(request: ElicitationWire): void {
    this.run((h) => h.presentElicitation(request, this.options));
  }
  requestEnded(id: string, resolution: AgentRequestResolution): void {
    this.run((h) => h.endRequest(id, resolution));
  }
}

export class SessionHandle implements AgentSessionHandle {
  private current: AgentSessionSnapshot;
  /** The revision of {@link current}: an older snapshot arriving late never replaces it. */
  private revision: number;
  private readonly listeners = new Set<Listener>();
  private readonly live = new Map<string, AbortController>();
  /** URL questions waiting for `elicitation/complete`: settle true when it arrives, false when Silo stops waiting. */
  private readonly completions = new Map<string, (completed: boolean) => void>();
  private resolveClosed: () => void = () => {};
  readonly closed: Promise<void>;

  constructor(
    private readonly api: Remote<WorkerApi>,
    private readonly handleId: string,
    snapshot: WireSnapshot,
    private readonly options: AgentSessionConnectOptions,
    /** Connects another session (the service's `connect`), for {@link fork}. */
    private readonly connect?: (options: AgentSessionConnectOptions) => Promise<AgentSessionHandle>,
  ) {
    this.current = snapshot.snapshot;
    this.revision = snapshot.revision;
    this.closed = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
  }

  get sessionId() {
    return this.current.sessionId;
  }
  get resumeOutcome() {
    return this.current.resumeOutcome;
  }
  get restoreNote() {
    return this.current.restoreNote;
  }
  get agentInfo() {
    return this.current.agentInfo;
  }
  get configOptions() {
    return this.current.configOptions;
  }
  get availableCommands() {
    return this.current.availableCommands;
  }
  get usage() {
    return this.current.usage;
  }
  get state() {
    return this.current.state;
  }
  get role() {
    return this.current.role;
  }
  get snapshot() {
    return this.current;
  }

  prompt(input: string | readonly AgentContentBlock[]): Promise<string> {
    return this.api.prompt(this.handleId, blocksOf(input));
  }
  steer(input: string | readonly AgentContentBlock[]): Promise<'steered' | 'ended'> {
    return this.api.steer(this.handleId, blocksOf(input));
  }
  fork(options: { readonly atTurn?: number } = {}): Promise<AgentSessionHandle> {
    if (!this.connect) return Promise.reject(SiloError.closed('This handle cannot open sessions'));
    const { resume: _, ...rest } = this.options;
    const at = options.atTurn !== undefined ? { atTurn: options.atTurn } : {};
    return this.connect({ ...rest, fork: { sessionId: this.current.sessionId, ...at } });
  }
  cancel(): Promise<void> {
    return this.api.cancel(this.handleId);
  }
  async takeOver(): Promise<void> {
    this.receive([], await this.api.takeOver(this.handleId));
  }
  setConfigOption(id: string, value: string | boolean): Promise<void> {
    return this.api.setConfigOption(this.handleId, id, value);
  }
  transcript(): Promise<AgentSessionUpdate[]> {
    return this.api.transcript(this.current.sessionId);
  }
  transcriptTail(count: number): Promise<AgentSessionUpdate[]> {
    return this.api.transcriptTail(this.current.sessionId, count);
  }
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  async close(): Promise<void> {
    const done = this.api.close(this.handleId);
    trackClose(this.current.sessionId, done);
    try {
      await done;
    } finally {
      this.markClosed();
    }
  }

  /** The worker (or its page) went away: end everything live. */
  markClosed(): void {
    for (const c of this.live.values()) c.abort('unanswerable' satisfies AgentRequestResolution);
    this.live.clear();
    for (const settle of this.completions.values()) settle(false);
    this.completions.clear();
    if (this.current.state !== 'closed' && this.current.state !== 'failed') {
      this.current = { ...this.current, state: 'closed', busy: false };
      this.emit([]);
    }
    this.resolveClosed();
  }

  receive(batch: AgentSessionUpdate[], snapshot: WireSnapshot): void {
    if (snapshot.revision > this.revision) {
      this.current = snapshot.snapshot;
      this.revision = snapshot.revision;
    }
    for (const u of batch) {
      const id = u.elicitation?.id;
      if (id && (u.kind === 'elicitation_complete' || u.elicitation?.resolution === 'unanswerable')) {
        this.completions.get(id)?.(u.kind === 'elicitation_complete');
        this.completions.delete(id);
      }
      this.options.onUpdate?.(u);
    }
    this.emit(batch);
    if (this.current.state === 'closed') this.resolveClosed();
  }

  private emit(batch: AgentSessionUpdate[]): void {
    this.options.onStateChange?.(this.current);
    for (const l of this.listeners) l(batch, this.current);
  }

  presentPermission(wire: PermissionWire, options: AgentSessionConnectOptions): void {
    const signal = this.track(wire.id);
    const request: AgentPermissionRequest = {
      ...wire,
      signal,
      get resolution() {
        return resolutionOf(signal);
      },
      choose: (optionId) => this.api.answerPermission(this.handleId, wire.id, optionId),
      cancel: () => this.api.answerPermission(this.handleId, wire.id, null),
    };
    options.onPermission?.(request);
  }

  presentElicitation(wire: ElicitationWire, options: AgentSessionConnectOptions): void {
    const signal = this.track(wire.id);
    let consented = false;
    const completion =
      wire.mode === 'url'
        ? new Promise<boolean>((resolve) => this.completions.set(wire.id, resolve))
        : undefined;
    const request: AgentElicitationRequest = {
      ...wire,
      signal,
      get resolution() {
        return resolutionOf(signal);
      },
      ...(completion ? { completion } : {}),
      answer: async (answers) => {
        await this.api.answerElicitation(this.handleId, wire.id, { action: 'accept', answers });
        consented = true;
      },
      decline: () => this.api.answerElicitation(this.handleId, wire.id, { action: 'decline' }),
      cancel: async () => {
        if (consented) {
          // After consent the question is answered; cancelling only stops waiting for completion.
          this.completions.get(wire.id)?.(false);
          this.completions.delete(wire.id);
          return;
        }
        await this.api.answerElicitation(this.handleId, wire.id, { action: 'cancel' });
      },
    };
    options.onElicitation?.(request);
  }

  endRequest(id: string, resolution: AgentRequestResolution): void {
    this.live.get(id)?.abort(resolution);
    this.live.delete(id);
    if (resolution === 'unanswerable') {
      this.completions.get(id)?.(false);
      this.completions.delete(id);
    }
  }

  private track(id: string): AbortSignal {
    const controller = new AbortController();
    this.live.set(id, controller);
    return controller.signal;
  }
}

/** A prompt's content blocks: a string is one text block. */
function blocksOf(input: string | readonly AgentContentBlock[]): AgentContentBlock[] {
  return typeof input === 'string' ? [{ type: 'text', text: input }] : [...input];
}

/** How a live request ended: its signal aborts only with an {@link AgentRequestResolution}. */
function resolutionOf(signal: AbortSignal): AgentRequestResolution | undefined {
  return signal.aborted ? (signal.reason as AgentRequestResolution) : undefined;
}

/** Wraps the events object for the worker. */
export function eventsProxy(events: HandleEvents): WorkerEvents {
  return proxy(events);
}
