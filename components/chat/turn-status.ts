/**
 * The running turn as `<silo-chat>`'s composer shows it in its status row (composer-views.ts): how
 * long it has run (a clock that renders the element again each second while it runs), and what
 * became of the messages sent during it — into the turn (the agent steers), or held by the agent
 * behind it (it queues prompts). The composer (composer.controller.ts) says when each happens.
 * @packageDocumentation
 */
import type { ReactiveControllerHost } from 'lit';
import type { AgentSessionSnapshot } from '../../src/index.ts';
import type { TurnStatus } from './composer-views.ts';

/**
 * The status of the element's running turn, kept between its updates: the clock starts when a turn
 * starts and stops when it ends (or the element is removed); a steered message is said until the
 * next turn starts; the messages the agent holds are forgotten once it holds none and no turn runs.
 */
export class TurnStatusTracker {
  /** Messages sent during the turn that the agent holds behind it (it queues prompts), oldest first. */
  #agentQueued: string[] = [];
  /** A message went into the running turn (the agent steers): said until the next turn starts. */
  #steered = false;
  /** When the running turn started (`performance.now()`), undefined while idle. */
  #busySince: number | undefined;
  #tick: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly snapshot: () => AgentSessionSnapshot | undefined,
  ) {}

  /** After each update of the element, with whether a turn runs now: a turn started, or ended. */
  updated(busy: boolean): void {
    if (busy && this.#busySince === undefined) {
      this.#busySince = performance.now();
      this.#steered = false; // said of the turn before
      this.#tick = setInterval(() => this.host.requestUpdate(), 1000);
    } else if (!busy && this.#busySince !== undefined) this.stopClock();
    if (!busy && !this.snapshot()?.queuedPrompts) this.#agentQueued = [];
  }

  /** A message went into the running turn. */
  steered(): void {
    this.#steered = true;
  }

  /** A message sent during the turn went to the agent, which holds it behind that turn. */
  agentQueued(text: string): void {
    this.#agentQueued.push(text);
  }

  /** The messages the agent still holds: the last `queuedPrompts` sent during the turn. */
  #held(): readonly string[] {
    const n = this.snapshot()?.queuedPrompts ?? 0;
    return n > 0 ? this.#agentQueued.slice(-n) : [];
  }

  stopClock(): void {
    clearInterval(this.#tick);
    this.#tick = undefined;
    this.#busySince = undefined;
  }

  /** The turn as the status row shows it, `busy` while it runs. */
  status(busy: boolean): TurnStatus {
    const seconds =
      this.#busySince === undefined ? 0 : Math.floor((performance.now() - this.#busySince) / 1000);
    return {
      busy,
      seconds,
      steered: this.#steered,
      agentQueued: this.#held(),
      waitingOn: this.snapshot()?.activity?.waitingOn,
    };
  }
}
