/**
 * `<silo-transcript>`: renders a session's transcript, live or recorded, virtualized.
 * @packageDocumentation
 */
import { flow } from '@lit-labs/virtualizer/layouts/flow.js';
import { provideResizeObserver } from '@lit-labs/virtualizer/polyfillLoaders/ResizeObserver.js';
import { type VirtualizerHostElement, virtualize, virtualizerRef } from '@lit-labs/virtualizer/virtualize.js';
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import {
  type AgentElicitationRequest,
  type AgentPermissionRequest,
  type AgentSessionHandle,
  type AgentSessionUpdate,
  type AgentsService,
  parseJsonl,
  SiloError,
  TranscriptModel,
  type TranscriptRow,
} from '../src/index.ts';
import { copyStyles } from './copy.ts';
import { defaultTranscriptStrings, mergeStrings, type SiloTranscriptStrings } from './strings.ts';
import { theme } from './theme.ts';
import { type PromptState, type RowContext, renderRow, renderUsage } from './transcript-rows.ts';
import { transcriptStyles } from './transcript-styles.ts';

/** Detail of `silo-load-error`. */
export interface SiloLoadErrorDetail {
  readonly error: SiloError;
}

/** Detail of `silo-permission-answered`. */
export interface SiloPermissionAnsweredDetail {
  readonly id: string;
  readonly optionId: string;
}

declare global {
  interface GlobalEventHandlersEventMap {
    'silo-load-error': CustomEvent<SiloLoadErrorDetail>;
    'silo-permission-answered': CustomEvent<SiloPermissionAnsweredDetail>;
  }
}

const BOTTOM_SLACK = 48;
/** Updates folded and painted before the whole journal of a reopened session is read. */
const TAIL_FIRST = 400;
/** Most frames the log follows its bottom while the virtualizer measures rows. */
const STICK_FRAMES = 120;

/** The layout, given rather than loaded on demand (no dynamic import; one config for every render). */
const LAYOUT = flow();

let observerProvided = false;

/**
 * Gives the virtualizer a ResizeObserver whose callbacks run in the next animation frame: measuring
 * rows inside the observer callback otherwise trips the browser's "ResizeObserver loop completed with
 * undelivered notifications" error on the host page. Done once, when the first transcript is created.
 */
function provideFrameResizeObserver(): void {
  if (observerProvided) return;
  observerProvided = true;
  class FrameResizeObserver extends ResizeObserver {
    constructor(callback: ResizeObserverCallback) {
      super((entries, observer) => requestAnimationFrame(() => callback(entries, observer)));
    }
  }
  provideResizeObserver(FrameResizeObserver);
}

/**
 * Renders a transcript: message bubbles (agent text as sanitized Markdown), collapsible thoughts,
 * tool calls with their status, locations, content and line diffs, the plan as a checklist, notices,
 * compactions, permission prompts (live ones with every option the agent offered), questions through
 * `<silo-elicitation>`, and turn ends. Long transcripts are virtualized, so the DOM stays small.
 *
 * Sources, the same rendering for all: a live {@link AgentSessionHandle} (`session`); a journaled
 * session read offline (`service` + `session-id`); a plain array of updates (`updates`); a JSONL
 * export (`src` URL or `file`). The most recently set source wins.
 *
 * While streaming it re-renders at most once per animation frame and sticks to the bottom unless the
 * user scrolled up, in which case a "Jump to latest" button appears. A polite live region announces
 * when a turn starts and ends (the log itself is not live, so tokens are not read out).
 * Keyboard, with focus in the log: ArrowUp/ArrowDown move between turns, Alt+ArrowUp/Alt+ArrowDown
 * between pending prompts, Home/End to the first/last row. On a live permission prompt Escape moves
 * focus to its "reject once" option without answering (Enter then rejects); in a question, Escape
 * leaves the field it is in and never cancels (see `<silo-elicitation>`).
 *
 * @example
 * ```html
 * <silo-transcript src="/exports/session.jsonl"></silo-transcript>
 * ```
 *
 * @fires silo-load-error - The source could not be read (detail: `{ error }`, a `SiloError`).
 * @fires silo-permission-answered - The user answered a live permission prompt (detail: `{ id, optionId }`).
 *
 * @csspart usage - The usage header (context meter and cost).
 * @csspart usage-meter - The context meter (`<meter>`).
 * @csspart usage-cost - The cost.
 * @csspart log - The scrolling log (`role="log"`).
 * @csspart row - Every row.
 * @csspart message - A user or agent message row; also `message-user`, `message-agent`.
 * @csspart thought - A thought row.
 * @csspart tool - A tool-call row; inside it `tool-kind`, `tool-title`, `tool-status`, `tool-locations`.
 * @csspart diff - A line diff; `diff-new` is the "new file" badge.
 * @csspart plan - The plan row; `plan-list` is its checklist.
 * @csspart notice - A notice row; also `notice-info`, `notice-warning`, `notice-error`, `notice-other`.
 * @csspart compaction - A compaction row.
 * @csspart permission - A permission row; `permission-options`, `permission-option`, `permission-resolution` inside.
 * @csspart elicitation - A question row (holds `<silo-elicitation>`).
 * @csspart turn-end - A turn-end row.
 * @csspart unknown - A row for an update of an unknown kind.
 * @csspart image - An image block.
 * @csspart resource-link - A resource link; `resource` an embedded resource.
 * @csspart placeholder - Content that cannot be shown (unsupported block type).
 * @csspart excluded - The badge on messages a refusal dropped from the agent's context.
 * @csspart pending - Live prompts whose journaled row has not arrived yet (below the log).
 * @csspart jump - The "Jump to latest" button.
 * @csspart empty - The text shown when there is nothing yet.
 *
 * @cssprop [--silo-color-bg] - Background (light `#ffffff`, dark `#15171c`).
 * @cssprop [--silo-color-fg] - Text color.
 * @cssprop [--silo-color-muted] - Secondary text.
 * @cssprop [--silo-color-border] - Borders.
 * @cssprop [--silo-color-accent] - Links, focus rings, primary buttons.
 * @cssprop [--silo-color-accent-fg] - Text on accent.
 * @cssprop [--silo-color-surface] - Cards (tool calls, plan, prompts).
 * @cssprop [--silo-color-user-bg] - The user's message bubbles.
 * @cssprop [--silo-color-agent-bg] - The agent's messages (transparent by default).
 * @cssprop [--silo-color-code-bg] - Code blocks.
 * @cssprop [--silo-color-added] - Added diff lines.
 * @cssprop [--silo-color-removed] - Removed diff lines.
 * @cssprop [--silo-color-info] - Info notices, running tools.
 * @cssprop [--silo-color-warning] - Warnings, cancelled.
 * @cssprop [--silo-color-danger] - Errors, failures, refusals.
 * @cssprop [--silo-color-success] - Completed.
 * @cssprop [--silo-font-family] - Text font.
 * @cssprop [--silo-font-family-mono] - Code font.
 * @cssprop [--silo-font-size] - Base font size (14px).
 * @cssprop [--silo-radius] - Corner radius (10px).
 * @cssprop [--silo-spacing] - Row padding (12px).
 * @cssprop [--silo-content-max-width] - Maximum row width.
 * @cssprop [--silo-transcript-min-height] - Minimum height (16rem); give the element a height to fill.
 */
export class SiloTranscript extends LitElement {
  static override styles = [theme, transcriptStyles, copyStyles];

  static override properties = {
    session: { attribute: false },
    service: { attribute: false },
    sessionId: { attribute: 'session-id' },
    updates: { attribute: false },
    src: {},
    file: { attribute: false },
    permissionRequests: { attribute: false },
    elicitationRequests: { attribute: false },
    strings: { attribute: false },
    locale: {},
    stuck: { state: true, attribute: false },
    loadError: { state: true, attribute: false },
    announcement: { state: true, attribute: false },
  };

  /** A live session: its journal is rendered, then every live batch. */
  declare session: AgentSessionHandle | undefined;
  /** With `sessionId`: read that session's journal offline. */
  declare service: AgentsService | undefined;
  /** With `service`: the journaled session to render. */
  declare sessionId: string | undefined;
  /** A plain array of updates. Setting a longer array that extends the previous one only applies the tail. */
  declare updates: readonly AgentSessionUpdate[] | undefined;
  /** URL of a JSONL export to render. */
  declare src: string | undefined;
  /** A JSONL export file to render. */
  declare file: Blob | undefined;
  /** Live permission requests (from `onPermission`); their rows render as answerable prompts. */
  declare permissionRequests: readonly AgentPermissionRequest[];
  /** Live questions (from `onElicitation`); their rows render a live `<silo-elicitation>`. */
  declare elicitationRequests: readonly AgentElicitationRequest[];
  /** Replacement strings for localization (partial; English by default). */
  declare strings: Partial<SiloTranscriptStrings> | undefined;
  /** BCP 47 locale for numbers, dates and currency (default: the browser's). */
  declare locale: string | undefined;
  declare private stuck: boolean;
  declare private loadError: string | undefined;
  declare private announcement: string;

  #model = new TranscriptModel();
  #rows: TranscriptRow[] = [];
  #generation = 0;
  #unsubscribe: (() => void) | undefined;
  #loading: Promise<void> = Promise.resolve();
  #frame = 0;
  #framePromise: Promise<void> | undefined;
  #frameResolve: (() => void) | undefined;
  #userScrolled = false;
  #prompts = new Map<string, PromptState>();
  #seenRequests = new WeakSet<object>();
  #focusPrompt: string | undefined;
  #orphanFocused: string | undefined;
  /** The option last focused in a prompt's stand-in (by prompt id): its row's same option takes focus. */
  #standInOption = new Map<string, string>();
  #appliedUpdates: readonly AgentSessionUpdate[] | undefined;
  #live = false;
  /** A reopened journal opens at its end and stays there while its rows are measured. */
  #openAtEnd = false;
  /** True while {@link #stickToBottom} follows the bottom frame by frame. */
  #sticking = false;
  /** The latest cost reported (cumulative for the session): a later usage update without one keeps it. */
  #cost: { amount: number; currency: string } | undefined;

  constructor() {
    super();
    provideFrameResizeObserver();
    this.permissionRequests = [];
    this.elicitationRequests = [];
    this.stuck = true;
    this.announcement = '';
  }

  /** The transcript model being rendered (rows and session state). Read-only for callers. */
  get model(): TranscriptModel {
    return this.#model;
  }

  /**
   * Applies more updates to what is shown (for example live batches from a source the element does
   * not own). Rendering follows within one animation frame.
   */
  appendUpdates(updates: readonly AgentSessionUpdate[]): void {
    this.#apply(updates, true);
  }

  /** Scrolls to the latest row and sticks to the bottom again. */
  scrollToLatest(): void {
    this.stuck = true;
    this.#userScrolled = false;
    this.#stickToBottom();
  }

  /** Moves focus to the row at `index` (scrolling it into view). Resolves once it is focused. */
  async focusRow(index: number): Promise<void> {
    if (index < 0 || index >= this.#rows.length) return;
    await this.updateComplete;
    const el = await this.#reveal(index);
    el?.focus({ preventScroll: true });
  }

  /** Keeps the log at its bottom across resizes (window, phone rotation, a banner coming or going). */
  #resize = new ResizeObserver(() => {
    const log = this.#log;
    if (!log) return;
    const before = this.#viewHeight;
    this.#viewHeight = log.clientHeight;
    // Only a change of the view's own height (the element resized, the usage header appeared), and
    // only if the view was at its bottom before it.
    if (before === log.clientHeight || !this.stuck || this.#userScrolled) return;
    if (log.scrollHeight - log.scrollTop - before <= BOTTOM_SLACK) this.#stickToBottom();
  });
  #viewHeight = 0;

  override connectedCallback(): void {
    super.connectedCallback();
    this.#resize.observe(this);
    const log = this.#log;
    if (log) this.#resize.observe(log);
    if (this.hasUpdated) this.#load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#resize.disconnect();
    this.#teardown();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const sources = ['session', 'service', 'sessionId', 'src', 'file'] as const;
    if (sources.some((k) => changed.has(k))) this.#load();
    else if (changed.has('updates')) this.#setUpdates();
    if (changed.has('permissionRequests') || changed.has('elicitationRequests')) this.#adoptRequests();
  }

  protected override firstUpdated(): void {
    const log = this.#log;
    if (log) this.#resize.observe(log);
  }

  protected override updated(): void {
    const id = this.#focusPrompt;
    if (id !== undefined) {
      // Focus follows the prompt: into the pending area now, into the log once its row arrived
      // (unless the user moved focus elsewhere meanwhile).
      if (this.#renderedIndex(id) >= 0) {
        this.#focusPrompt = undefined;
        // Unless the user is busy elsewhere on the page, the prompt takes focus.
        const active = document.activeElement;
        if (!active || active === document.body || this.matches(':focus-within'))
          void this.#focusPromptRow(id);
      } else if (this.#orphanFocused !== id && this.#orphans().some((r) => r.key.endsWith(`:${id}`))) {
        this.#orphanFocused = id;
        void this.#focusPromptRow(id);
      }
    }
    if (this.stuck && (this.#live || this.#openAtEnd)) this.#stickToBottom();
  }

  /** Resolves when the current source is loaded and its rows are rendered. */
  protected override async getUpdateComplete(): Promise<boolean> {
    let result = await super.getUpdateComplete();
    // A source load or a scheduled frame may start during that update: wait for them too.
    for (let i = 0; i < 20; i++) {
      const loading = this.#loading;
      const frame = this.#framePromise;
      await loading;
      if (frame) await frame;
      if (loading === this.#loading && !this.#framePromise && !this.isUpdatePending) break;
      result = await super.getUpdateComplete();
    }
    return result;
  }

  #teardown(): void {
    this.#generation++;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#frameResolve?.();
    this.#framePromise = undefined;
  }

  #reset(): void {
    this.#openAtEnd = false;
    this.#cost = undefined;
    this.#model = new TranscriptModel();
    this.#rows = [];
    this.#appliedUpdates = undefined;
    this.loadError = undefined;
    this.#live = false;
    // Live requests outlive a source change: their rows come back with the new model.
    this.#seenRequests = new WeakSet();
  }

  #load(): void {
    this.#teardown();
    this.#reset();
    const gen = this.#generation;
    const fail = (e: unknown) => {
      if (gen !== this.#generation) return;
      const error = SiloError.from(e);
      this.loadError = error.message;
      this.dispatchEvent(
        new CustomEvent('silo-load-error', { detail: { error }, bubbles: true, composed: true }),
      );
    };
    let job: Promise<unknown> = Promise.resolve();
    if (this.session) {
      const handle = this.session;
      let ready = false;
      const early: (readonly AgentSessionUpdate[])[] = [];
      this.#live = true;
      this.#unsubscribe = handle.subscribe((batch) => {
        if (gen !== this.#generation) return;
        if (ready) this.#apply(batch, true);
        else early.push(batch);
      });
      job = handle.transcript().then((all) => {
        if (gen !== this.#generation) return;
        this.#apply(all, false);
        ready = true;
        for (const b of early) this.#apply(b, false);
      });
    } else if (this.service && this.sessionId) {
      // The last screen first: fold the tail and paint it stuck to the bottom, then fold everything
      // into a fresh model and swap it in (rows are keyed, so the visible end stays where it is).
      const { service, sessionId } = this;
      job = service
        .transcriptTail(sessionId, TAIL_FIRST)
        .then((tail) => {
          if (gen !== this.#generation) return undefined;
          this.#openAtEnd = true;
          this.#apply(tail, false);
          return tail.length < TAIL_FIRST ? undefined : service.transcript(sessionId);
        })
        .then((all) => {
          if (!all || gen !== this.#generation) return;
          this.#model = new TranscriptModel();
          this.#apply(all, false);
        });
    } else if (this.file) {
      job = this.file.text().then((t) => gen === this.#generation && this.#apply(parseJsonl(t), false));
    } else if (this.src) {
      const url = this.src;
      job = fetch(url)
        .then((r) => {
          if (!r.ok) throw new SiloError('invalid-params', `HTTP ${r.status} for ${url}`);
          return r.text();
        })
        .then((t) => gen === this.#generation && this.#apply(parseJsonl(t), false));
    } else if (this.updates) {
      this.#setUpdates();
    }
    this.#adoptRequests();
    this.#loading = job.then(() => {}, fail);
  }

  #setUpdates(): void {
    const next = this.updates ?? [];
    const prev = this.#appliedUpdates;
    const extends_ =
      prev !== undefined &&
      next.length >= prev.length &&
      (prev.length === 0 || (next[0] === prev[0] && next[prev.length - 1] === prev[prev.length - 1]));
    if (!extends_) {
      if (prev !== undefined) {
        this.#cost = undefined;
        this.#model = new TranscriptModel();
        this.#seenRequests = new WeakSet();
        this.#adoptRequests();
      }
      this.#apply(next, false);
    } else {
      this.#apply(next.slice(prev.length), true);
    }
    this.#appliedUpdates = next;
  }

  #apply(updates: readonly AgentSessionUpdate[], live: boolean): void {
    const started = this.#model.turnsStarted;
    const ended = this.#model.turnsEnded;
    this.#model.applyAll(updates);
    for (const u of updates) {
      const cost = u.kind === 'usage_update' ? u.usage?.cost : undefined;
      if (cost && Number.isFinite(cost.amount) && typeof cost.currency === 'string') this.#cost = cost;
    }
    if (live) {
      this.#live = true;
      const s = this.#strings();
      const last = this.#model.rows.at(-1);
      if (this.#model.turnsEnded > ended && last?.type === 'turn-end') {
        this.announcement = s.turnEnded(describeStop(last.stopReason, s));
      } else if (this.#model.turnsStarted > started) {
        this.announcement = s.turnStarted;
      }
    }
    this.#schedule();
  }

  /** Renders at most once per animation frame. */
  #schedule(): void {
    if (this.#frame) return;
    this.#framePromise = new Promise((resolve) => {
      this.#frameResolve = resolve;
    });
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#rows = this.#model.rows.slice();
      this.requestUpdate();
      const resolve = this.#frameResolve;
      this.#framePromise = undefined;
      this.#frameResolve = undefined;
      resolve?.();
    });
  }

  /**
   * Live requests are not written into the model: their rows come from the journal (in journal
   * order). Until a request's row arrives it is shown in a pending area below the log.
   */
  #adoptRequests(): void {
    for (const req of [...(this.permissionRequests ?? []), ...(this.elicitationRequests ?? [])]) {
      if (this.#seenRequests.has(req)) continue;
      this.#seenRequests.add(req);
      req.signal.addEventListener('abort', () => this.#schedule(), { once: true });
      if (!req.signal.aborted) this.#focusPrompt = req.id;
    }
    this.#schedule();
  }

  /** Live, unanswered requests whose journaled row has not arrived yet, as stand-in rows. */
  #orphans(): TranscriptRow[] {
    const out: TranscriptRow[] = [];
    const turn = this.#model.current.turn;
    for (const req of this.permissionRequests ?? []) {
      if (req.signal.aborted || this.#renderedRow(`p:${req.id}`) >= 0) continue;
      out.push({
        type: 'permission',
        key: `p:${req.id}`,
        turn,
        record: { id: req.id, toolCall: req.toolCall, options: req.options },
      });
    }
    for (const req of this.elicitationRequests ?? []) {
      if (req.signal.aborted || this.#renderedRow(`e:${req.id}`) >= 0) continue;
      out.push({
        type: 'elicitation',
        key: `e:${req.id}`,
        turn,
        record: {
          id: req.id,
          message: req.message,
          mode: req.mode,
          questions: req.questions,
          acknowledgeOnly: req.acknowledgeOnly,
          toolCallId: req.toolCallId,
          url: req.url,
          unsupported: req.unsupported,
        },
      });
    }
    return out;
  }

  /** The index of the row with `key` once it is among the rendered rows, else -1. */
  #renderedRow(key: string): number {
    const index = this.#model.indexOf(key);
    return index < this.#rows.length ? index : -1;
  }

  #strings(): SiloTranscriptStrings {
    return mergeStrings(defaultTranscriptStrings, this.strings);
  }

  #context(): RowContext {
    const strings = this.#strings();
    return {
      strings,
      locale: this.locale,
      permission: (id) => this.permissionRequests.find((r) => r.id === id),
      elicitation: (id) => this.elicitationRequests.find((r) => r.id === id),
      promptState: (id) => this.#prompts.get(id) ?? {},
      choose: (req, optionId) => void this.#choose(req, optionId),
    };
  }

  async #choose(req: AgentPermissionRequest, optionId: string): Promise<void> {
    this.#prompts.set(req.id, { busy: true });
    this.#schedule();
    try {
      await req.choose(optionId);
      this.#prompts.set(req.id, { chosen: optionId });
      this.dispatchEvent(
        new CustomEvent('silo-permission-answered', {
          detail: { id: req.id, optionId },
          bubbles: true,
          composed: true,
        }),
      );
    } catch (e) {
      // Fail closed: nothing is assumed allowed; the prompt stays answerable unless it was withdrawn.
      this.#prompts.set(req.id, { error: SiloError.from(e).message });
    }
    this.#schedule();
  }

  get #log(): (HTMLElement & VirtualizerHostElement) | null {
    return this.renderRoot.querySelector<HTMLElement>('.log');
  }

  #atBottom(): boolean {
    const log = this.#log;
    return !log || log.scrollHeight - log.scrollTop - log.clientHeight <= BOTTOM_SLACK;
  }

  #stickToBottom(): void {
    const log = this.#log;
    if (!log) return;
    // The virtualizer pins the last row to the end while it measures rows it only estimated;
    // the plain scroll (now and after one frame) covers a log it has not laid out yet.
    log.scrollTop = log.scrollHeight;
    if (this.#sticking) return;
    // Rows the virtualizer only estimated change the height as they are measured: follow the bottom
    // on each frame until the height holds for a few frames (or the user scrolls away).
    this.#sticking = true;
    let height = -1;
    let stable = 0;
    const follow = (frames: number) => {
      if (!this.stuck || this.#userScrolled || frames > STICK_FRAMES || stable >= 3) {
        this.#sticking = false;
        return;
      }
      stable = log.scrollHeight === height ? stable + 1 : 0;
      height = log.scrollHeight;
      log.scrollTop = log.scrollHeight;
      requestAnimationFrame(() => follow(frames + 1));
    };
    requestAnimationFrame(() => follow(0));
  }

  #onScroll = (): void => {
    if (this.#atBottom()) {
      this.stuck = true;
      this.#userScrolled = false;
    } else if (this.#userScrolled) {
      this.stuck = false;
    }
  };

  #onUserScrollIntent = (): void => {
    this.#userScrolled = true;
  };

  /** Scrolls row `index` into view inside the log (never the page) and returns its element. */
  async #reveal(index: number): Promise<HTMLElement | null> {
    const log = this.#log;
    if (!log) return null;
    const find = () => log.querySelector<HTMLElement>(`:scope > .row[data-index="${index}"]`);
    let el = find();
    if (!el) {
      log[virtualizerRef]?.element(index)?.scrollIntoView({ block: 'center' });
      for (let i = 0; i < 10 && !el; i++) {
        await new Promise((r) => requestAnimationFrame(r));
        el = find();
      }
    }
    if (el) {
      const top = el.getBoundingClientRect().top - log.getBoundingClientRect().top;
      if (top < 0 || top + el.offsetHeight > log.clientHeight) log.scrollTop += top - log.clientHeight / 3;
    }
    return el;
  }

  /** The index of a prompt's row once it is among the rendered rows, else -1. */
  #renderedIndex(id: string): number {
    const p = this.#renderedRow(`p:${id}`);
    return p >= 0 ? p : this.#renderedRow(`e:${id}`);
  }

  /** Focuses a live prompt: its row in the log, or its stand-in in the pending area. */
  async #focusPromptRow(id: string): Promise<void> {
    const index = this.#renderedIndex(id);
    const row =
      index >= 0 ? await this.#reveal(index) : this.renderRoot.querySelector<HTMLElement>('.pending');
    const prompt = row?.querySelector<HTMLElement>(`[data-prompt="${CSS.escape(id)}"]`);
    // Focus already inside (a question focuses its first field itself): keystrokes must not be lost.
    if (!prompt || prompt.matches(':focus-within')) return;
    const question = prompt.querySelector('silo-elicitation');
    const option = index >= 0 ? this.#standInOption.get(id) : undefined;
    const button = option
      ? prompt.querySelector<HTMLElement>(`button[data-option="${CSS.escape(option)}"]:not([disabled])`)
      : null;
    if (question) question.focusFirst();
    else (button ?? prompt).focus({ preventScroll: true });
  }

  /** Remembers the option focused in a stand-in, for when its row replaces it (see #focusPromptRow). */
  #onStandInFocus = (e: FocusEvent): void => {
    const target = e.target as HTMLElement;
    const id = target.closest('[data-prompt]')?.getAttribute('data-prompt');
    const option = target.getAttribute('data-option');
    if (id && option) this.#standInOption.set(id, option);
  };

  #onKeydown = (e: KeyboardEvent): void => {
    if (e.ctrlKey || e.metaKey || e.shiftKey) return;
    const log = this.#log;
    const current = (e.composedPath().find((n) => n instanceof HTMLElement && n.classList.contains('row')) ??
      null) as HTMLElement | null;
    const from = current ? Number(current.dataset.index) : -1;
    let target = -1;
    const rows = this.#rows;
    const isTurn = (r: TranscriptRow) => r.type === 'message' && r.role === 'user';
    const isPending = (r: TranscriptRow) =>
      (r.type === 'permission' &&
        !r.record.resolution &&
        this.permissionRequests.some((q) => q.id === r.record.id && !q.signal.aborted)) ||
      (r.type === 'elicitation' &&
        !r.record.resolution &&
        this.elicitationRequests.some((q) => q.id === r.record.id && !q.signal.aborted));
    const match = e.altKey ? isPending : isTurn;
    if (e.key === 'ArrowDown') {
      for (let i = from + 1; i < rows.length; i++)
        if (match(rows[i]!)) {
          target = i;
          break;
        }
    } else if (e.key === 'ArrowUp') {
      for (let i = (from < 0 ? rows.length : from) - 1; i >= 0; i--)
        if (match(rows[i]!)) {
          target = i;
          break;
        }
    } else if (e.key === 'Home' && !e.altKey) target = 0;
    else if (e.key === 'End' && !e.altKey) target = rows.length - 1;
    else return;
    e.preventDefault();
    if (target >= 0 && log) {
      this.stuck = target === rows.length - 1;
      void this.focusRow(target);
    }
  };

  override render() {
    const s = this.#strings();
    const ctx = this.#context();
    const reported = this.#model.current.usage;
    const usage = reported && !reported.cost && this.#cost ? { ...reported, cost: this.#cost } : reported;
    const orphans = this.#orphans();
    return html`
      ${usage ? renderUsage(usage, ctx) : nothing}
      <div
        class="log"
        part="log"
        role="log"
        aria-live="off"
        aria-label=${s.transcriptLabel}
        tabindex="0"
        @scroll=${this.#onScroll}
        @wheel=${(e: WheelEvent) => e.deltaY < 0 && this.#onUserScrollIntent()}
        @touchmove=${this.#onUserScrollIntent}
        @pointerdown=${this.#onUserScrollIntent}
        @keydown=${(e: KeyboardEvent) => {
          this.#onUserScrollIntent();
          this.#onKeydown(e);
        }}
      >
        ${virtualize({
          items: this.#rows,
          // The virtualizer may still ask for an index past the end in the render the list shrinks in
          // (its range is from the last layout): such an index is its own key and renders nothing.
          keyFunction: (row: TranscriptRow | undefined, i: number) => row?.key ?? i,
          renderItem: (row: TranscriptRow | undefined, i: number) => (row ? renderRow(row, i, ctx) : html``),
          scroller: true,
          layout: LAYOUT,
        })}
      </div>
      ${
        orphans.length
          ? html`<div class="pending" part="pending" @focusin=${this.#onStandInFocus}>
              ${orphans.map((row) => renderRow(row, -1, ctx))}
            </div>`
          : nothing
      }
      ${
        this.#rows.length === 0 && orphans.length === 0
          ? html`<div class="empty" part="empty">${this.loadError ? s.loadFailed(this.loadError) : s.empty}</div>`
          : nothing
      }
      <button type="button" class="jump" part="jump" ?hidden=${this.stuck} @click=${() => this.scrollToLatest()}>
        ${s.jumpToLatest}
      </button>
      <div class="sr-only" role="status" aria-live="polite">${this.announcement}</div>
    `;
  }
}

function describeStop(reason: string, s: SiloTranscriptStrings): string {
  switch (reason) {
    case 'end_turn':
    case 'cancelled':
    case 'refusal':
    case 'max_tokens':
    case 'max_turn_requests':
    case 'interrupted':
      return s.stop[reason];
    case 'error':
      return s.stop.error('');
    default:
      return s.stop.other(reason);
  }
}
