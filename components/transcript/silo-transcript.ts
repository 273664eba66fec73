/**
 * `<silo-transcript>`: renders a session's transcript, live or recorded, virtualized.
 * This module holds the element's state and API; its controllers are made and tied to each other in
 * `transcript/wiring.ts`, its template is in `transcript/view.ts`.
 * @packageDocumentation
 */
import type { PropertyValues } from 'lit';
import type {
  AgentElicitationRequest,
  AgentPermissionRequest,
  AgentSessionHandle,
  AgentSessionUpdate,
  AgentsService,
  TranscriptModel,
  TranscriptRow,
} from '../../src/index.ts';
import { SiloElement } from '../shared/silo-element.ts';
import {
  defaultTranscriptStrings,
  mergeStrings,
  type SiloTranscriptStrings,
  type StringsOverride,
} from '../shared/strings/strings.ts';
import { theme } from '../shared/theme.styles.ts';
import { turnAnnouncement } from './announce.ts';
import type { SiloFindResult } from './find/find.controller.ts';
import { findStyles } from './find/find.styles.ts';
import { FirstRowsController } from './first-rows.controller.ts';
import { transcriptLog } from './log.lazy.ts';
import { transcriptStyles } from './silo-transcript.styles.ts';
import { tailPaintStyles } from './tail-paint.styles.ts';
import { lastTurnEndKey, renderTranscript, rowContext } from './view.ts';
import { transcriptControllers } from './wiring.ts';

export type {
  SiloBranchDetail,
  SiloLoadErrorDetail,
  SiloPermissionAnsweredDetail,
  SiloTurnActionDetail,
} from './events.ts';
export type { SiloFindResult } from './find/find.controller.ts';

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
 * @fires silo-find - A find's result changed (detail: `{ query, current, total, searching }`; see {@link find}).
 * @fires silo-permission-answered - The user answered a live permission prompt (detail: `{ id, optionId }`).
 * @fires silo-branch - With `branchable`: the user chose "Branch from here" on a turn's end (detail: `{ turn }`,
 *   the turn's number, for `connect({ fork: { sessionId, atTurn: turn } })`).
 * @fires silo-turn-action - With `turn-actions`: the user chose Retry or Continue on the last turn's end
 *   (detail: `{ action: 'retry' | 'continue' }`); the element sends nothing itself (`<silo-chat>` does).
 *
 * @csspart usage - The usage header (context meter, the session's tokens, cost).
 * @csspart usage-meter - The context meter (`<meter>`).
 * @csspart usage-tokens - The session's tokens (the sum of its turns'; the counts in its title).
 * @csspart usage-cost - The cost.
 * @csspart log - The scrolling log (`role="log"`).
 * @csspart row - Every row.
 * @csspart message - A user or agent message row; also `message-user`, `message-agent`.
 * @csspart thought - A thought row.
 * @csspart tool - A tool-call row; inside it `tool-summary` (its one line: `tool-kind`, `tool-title`,
 *   `tool-counts`, `tool-status`) and `tool-body` (`tool-locations`, `tool-output`, diffs, its permission).
 * @csspart diff - A line diff; `diff-new` is the "new file" badge.
 * @csspart terminal - A command's terminal in its card (`data-status`: `running`, `ok`, `failed`,
 *   `ended`): `terminal-output`, `terminal-exit` (how it ended), `terminal-earlier` (the note above an
 *   output drawn from its end) with `terminal-show-all`; `tool-exit` is the exit code on the card's line.
 * @csspart subagent - A subagent's work inside its card (folded): `subagent-summary`, `subagent-task`,
 *   `subagent-rows`, `subagent-answer`.
 * @csspart plan - The plan row; `plan-list` is its checklist.
 * @csspart notice - A notice row; also `notice-info`, `notice-warning`, `notice-error`, `notice-other`.
 * @csspart compaction - A compaction row.
 * @csspart permission - A permission row (one naming no tool call; others are in their card). The prompt
 *   itself, in a row or a card, is `permission-prompt`, with `permission-command`, `permission-options`, `permission-option`,
 *   `permission-keys`, `permission-resolution` inside.
 * @csspart elicitation - A question row (holds `<silo-elicitation>`, whose parts are exported prefixed:
 *   `elicitation-base`, `elicitation-answer`, … — every part of `<silo-elicitation>`).
 * @csspart turn-start - The divider that opens a turn the agent started by itself (no prompt).
 * @csspart turn-end - A turn-end row: `turn-tokens`, `turn-duration`, and with `turn-actions` on the last one
 *   `turn-retry` and (after `max_tokens`) `turn-continue`.
 * @csspart unknown - A row for an update of an unknown kind.
 * @csspart image - An image block.
 * @csspart resource-link - A resource link; `resource` an embedded resource.
 * @csspart placeholder - Content that cannot be shown (unsupported block type).
 * @csspart excluded - The badge on messages a refusal dropped from the agent's context.
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
 * @cssprop [--silo-color-warning-bg] - Warning banners.
 * @cssprop [--silo-color-shadow] - Shadows of floating buttons and menus.
 * @cssprop [--silo-color-code-keyword] - Highlighted code: keywords; also `--silo-color-code-string`,
 *   `-comment`, `-number`, `-title` and `-type` (light and dark defaults, each at least 4.5:1).
 * @cssprop [--silo-color-terminal-bg] - Terminal output's background; `--silo-color-terminal-fg` its
 *   text, and `--silo-color-ansi-black`, `-red`, `-green`, `-yellow`, `-blue`, `-magenta`, `-cyan`,
 *   `-white` and their `-bright-*` its 16 ANSI colours (light and dark defaults, each at least 4.5:1).
 * @cssprop [--silo-color-find] - Find matches (`::highlight(silo-find)`); `--silo-color-find-active` the
 *   current one (also its row's marker), `--silo-color-find-fg` their text.
 * @cssprop [--silo-font-family] - Text font.
 * @cssprop [--silo-font-family-mono] - Code font.
 * @cssprop [--silo-font-size] - Base font size (14px).
 * @cssprop [--silo-radius] - Corner radius (10px).
 * @cssprop [--silo-spacing] - Row padding (12px).
 * @cssprop [--silo-content-max-width] - Maximum row width.
 * @cssprop [--silo-transcript-min-height] - Minimum height (16rem); give the element a height to fill.
 */
export class SiloTranscript extends SiloElement {
  static override styles = [theme, transcriptStyles, findStyles, tailPaintStyles];

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
    branchable: { type: Boolean },
    turnActions: { type: Boolean, attribute: 'turn-actions' },
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
  /** Replacement strings for localization (partial; English by default); `elicitation` for its questions'. */
  declare strings: StringsOverride<SiloTranscriptStrings> | undefined;
  /** BCP 47 locale for numbers, dates and currency (default: the browser's). */
  declare locale: string | undefined;
  /** Each turn's end offers "Branch from here", which fires `silo-branch` (attribute `branchable`). */
  declare branchable: boolean;
  /**
   * The last turn's end offers Retry (its prompt again, with its files) and, after `max_tokens`,
   * Continue; choosing one fires `silo-turn-action` (attribute `turn-actions`; off by default).
   */
  declare turnActions: boolean;
  declare private loadError: string | undefined;
  declare private announcement: string;

  /** The rows as last rendered (the model's rows at the start of the last update). */
  #rows: TranscriptRow[] = [];
  /** Its source, live prompts, find, feed and scroll following, tied to each other (transcript/wiring.ts). */
  #controllers = transcriptControllers(this, {
    rows: () => this.#rows,
    focusRow: (index) => this.focusRow(index),
    reset: () => {
      this.loadError = undefined;
    },
    failed: (error) => {
      this.loadError = error.message;
      this.emit('silo-load-error', { error });
    },
    live: (started, ended) => {
      this.announcement =
        turnAnnouncement(this.#controllers.source.model, started, ended, this.#strings()) ??
        this.announcement;
    },
  });

  constructor() {
    super();
    this.permissionRequests = [];
    this.elicitationRequests = [];
    this.announcement = '';
    this.branchable = false;
    this.turnActions = false;
    // Holds idle loads (<silo-elicitation>) back until this transcript's first rows are drawn.
    new FirstRowsController(this);
  }

  /** Fires `silo-branch` for `turn` (a turn end's "Branch from here"). */
  branch(turn: number): void {
    this.emit('silo-branch', { turn });
  }

  /** The transcript model being rendered (rows and session state). Read-only for callers. */
  get model(): TranscriptModel {
    return this.#controllers.source.model;
  }

  /**
   * Applies more updates to what is shown (for example live batches from a source the element does
   * not own). Rendering follows within one animation frame.
   */
  appendUpdates(updates: readonly AgentSessionUpdate[]): void {
    this.#controllers.source.apply(updates, true);
  }

  /** Scrolls to the latest row and sticks to the bottom again. */
  scrollToLatest(): void {
    this.#controllers.stick.scrollToLatest();
  }

  /** Moves focus to the row at `index` (scrolling it into view). Resolves once it is focused. */
  async focusRow(index: number): Promise<void> {
    if (index < 0 || index >= this.#rows.length) return;
    await this.updateComplete;
    const el = await this.#controllers.reveal(index);
    el?.focus({ preventScroll: true });
  }

  /**
   * Finds `query` (plain text, case-insensitive) in every row of the transcript, rendered or not, and
   * goes to the first match at or below the top of the view: scrolls its row into view, highlights
   * the matches on screen (the current one apart), and opens a folded section holding it. Rows are
   * read from the view on: that match is reported (`silo-find`, `searching` still true, `current` and
   * `total` partial) and scrolled to as soon as it is read, before the rest is counted. Resolves once
   * the search is done and the match is in view; an empty query ends the find, and a later `find()`
   * stops this one's search. Fires `silo-find`.
   * The first find loads the find's code (its own chunk); if that fails, it rejects and the next find
   * tries again.
   */
  find(query: string): Promise<SiloFindResult> {
    return this.#controllers.find.find(query);
  }

  /** Goes to the next match (wrapping around); resolves once it is in view. */
  findNext(): Promise<SiloFindResult> {
    return this.#controllers.find.step(1);
  }

  /** Goes to the previous match (wrapping around); resolves once it is in view. */
  findPrevious(): Promise<SiloFindResult> {
    return this.#controllers.find.step(-1);
  }

  /** Ends the find: its highlights go away. */
  clearFind(): void {
    this.#controllers.find.clear();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.hasUpdated) this.#controllers.source.load();
  }

  /** Renders at most once per animation frame (however many batches arrive in between). */
  protected override async scheduleUpdate(): Promise<void> {
    await new Promise((resolve) => requestAnimationFrame(resolve));
    super.scheduleUpdate();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const { source, requests } = this.#controllers;
    const sources = ['session', 'service', 'sessionId', 'src', 'file'] as const;
    if (sources.some((k) => changed.has(k))) source.load();
    else if (changed.has('updates')) source.setUpdates();
    if (changed.has('permissionRequests') || changed.has('elicitationRequests')) requests.adopt();
    this.#rows = source.model.rows.slice();
  }

  /**
   * Resolves when the current source is loaded and its rows are rendered: the update under way, the
   * source's reads, and the render of what they applied.
   */
  protected override async getUpdateComplete(): Promise<boolean> {
    await super.getUpdateComplete();
    await this.#controllers.source.loaded;
    return super.getUpdateComplete();
  }

  #strings(): SiloTranscriptStrings {
    return mergeStrings(defaultTranscriptStrings, this.strings);
  }

  override render() {
    const { source, requests, feed, stick, onKeydown } = this.#controllers;
    const strings = this.#strings();
    const { usage, tokens } = source.model.current;
    return renderTranscript({
      log: transcriptLog(this),
      strings,
      ctx: rowContext(
        this,
        strings,
        requests,
        lastTurnEndKey(this.#rows),
        (action) => this.emit('silo-turn-action', { action }),
        this.#rows.length,
      ),
      feed,
      busy: source.model.current.inTurn,
      rows: this.#rows,
      usage: { ...(usage ? { usage } : {}), ...(tokens ? { tokens } : {}) },
      tailPaint: this.#controllers.tailPaint(),
      loadError: this.loadError,
      announcement: this.announcement,
      stick,
      onKeydown,
      onJump: () => this.scrollToLatest(),
    });
  }
}
