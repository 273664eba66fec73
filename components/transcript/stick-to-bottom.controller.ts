/**
 * Stick-to-bottom for `<silo-transcript>`'s virtualized log, as a Lit reactive controller: while the
 * log is "stuck" it follows its bottom through every change of its content or size — new rows, rows
 * the virtualizer measures later than it estimated them (the reason a large session used to open a
 * few hundred pixels above its end), a resize of the element — until the user scrolls away.
 * "Jump to latest" is shown whenever it is not stuck.
 *
 * The user leaving the bottom is told apart from layout (the virtualizer corrects `scrollTop` both
 * ways as it measures rows) by intent: a wheel upward, touch, pointer or key in the log. A page script
 * that scrolls a following log should dispatch such an event first (as a user's scroll would).
 * @packageDocumentation
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { placeTailPaint } from './tail-paint.ts';

/** Within this many pixels of its end the log counts as at the bottom. */
export const BOTTOM_SLACK = 48;
/** Most frames one follow lasts while the virtualizer keeps measuring (it restarts on the next change). */
const FOLLOW_FRAMES = 240;
/** Frames the layout must hold still, with the log at its end, before a follow ends. */
const STILL_FRAMES = 3;

/** Logs whose rows were just measured → their controller's hook. */
const measuredHooks = new WeakMap<Element, () => void>();

/**
 * Tells `log`'s controller that the virtualizer has just taken new measurements of its rows in (called
 * by the ResizeObserver transcript/rows/log.ts gives the virtualizer); a log with no controller is ignored.
 */
export function logMeasured(log: Element): void {
  measuredHooks.get(log)?.();
}

/** What the controller needs from its element. */
export interface StickToBottomHost extends ReactiveControllerHost, HTMLElement {}

/**
 * Keeps a scrolling log at its bottom while {@link stuck}. `log()` finds the log element (after the
 * first render); `follows()` says whether the current source opens at its end and follows new rows
 * (a live or journaled session) rather than opening at the top (an array, a file); `opened()` whether
 * the source has finished opening (a journal: the whole of it folded in, not only its tail), so that
 * holding still ends {@link opening}.
 */
export class StickToBottomController implements ReactiveController {
  /** Whether the log follows its bottom; the host hides "Jump to latest" while it does. */
  stuck = true;
  /**
   * A new source is opening and the log has not yet held still at its end (or been let go of): the
   * host draws its tail paint (transcript/tail-paint.ts) over the log meanwhile. Set by {@link reset}.
   */
  opening = true;
  #userIntent = false;
  #following = false;
  #observed: Element | undefined;
  #viewHeight = 0;
  #resize = new ResizeObserver(() => this.#onResize());

  constructor(
    private readonly host: StickToBottomHost,
    private readonly log: () => HTMLElement | null,
    private readonly follows: () => boolean,
    private readonly opened: () => boolean = follows,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.#resize.observe(this.host);
    this.#attach();
  }

  hostDisconnected(): void {
    this.#resize.disconnect();
    if (this.#observed) measuredHooks.delete(this.#observed);
    this.#observed = undefined;
  }

  hostUpdated(): void {
    this.#attach();
    const log = this.log();
    if (log && this.opening) placeTailPaint(log);
    if (this.stuck && this.follows()) this.follow();
  }

  /** A new source: stuck again, no user scroll remembered, opening. */
  reset(): void {
    this.#userIntent = false;
    this.opening = true;
    this.#set(true);
  }

  /** Scrolls to the latest row and sticks to the bottom again. */
  scrollToLatest(): void {
    this.#userIntent = false;
    this.#set(true);
    this.follow();
  }

  /** The log's distance from its end, in pixels (0 when there is no log yet). */
  gap(): number {
    const log = this.log();
    return log ? log.scrollHeight - log.scrollTop - log.clientHeight : 0;
  }

  /** Follows the bottom frame by frame until the layout holds still with the log at its end. */
  follow(): void {
    const log = this.log();
    if (!log) return;
    this.#write(log);
    if (this.#following) return;
    this.#following = true;
    let height = -1;
    let still = 0;
    const step = (frames: number) => {
      if (!this.stuck || this.#userIntent || !log.isConnected || frames > FOLLOW_FRAMES) {
        this.#following = false;
        this.#opened();
        return;
      }
      still = log.scrollHeight === height && this.gap() <= 1 ? still + 1 : 0;
      height = log.scrollHeight;
      if (still >= STILL_FRAMES) {
        this.#following = false;
        if (this.opened()) this.#opened();
        return;
      }
      this.#write(log);
      requestAnimationFrame(() => step(frames + 1));
    };
    requestAnimationFrame(() => step(0));
  }

  /** The log's `scroll` listener. */
  onScroll = (): void => {
    const log = this.log();
    if (!log) return;
    if (this.gap() <= BOTTOM_SLACK) {
      this.#userIntent = false;
      this.#set(true);
    } else if (this.#userIntent) {
      this.#set(false);
    }
  };

  /** The log's wheel (upward), touch, pointer and key listener: the user may be about to scroll. */
  onUserIntent = (): void => {
    this.#userIntent = true;
    this.#opened();
  };

  /** The log held still at its end, or was let go of: no more tail paint. */
  #opened(): void {
    if (!this.opening) return;
    this.opening = false;
    this.host.requestUpdate();
  }

  #write(log: HTMLElement): void {
    log.scrollTop = log.scrollHeight;
  }

  /** Sets {@link stuck} (keyboard navigation to the last row sticks, to any other row unsticks). */
  setStuck(stuck: boolean): void {
    this.#set(stuck);
  }

  #set(stuck: boolean): void {
    if (this.stuck === stuck) return;
    this.stuck = stuck;
    this.host.requestUpdate();
  }

  #attach(): void {
    const log = this.log();
    if (!log || log === this.#observed) return;
    if (this.#observed) measuredHooks.delete(this.#observed);
    this.#observed = log;
    this.#viewHeight = log.clientHeight;
    this.#resize.observe(log);
    measuredHooks.set(log, () => {
      if (this.stuck && !this.#userIntent && this.follows()) this.follow();
    });
  }

  /** The element or its view resized: a log that was at its bottom stays there. */
  #onResize(): void {
    const log = this.log();
    if (!log) return;
    const before = this.#viewHeight;
    this.#viewHeight = log.clientHeight;
    if (before === log.clientHeight || !this.stuck || this.#userIntent) return;
    // A source that does not follow its end (an array, a file) stays put unless it was at its end.
    if (this.follows() || log.scrollHeight - log.scrollTop - before <= BOTTOM_SLACK) this.follow();
  }
}
