/**
 * `<silo-chat>`: the drop-in ACP chat — transcript, composer and session controls in one element.
 * @packageDocumentation
 */
import { html, type PropertyValues } from 'lit';
import {
  type AgentBridgeOptions,
  type AgentSessionConfigOption,
  type AgentSessionHandle,
  type AgentsService,
  SiloError,
} from '../../src/index.ts';
import { TRANSCRIPT_EXPORTPARTS } from '../shared/parts.ts';
import { SiloElement } from '../shared/silo-element.ts';
import { defaultChatAllStrings, type SiloChatAllStrings } from '../shared/strings/chat.ts';
import { mergeStrings } from '../shared/strings/strings.ts';
import { theme } from '../shared/theme.styles.ts';
import type { SiloTurnActionDetail } from '../transcript/silo-transcript.ts';
import { toBlocks } from './attachments.ts';
import { loadAttention } from './attention.chunk.ts';
import { renderBanner } from './banners.ts';
import { ComposerController } from './composer.controller.ts';
import { narrowComposerStyles } from './composer-narrow.styles.ts';
import type { SiloChatStringsOverride } from './events.ts';
import { jsonlBlob, markdownOf, saveExport } from './export.ts';
import { findBarStyles } from './find-bar.styles.ts';
import { FindShortcutController } from './find-shortcut.controller.ts';
import { lastPrompt, returnFocus, transcriptOf } from './focus.ts';
import { renderHeader } from './header.ts';
import { type ChatConnectOptions, ChatSessionController } from './session.controller.ts';
import { chatStyles } from './silo-chat.styles.ts';
import { TurnRunner } from './turn-runner.ts';

export type { SiloChatStringsOverride, SiloErrorDetail, SiloSessionDetail } from './events.ts';

/**
 * A complete ACP chat: drop it into any page with the bridge's URL and token and a working directory.
 * It connects through a Silo service (its own, or the one in `service`), restores the last session
 * of this `cwd` on reload, and shows the transcript (`<silo-transcript>`), a composer (Enter sends,
 * Shift+Enter adds a line, `/` opens the agent's commands, ↑ in an empty composer edits the last
 * message), pickers for the config options the agent offers (model, mode, booleans), the session
 * title and the connection state with a clear message when the bridge is unreachable or refuses the
 * page. While a turn runs it shows the elapsed time and a Stop button (Esc stops too, outside the
 * transcript); a message typed meanwhile goes to the agent at once where it takes one (into the running
 * turn, or queued by the agent behind it), and is otherwise held and sent when the turn ends. Images and files pasted,
 * dropped or attached go with the message as ACP content blocks when the agent accepts them. Ctrl+F (⌘F) in the
 * chat opens a find bar that searches the whole transcript, rows not rendered included.
 *
 * @example
 * ```html
 * <script type="module">import 'silo-acp/components';</script>
 * <silo-chat bridge="ws://127.0.0.1:7777/#token=…" cwd="/home/me/project"></silo-chat>
 * ```
 *
 * @fires silo-session - A session is connected (detail: `{ sessionId, resumeOutcome }`).
 * @fires silo-error - Connecting, sending or a picker change failed (detail: `{ error }`, a `SiloError`).
 *
 * @slot header-end - Extra controls at the end of the header.
 *
 * @csspart header - The header bar (title, state, session actions).
 * @csspart title - The session title.
 * @csspart state - The connection state badge.
 * @csspart actions - The session action buttons; `new-session` the New session button.
 * @csspart banner - A message about the connection (unreachable, journal-only, following another tab
 *   or another chat of the page) or an error. An error banner says what happened, has a Dismiss button
 *   (`dismiss`), and clears after the next completed turn. While another tab (or chat of the page)
 *   drives the session the banner (also `following`) says so calmly and has a Take over button (`take-over`).
 * @csspart take-over - The banner's Take over button in a tab that follows another.
 * @csspart dismiss - The banner's Dismiss button.
 * @csspart resend - The banner's "Send again" button after a message failed.
 * @csspart sign-in - A sign-in button (one per method a page can use); `sign-in-elsewhere` says how to
 *   sign in with a method that needs a terminal (the command to run, when the agent names one).
 * @csspart try-again - The banner's "Try again" button when another client holds the session.
 * @csspart transcript - The `<silo-transcript>` element. Every part of the transcript is exported under its
 *   own name (`silo-chat::part(row)`), its questions' as `elicitation-*` (`::part(elicitation-answer)`).
 * @csspart composer - The composer (pickers, input, buttons).
 * @csspart pickers - The config option pickers.
 * @csspart working - While a turn runs: "Working…" and the elapsed time (`elapsed`).
 * @csspart queued - A message typed while the agent works, sent when the turn ends; `unqueue` cancels it.
 * @csspart steered-note - Says that a message sent during the turn went into that turn.
 * @csspart agent-queued - A message sent during the turn that the agent holds, to run after it.
 * @csspart note - Why the composer's text was not sent (it stays in the composer), `role="status"`.
 * @csspart remedy - The note's button, when there is something to do: "Take over and send" in a tab
 *   that follows another (it takes over, then sends the kept message).
 * @csspart input - The message textarea.
 * @csspart attach - The Attach button (a file picker); files can also be pasted or dropped on the composer.
 * @csspart attachments - The attached files (`attachment` each, `attachment-preview` an image's thumbnail,
 *   `remove-attachment` its remove button); `attachment-error` says why a file was not attached.
 * @csspart edit-last - Puts the last message back into the empty composer.
 * @csspart send - The Send button.
 * @csspart stop - The Stop button.
 * @csspart commands - The slash-command menu (`role="listbox"`); `command` each option (name, input hint, description).
 * @csspart find - The find bar (Ctrl+F): `find-input`, `find-count` ("3 of 12", polite), `find-previous`,
 *   `find-next`, `find-close` inside.
 * @csspart command-hint - After picking a command that takes input: its input hint, until text follows.
 *
 * @cssprop [--silo-chat-height] - Height of the element (default `100%`, at least 24rem).
 * @cssprop [--silo-color-bg] - And every other `--silo-*` property of `<silo-transcript>`.
 */
export class SiloChat extends SiloElement {
  static override styles = [theme, chatStyles, narrowComposerStyles, findBarStyles];

  static override properties = {
    bridge: {},
    bridgeUrl: { attribute: 'bridge-url' },
    bridgeToken: { attribute: 'bridge-token' },
    cwd: {},
    service: { attribute: false },
    storageKey: { attribute: 'storage-key' },
    strings: { attribute: false },
    locale: {},
    notify: { type: Boolean },
    keepDocumentTitle: { type: Boolean, attribute: 'keep-document-title' },
    error: { state: true, attribute: false },
    dismissed: { state: true, attribute: false },
  };

  /**
   * The one connection string `silo-bridge` prints, `ws://127.0.0.1:PORT/#token=…` (attribute
   * `bridge`). Used when `bridge-url` and `bridge-token` are not both set; one that is not a
   * connection string shows an `invalid-params` error.
   */
  declare bridge: string | undefined;
  /** The bridge's `ws://` URL, as `silo-bridge` printed it (with `bridge-token`; or use `bridge`). */
  declare bridgeUrl: string | undefined;
  /** The bridge's per-launch token. */
  declare bridgeToken: string | undefined;
  /** The session's working directory on the bridge's machine. */
  declare cwd: string | undefined;
  /** A Silo service to use; by default the element starts its own (and disposes of it when removed). */
  declare service: AgentsService | undefined;
  /** The `localStorage` key prefix under which the last session id of each `cwd` is kept. */
  declare storageKey: string;
  /** Replacement strings for localization (`transcript` for the transcript's). */
  declare strings: SiloChatStringsOverride | undefined;
  /** BCP 47 locale for numbers, dates and currency. */
  declare locale: string | undefined;
  /**
   * Opt-in (attribute `notify`, off by default): while the page is hidden, a Web Notification says
   * that the agent waits for the user, for each permission request or question that starts then;
   * closed when it is answered (in any tab) or ends, or the page is seen again; a click focuses the
   * window. Shown only when the page holds the permission (`Notification.permission === 'granted'`):
   * the element never asks for it — the page does, from a user gesture
   * (`await Notification.requestPermission()` in a click handler), before or after setting `notify`.
   */
  declare notify: boolean;
  /**
   * By default, while the page is hidden and a permission request or question waits, the document's
   * title is prefixed ("(1) Waiting for you · Page title"), and put back when the page is seen again
   * or nothing waits (a title the page set meanwhile stays). `keep-document-title` leaves it alone.
   */
  declare keepDocumentTitle: boolean;
  declare private error: SiloError | undefined;
  /** The error whose banner the user dismissed (an `error` or the snapshot's), as `code\nmessage`. */
  declare private dismissed: string | undefined;

  readonly #session = new ChatSessionController(this, {
    bridge: () => this.#bridgeOptions(),
    cwd: () => this.cwd,
    service: () => this.service,
    storageKey: () => this.storageKey,
    connecting: () => {
      this.error = undefined;
    },
    failed: (e) => this.#report(e),
    connected: (handle) =>
      this.emit('silo-session', { sessionId: handle.sessionId, resumeOutcome: handle.resumeOutcome }),
  });
  readonly #turns = new TurnRunner(this, {
    handle: () => this.handle,
    // Sending from anywhere (Find, Home, reading back) brings the user's own message into view.
    sending: () => transcriptOf(this)?.scrollToLatest(),
    completed: () => {
      this.error = undefined;
      this.dismissed = undefined;
    },
    failed: (e) => this.#report(e),
  });
  readonly #composer = new ComposerController(this, {
    strings: () => this.#strings(),
    snapshot: () => this.snapshot,
    whyNotSendable: () => this.#whyNotSendable(),
    remedy: () =>
      this.snapshot?.role === 'follower'
        ? { label: this.#strings().takeOverAndSend, run: () => void this.#takeOver(true) }
        : undefined,
    waiting: () => this.#session.waiting(),
    busy: () => this.#busy(),
    send: (text, files) => this.#turns.send(text, toBlocks(files, this.snapshot?.promptCapabilities)),
    steer: (text, files) => this.#turns.steer(text, toBlocks(files, this.snapshot?.promptCapabilities)),
    errorCode: () => this.error?.code,
    cancel: () => void this.cancel(),
    lastPrompt: () => lastPrompt(this),
    setOption: (o, v) => void this.#setOption(o, v),
    optionsEnabled: () => Boolean(this.handle) && this.snapshot?.state === 'connected',
  });

  readonly #find = new FindShortcutController(this, {
    strings: () => this.#strings(),
    locale: () => this.locale,
    transcript: () => transcriptOf(this),
  });

  constructor() {
    super();
    this.storageKey = 'silo-chat:last-session';
    this.notify = false;
    this.keepDocumentTitle = false;
    // The page's title and notifications while it is hidden and a request waits: its own chunk, in
    // before a session's first request (the controller adds itself, and syncs if the chat is connected).
    // A chunk that cannot load leaves this chat without them.
    loadAttention().then(
      ({ AttentionController }) =>
        new AttentionController(this, {
          requests: () => [...this.#session.permissionRequests, ...this.#session.elicitationRequests],
          strings: () => this.#strings(),
          locale: () => this.locale,
          title: () => !this.keepDocumentTitle,
          notify: () => this.notify,
        }),
      () => undefined,
    );
  }

  /** The connected session, if any. */
  get session(): AgentSessionHandle | undefined {
    return this.#session.handle;
  }

  private get handle() {
    return this.#session.handle;
  }

  private get snapshot() {
    return this.#session.snapshot;
  }

  private get phase() {
    return this.#session.phase;
  }
  /**
   * Connects (or reconnects) with the current attributes, restoring this `cwd`'s last session, or the
   * journaled session `sessionId` when given (a history list's "restore"); `fresh` starts a new
   * session; `continueFrom` continues that (journal-only) session in a new one, carrying its transcript;
   * `via: 'load'` asks the agent to replay `sessionId` (a history list's `loadable` session, or one
   * another device continued). `authenticate` signs in with one of the agent's methods (the banner's
   * sign-in buttons pass it) and is used for every later connect of this element.
   */
  connect(options: ChatConnectOptions = {}): Promise<void> {
    return this.#session.connect(options);
  }

  /** Sends a prompt. Resolves to the stop reason; a failure is shown and fired as `silo-error`. */
  send(text: string): Promise<string | undefined> {
    return this.#turns.send(text);
  }

  /**
   * "New session": starts a new session, unless the current one is connected and still empty (no
   * message sent yet) — then it is kept (no empty sessions pile up in the history) and the composer
   * takes focus.
   */
  async newSession(): Promise<void> {
    const empty =
      this.handle && this.snapshot?.state === 'connected' && !this.#busy() && lastPrompt(this) === undefined;
    if (empty) {
      this.renderRoot.querySelector('textarea')?.focus();
      return;
    }
    await this.connect({ fresh: true });
  }

  /**
   * "Branch from here": a new session that carries this one's conversation up to the end of `turn`
   * (default: the last turn), which becomes the chat's session; this one stays in the history. See
   * `AgentSessionConnectOptions.fork` for what the agent keeps. A failure is shown and fired.
   */
  branch(turn?: number): Promise<void> {
    const sessionId = this.handle?.sessionId;
    if (!sessionId) return Promise.resolve();
    return this.connect({ fork: { sessionId, ...(turn !== undefined ? { atTurn: turn } : {}) } });
  }

  /** Turn ends offer "Branch from here": the agent can fork, the session is connected and idle. */
  #canBranch(): boolean {
    return Boolean(this.snapshot?.canFork) && this.snapshot?.state === 'connected' && !this.#busy();
  }

  /** Cancels the running turn. */
  cancel(): Promise<void> {
    return this.#turns.cancel();
  }

  /**
   * The current session's journal as JSONL, or undefined without a session: the whole text in memory
   * (`AgentsService.exportJsonl`). The header's Export JSONL saves it streamed instead.
   */
  async exportJsonl(): Promise<string | undefined> {
    const id = this.handle?.sessionId;
    return id ? this.#session.service().exportJsonl(id) : undefined;
  }

  /**
   * The current session's transcript as Markdown, or undefined without a session. The first call
   * loads the export entry (`silo-acp/export`); it rejects if that cannot be loaded, and the next call
   * tries again.
   */
  async exportMarkdown(): Promise<string | undefined> {
    const h = this.handle;
    return h ? markdownOf(h) : undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.hasUpdated && !this.handle && this.phase !== 'connecting') void this.connect();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const keys = ['bridge', 'bridgeUrl', 'bridgeToken', 'cwd', 'service'] as const;
    if (keys.some((k) => changed.has(k)) && this.isConnected) void this.connect();
  }

  /** The bridge to connect to: `bridge-url` + `bridge-token` when both are set, else `bridge`. */
  #bridgeOptions(): AgentBridgeOptions | string | undefined {
    if (this.bridgeUrl && this.bridgeToken) return { url: this.bridgeUrl, token: this.bridgeToken };
    return this.bridge?.trim() || undefined;
  }

  #report(e: unknown): void {
    if (!this.#turns.sending) this.#turns.broke = false;
    const error = SiloError.from(e);
    this.error = error;
    this.emit('silo-error', { error });
  }

  #strings(): SiloChatAllStrings {
    return mergeStrings(defaultChatAllStrings, this.strings);
  }

  #whyNotSendable(): string | undefined {
    return this.#session.whyNotSendable(this.#strings());
  }

  #busy(): boolean {
    return this.#turns.sending || Boolean(this.snapshot?.busy);
  }

  /** Focus back to the composer after a permission or a question is answered (chat/focus.ts). */
  #returnFocus = (): Promise<void> => returnFocus(this);

  async #setOption(option: AgentSessionConfigOption, value: string | boolean): Promise<void> {
    try {
      await this.handle?.setConfigOption(option.id, value);
    } catch (e) {
      this.#report(e);
    }
  }

  /** The header's Export: the JSONL streamed from the journal (chat/export.ts), or the Markdown. */
  #export(kind: 'jsonl' | 'md'): void {
    const jsonl = async () => {
      const id = this.handle?.sessionId;
      return id ? jsonlBlob(this.#session.service(), id) : undefined;
    };
    const body = () => (kind === 'jsonl' ? jsonl() : this.exportMarkdown());
    saveExport(kind, this.handle?.sessionId, body).catch((e) => this.#report(e));
  }

  /**
   * Makes this tab drive the session it follows; with `send`, then sends the composer's kept message.
   * A failure is shown and fired as `silo-error`.
   */
  async #takeOver(send = false): Promise<void> {
    try {
      await this.#session.takeOver();
    } catch (e) {
      this.#report(e);
      return;
    }
    if (send) this.#composer.submit();
  }

  #resend(): void {
    if (this.#whyNotSendable() || this.#busy()) return;
    if (this.#turns.resend()) this.error = undefined;
  }

  /** The transcript's Retry (the last prompt again, with its files) or Continue (after `max_tokens`). */
  #turnAction(action: 'retry' | 'continue'): void {
    if (this.#whyNotSendable() || this.#busy()) return;
    const blocks = action === 'retry' ? lastPrompt(this) : undefined;
    if (action === 'continue') void this.#turns.send(this.#strings().continuePrompt);
    else if (blocks) void this.#turns.send('', blocks);
  }

  override render() {
    const s = this.#strings();
    const handle = this.handle;
    const offlineId = !handle ? this.#session.lastSession() : undefined;
    const configured = Boolean(this.#bridgeOptions() && this.cwd);
    return html`
      ${renderHeader(
        {
          title: this.snapshot?.agentInfo.title,
          state: this.#session.stateKey(),
          canStart: Boolean(this.#bridgeOptions()) && this.phase !== 'connecting',
          hasSession: Boolean(handle),
        },
        { newSession: () => void this.newSession(), export: (kind) => this.#export(kind) },
        s,
      )}
      ${renderBanner(
        {
          configured,
          phase: this.phase,
          snapshot: this.snapshot,
          error: this.error,
          dismissed: this.dismissed,
          turnBroke: this.#turns.broke,
          canResend: this.#turns.failedText !== undefined && !this.#busy() && !this.#whyNotSendable(),
          pageDriver: this.#session.pageDriver(),
        },
        {
          connect: (authenticate) => void this.connect(authenticate ? { authenticate } : {}),
          continueInNew: () => void this.connect({ continueFrom: this.handle?.sessionId }),
          dismiss: (key) => {
            this.dismissed = key;
            this.error = undefined;
          },
          resend: () => this.#resend(),
          takeOver: () => void this.#takeOver(),
        },
        s,
      )}
      ${this.#find.render()}
      <silo-transcript
        part="transcript"
        exportparts=${TRANSCRIPT_EXPORTPARTS}
        .session=${handle}
        .service=${handle ? undefined : offlineId ? this.#session.serviceIfAny() : undefined}
        .sessionId=${handle ? undefined : offlineId}
        .permissionRequests=${this.#session.permissionRequests}
        .elicitationRequests=${this.#session.elicitationRequests}
        .strings=${this.strings?.transcript}
        .locale=${this.locale}
        ?branchable=${this.#canBranch()}
        @silo-branch=${(e: CustomEvent<{ turn: number }>) => void this.branch(e.detail.turn)}
        .turnActions=${!this.#busy() && !this.#whyNotSendable() && !this.#composer.queued}
        @silo-turn-action=${(e: CustomEvent<SiloTurnActionDetail>) => this.#turnAction(e.detail.action)}
        @silo-permission-answered=${this.#returnFocus}
        @silo-elicitation-ended=${this.#returnFocus}
      ></silo-transcript>
      <div class="composer-box">${this.#composer.render()}</div>
    `;
  }
}
