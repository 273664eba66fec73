/**
 * `<silo-chat>`: the drop-in ACP chat — transcript, composer and session controls in one element.
 * @packageDocumentation
 */
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import {
  type AgentAuthMethod,
  type AgentBridgeOptions,
  type AgentCommand,
  type AgentElicitationRequest,
  type AgentPermissionRequest,
  type AgentSessionConfigOption,
  type AgentSessionConnectOptions,
  type AgentSessionHandle,
  type AgentSessionSnapshot,
  type AgentsService,
  createAgentsService,
  SiloError,
  toMarkdown,
} from '../src/index.ts';
import { chatStyles } from './chat-styles.ts';
import { TRANSCRIPT_EXPORTPARTS } from './parts.ts';
import {
  defaultChatStrings,
  mergeStrings,
  type SiloChatStrings,
  type SiloTranscriptStrings,
  type StringsOverride,
} from './strings.ts';
import { theme } from './theme.ts';

/** Detail of `silo-session`. */
export interface SiloSessionDetail {
  readonly sessionId: string;
  readonly resumeOutcome: string;
}

/** Detail of `silo-error`. */
export interface SiloErrorDetail {
  readonly error: SiloError;
}

declare global {
  interface GlobalEventHandlersEventMap {
    'silo-session': CustomEvent<SiloSessionDetail>;
    'silo-error': CustomEvent<SiloErrorDetail>;
  }
}

/** `<silo-chat>` strings, plus the transcript's under `transcript`. */
export type SiloChatStringsOverride = StringsOverride<SiloChatStrings> & {
  readonly transcript?: StringsOverride<SiloTranscriptStrings>;
};

/** Prompt failures that mean the prompt never reached the agent. */
const NOT_SENT = new Set([
  'journal-only',
  'invalid-params',
  'not-owner',
  'auth-required',
  'session-not-found',
]);

/** The element's own connection phase before a session exists (`idle`) or while connecting. */
type Phase = 'idle' | 'connecting' | 'ready' | 'failed';

/**
 * A complete ACP chat: drop it into any page with the bridge's URL and token and a working directory.
 * It connects through a Silo service (its own, or the one in `service`), restores the last session
 * of this `cwd` on reload, and shows the transcript (`<silo-transcript>`), a composer (Enter sends,
 * Shift+Enter adds a line, `/` opens the agent's commands, a Stop button while a turn runs), pickers
 * for the config options the agent offers (model, mode, booleans), the session title and the
 * connection state with a clear message when the bridge is unreachable or refuses the page.
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
 * @csspart actions - The session action buttons.
 * @csspart banner - A message about the connection (unreachable, journal-only) or an error. An error
 *   banner says what happened, has a Dismiss button (`dismiss`), and clears after the next completed turn.
 * @csspart dismiss - The banner's Dismiss button.
 * @csspart transcript - The `<silo-transcript>` element. Every part of the transcript is exported under its
 *   own name (`silo-chat::part(row)`), its questions' as `elicitation-*` (`::part(elicitation-answer)`).
 * @csspart composer - The composer (pickers, input, buttons).
 * @csspart pickers - The config option pickers.
 * @csspart note - Why the composer's text was not sent (it stays in the composer), `role="status"`.
 * @csspart input - The message textarea.
 * @csspart send - The Send button.
 * @csspart stop - The Stop button.
 * @csspart commands - The slash-command menu (`role="listbox"`); `command` each option (name, input hint, description).
 * @csspart command-hint - After picking a command that takes input: its input hint, until text follows.
 *
 * @cssprop [--silo-chat-height] - Height of the element (default `100%`, at least 24rem).
 * @cssprop [--silo-color-bg] - And every other `--silo-*` property of `<silo-transcript>`.
 */
export class SiloChat extends LitElement {
  static override styles = [theme, chatStyles];

  static override properties = {
    bridge: {},
    bridgeUrl: { attribute: 'bridge-url' },
    bridgeToken: { attribute: 'bridge-token' },
    cwd: {},
    service: { attribute: false },
    storageKey: { attribute: 'storage-key' },
    strings: { attribute: false },
    locale: {},
    handle: { state: true, attribute: false },
    snapshot: { state: true, attribute: false },
    phase: { state: true, attribute: false },
    error: { state: true, attribute: false },
    permissionRequests: { state: true, attribute: false },
    elicitationRequests: { state: true, attribute: false },
    draft: { state: true, attribute: false },
    menuIndex: { state: true, attribute: false },
    menuClosed: { state: true, attribute: false },
    sending: { state: true, attribute: false },
    refused: { state: true, attribute: false },
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
  declare private handle: AgentSessionHandle | undefined;
  declare private snapshot: AgentSessionSnapshot | undefined;
  declare private phase: Phase;
  declare private error: SiloError | undefined;
  declare private permissionRequests: readonly AgentPermissionRequest[];
  declare private elicitationRequests: readonly AgentElicitationRequest[];
  declare private draft: string;
  declare private menuIndex: number;
  declare private menuClosed: boolean;
  declare private sending: boolean;
  /** True after Enter or Send could not send: the composer says why (until it can, or the text changes). */
  declare private refused: boolean;
  /** The error whose banner the user dismissed (an `error` or the snapshot's). */
  declare private dismissed: string | undefined;

  #ownService: AgentsService | undefined;
  /** True when `error` is a prompt that reached the agent and then failed. */
  #turnBroke = false;
  #attempt = 0;
  /** The sign-in method chosen in the banner, used for every later connect. */
  #signIn: string | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor() {
    super();
    this.storageKey = 'silo-chat:last-session';
    this.phase = 'idle';
    this.permissionRequests = [];
    this.elicitationRequests = [];
    this.draft = '';
    this.menuIndex = 0;
    this.menuClosed = false;
    this.sending = false;
    this.refused = false;
  }

  /** The connected session, if any. */
  get session(): AgentSessionHandle | undefined {
    return this.handle;
  }

  /**
   * Connects (or reconnects) with the current attributes, restoring this `cwd`'s last session, or the
   * journaled session `sessionId` when given (a history list's "restore"); `fresh` starts a new
   * session; `continueFrom` continues that (journal-only) session in a new one, carrying its transcript;
   * `via: 'load'` asks the agent to replay `sessionId` (a history list's `loadable` session, or one
   * another device continued). `authenticate` signs in with one of the agent's methods (the banner's
   * sign-in buttons pass it) and is used for every later connect of this element.
   */
  async connect(
    options: {
      fresh?: boolean;
      continueFrom?: string;
      sessionId?: string;
      via?: 'resume' | 'load';
      authenticate?: string;
    } = {},
  ): Promise<void> {
    if (options.authenticate) this.#signIn = options.authenticate;
    const attempt = ++this.#attempt;
    await this.#close();
    if (!this.#bridgeOptions() || !this.cwd) {
      this.phase = 'idle';
      return;
    }
    this.phase = 'connecting';
    this.error = undefined;
    this.permissionRequests = [];
    this.elicitationRequests = [];
    const service = this.#service();
    const bridge = this.#bridgeOptions();
    const last = options.fresh
      ? undefined
      : (options.continueFrom ?? options.sessionId ?? this.#lastSession());
    const base: AgentSessionConnectOptions = {
      bridge: bridge ?? '',
      cwd: this.cwd,
      ...(this.#signIn ? { authenticate: this.#signIn } : {}),
      onPermission: (req) => {
        if (attempt !== this.#attempt) return;
        this.permissionRequests = [...this.permissionRequests.filter((r) => !r.signal.aborted), req];
      },
      onElicitation: (req) => {
        if (attempt !== this.#attempt) return;
        this.elicitationRequests = [...this.elicitationRequests.filter((r) => !r.signal.aborted), req];
      },
      onStateChange: (snapshot) => {
        if (attempt === this.#attempt) this.snapshot = snapshot;
      },
    };
    let handle: AgentSessionHandle;
    try {
      const resume = last
        ? {
            sessionId: last,
            ...(options.continueFrom ? { startFresh: true } : {}),
            ...(options.via && !options.continueFrom ? { via: options.via } : {}),
          }
        : undefined;
      try {
        handle = await service.connect(resume ? { ...base, resume } : base);
      } catch (e) {
        // A remembered session the agent and journal no longer know: start a new one.
        if (
          !resume ||
          options.continueFrom ||
          options.sessionId ||
          SiloError.from(e).code !== 'session-not-found'
        )
          throw e;
        handle = await service.connect(base);
      }
    } catch (e) {
      if (attempt !== this.#attempt) return;
      this.#fail(e);
      return;
    }
    if (attempt !== this.#attempt) {
      void handle.close();
      return;
    }
    this.handle = handle;
    this.snapshot = handle.snapshot;
    this.phase = 'ready';
    this.#remember(handle.sessionId);
    this.#unsubscribe = handle.subscribe((_, snapshot) => {
      if (attempt === this.#attempt) this.snapshot = snapshot;
    });
    void handle.closed.then(() => {
      if (attempt === this.#attempt) this.snapshot = handle.snapshot;
    });
    this.dispatchEvent(
      new CustomEvent('silo-session', {
        detail: { sessionId: handle.sessionId, resumeOutcome: handle.resumeOutcome },
        bubbles: true,
        composed: true,
      }),
    );
  }

  /** Sends a prompt. Resolves to the stop reason; a failure is shown and fired as `silo-error`. */
  async send(text: string): Promise<string | undefined> {
    const handle = this.handle;
    if (!handle || !text.trim()) return undefined;
    this.sending = true;
    try {
      const stop = await handle.prompt(text);
      // A turn that completed resolves whatever went wrong before.
      if (handle === this.handle) {
        this.error = undefined;
        this.dismissed = undefined;
      }
      return stop;
    } catch (e) {
      // Refused before it reached the agent, or sent and then broken off (crash, dropped connection)?
      this.#turnBroke = !NOT_SENT.has(SiloError.from(e).code);
      this.#report(e);
      return undefined;
    } finally {
      this.sending = false;
    }
  }

  /** Cancels the running turn. */
  async cancel(): Promise<void> {
    try {
      await this.handle?.cancel();
    } catch (e) {
      this.#report(e);
    }
  }

  /** The current session's journal as JSONL, or undefined without a session. */
  async exportJsonl(): Promise<string | undefined> {
    const id = this.handle?.sessionId;
    return id ? this.#service().exportJsonl(id) : undefined;
  }

  /** The current session's transcript as Markdown, or undefined without a session. */
  async exportMarkdown(): Promise<string | undefined> {
    const handle = this.handle;
    if (!handle) return undefined;
    return toMarkdown(await handle.transcript(), { title: handle.agentInfo.title });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.hasUpdated && !this.handle && this.phase !== 'connecting') void this.connect();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#attempt++;
    void this.#close().then(() => {
      const own = this.#ownService;
      this.#ownService = undefined;
      if (own && !this.isConnected) void own.dispose();
    });
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (
      (changed.has('bridge') ||
        changed.has('bridgeUrl') ||
        changed.has('bridgeToken') ||
        changed.has('cwd') ||
        changed.has('service')) &&
      this.isConnected
    ) {
      void this.connect();
    }
  }

  async #close(): Promise<void> {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    const handle = this.handle;
    this.handle = undefined;
    this.snapshot = undefined;
    if (handle) await handle.close().catch(() => undefined);
  }

  /** The bridge to connect to: `bridge-url` + `bridge-token` when both are set, else `bridge`. */
  #bridgeOptions(): AgentBridgeOptions | string | undefined {
    if (this.bridgeUrl && this.bridgeToken) return { url: this.bridgeUrl, token: this.bridgeToken };
    return this.bridge?.trim() || undefined;
  }

  #service(): AgentsService {
    if (this.service) return this.service;
    this.#ownService ??= createAgentsService();
    return this.#ownService;
  }

  #key(): string {
    return `${this.storageKey}:${this.cwd ?? ''}`;
  }

  #lastSession(): string | undefined {
    try {
      return localStorage.getItem(this.#key()) ?? undefined;
    } catch {
      return undefined;
    }
  }

  #remember(sessionId: string): void {
    try {
      localStorage.setItem(this.#key(), sessionId);
    } catch {
      // Storage unavailable (private mode, sandboxed frame): the chat still works, without restore.
    }
  }

  #fail(e: unknown): void {
    this.phase = 'failed';
    this.#report(e);
  }

  #report(e: unknown): void {
    if (!this.sending) this.#turnBroke = false;
    const error = SiloError.from(e);
    this.error = error;
    this.dispatchEvent(new CustomEvent('silo-error', { detail: { error }, bubbles: true, composed: true }));
  }

  #strings(): SiloChatStrings {
    return mergeStrings(defaultChatStrings, this.strings);
  }

  /** The commands matching the draft's leading `/word`, or none when the menu is not open. */
  #menu(): readonly AgentCommand[] {
    if (this.menuClosed) return [];
    const m = /^\/(\S*)$/.exec(this.draft);
    if (!m) return [];
    const prefix = m[1]!.toLowerCase();
    return (this.snapshot?.availableCommands ?? []).filter((c) => c.name.toLowerCase().startsWith(prefix));
  }

  /** The picked command's input hint while the draft is only `/name `: what to type next. */
  #commandHint(): AgentCommand | undefined {
    const m = /^\/(\S+)\s+$/.exec(this.draft);
    if (!m) return undefined;
    return this.snapshot?.availableCommands.find((c) => c.name === m[1] && c.hint);
  }

  #pick(command: AgentCommand): void {
    this.draft = `/${command.name} `;
    this.menuClosed = true;
    this.menuIndex = 0;
    const input = this.renderRoot.querySelector('textarea');
    input?.focus();
  }

  /** Sends the composer's text, or keeps it and says why it cannot be sent now. */
  #submit(): void {
    const text = this.draft;
    if (!text.trim() || this.#busy()) return;
    if (this.#whyNotSendable(this.#strings())) {
      this.refused = true;
      return;
    }
    this.refused = false;
    this.draft = '';
    void this.send(text).then(() => {
      // A prompt refused before it reached the agent gives its text back (unless the user typed anew).
      const code = this.error?.code;
      if ((code === 'journal-only' || code === 'closed') && this.draft === '') this.draft = text;
    });
  }

  /** Why the composer cannot send right now, or undefined when it can. */
  #whyNotSendable(s: SiloChatStrings): string | undefined {
    const snapshot = this.snapshot;
    if (!this.handle || !snapshot)
      return this.phase === 'connecting' ? s.notSentConnecting : s.notSentOffline;
    if (snapshot.resumeOutcome === 'journal-only' || snapshot.state === 'read-only') return s.notSentReadOnly;
    if (snapshot.state === 'reconnecting') return s.notSentReconnecting;
    if (snapshot.state !== 'connected') return s.notSentOffline;
    return undefined;
  }

  #busy(): boolean {
    return this.sending || Boolean(this.snapshot?.busy);
  }

  /**
   * After a permission or a question is answered its buttons go away: focus returns to the composer,
   * unless the user has moved it somewhere else meanwhile (outside the transcript).
   */
  #returnFocus = async (): Promise<void> => {
    const transcript = this.renderRoot.querySelector('silo-transcript');
    await transcript?.updateComplete;
    await new Promise((r) => requestAnimationFrame(r));
    const active = document.activeElement;
    const inChat = active === this && (this.renderRoot as ShadowRoot).activeElement;
    const lost = !active || active === document.body || (inChat && inChat === transcript);
    if (lost || (active === this && !inChat)) this.renderRoot.querySelector('textarea')?.focus();
  };

  #onInput = (e: Event): void => {
    this.draft = (e.target as HTMLTextAreaElement).value;
    this.refused = false;
    this.menuClosed = false;
    this.menuIndex = 0;
  };

  #onKeydown = (e: KeyboardEvent): void => {
    const menu = this.#menu();
    if (menu.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const n = menu.length;
        this.menuIndex = (this.menuIndex + (e.key === 'ArrowDown' ? 1 : n - 1)) % n;
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        this.#pick(menu[Math.min(this.menuIndex, menu.length - 1)]!);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        this.menuClosed = true;
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      this.#submit();
    }
  };

  async #setOption(option: AgentSessionConfigOption, value: string | boolean): Promise<void> {
    try {
      await this.handle?.setConfigOption(option.id, value);
    } catch (e) {
      this.#report(e);
    }
  }

  #download(name: string, text: string, type: string): void {
    const url = URL.createObjectURL(new Blob([text], { type }));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }

  async #export(kind: 'jsonl' | 'md'): Promise<void> {
    try {
      const id = this.handle?.sessionId ?? 'session';
      const text = kind === 'jsonl' ? await this.exportJsonl() : await this.exportMarkdown();
      if (text !== undefined) {
        this.#download(
          `${id}.${kind === 'jsonl' ? 'jsonl' : 'md'}`,
          text,
          kind === 'jsonl' ? 'application/jsonl' : 'text/markdown',
        );
      }
    } catch (e) {
      this.#report(e);
    }
  }

  #stateKey(): string {
    if (this.phase === 'ready') return this.snapshot?.state ?? 'connected';
    return this.phase === 'failed' ? 'failed' : this.phase;
  }

  #banner(s: SiloChatStrings) {
    if (!this.#bridgeOptions() || !this.cwd) {
      return html`<div class="banner" part="banner">${s.noBridge}</div>`;
    }
    // The connection's own error only while it is not connected (it may linger after recovery).
    const own = this.snapshot?.state !== 'connected' ? this.snapshot?.error : undefined;
    const shown = this.error ?? own;
    const err =
      !shown || `${shown.code}\n${shown.message}` === this.dismissed
        ? undefined
        : shown === this.error
          ? this.error
          : new SiloError(shown.code, shown.message);
    if (this.snapshot?.resumeOutcome === 'journal-only' || this.snapshot?.state === 'read-only') {
      return html`<div class="banner" part="banner" role="status">
        <span>${s.journalOnly}</span>
        <button type="button" @click=${() => this.connect({ continueFrom: this.handle?.sessionId })}>${s.continueInNew}</button>
      </div>`;
    }
    const note = this.snapshot?.restoreNote;
    if (!err && note)
      return html`<div class="banner" part="banner" role="status">${s.restoreNote[note]}</div>`;
    if (!err) return nothing;
    const message =
      err.code === 'unreachable'
        ? s.unreachable
        : this.phase === 'failed'
          ? s.connectFailed(err.message)
          : err === this.error && this.#turnBroke
            ? s.turnInterrupted(err.message)
            : shown === own
              ? s.connectionLost(err.message)
              : s.sendFailed(err.message);
    if (err.code === 'auth-required' && this.phase === 'failed') return this.#signInBanner(err, s);
    return html`<div class="banner error" part="banner" role="alert">
      <span class="text">${message}</span>
      ${this.phase === 'failed' ? html`<button type="button" @click=${() => this.connect()}>${s.retry}</button>` : nothing}
      <button type="button" class="dismiss" part="dismiss" @click=${() => this.#dismiss(shown)}>${s.dismiss}</button>
    </div>`;
  }

  /** The agent needs a sign-in: a button for each method a page can use, the others explained. */
  #signInBanner(err: SiloError, s: SiloChatStrings) {
    const methods = (err.data as { authMethods?: readonly AgentAuthMethod[] } | undefined)?.authMethods ?? [];
    return html`<div class="banner error" part="banner" role="alert">
      <span class="text">${s.signInNeeded(err.message)}</span>
      ${methods.map((m) =>
        m.usable
          ? html`<button type="button" part="sign-in" title=${m.description ?? ''} @click=${() => this.connect({ authenticate: m.id })}>
              ${s.signInWith(m.name)}
            </button>`
          : html`<span class="text">${s.signInElsewhere(m.name)}</span>`,
      )}
      <button type="button" @click=${() => this.connect()}>${s.retry}</button>
    </div>`;
  }

  #dismiss(shown: { code: string; message: string } | undefined): void {
    this.dismissed = shown ? `${shown.code}\n${shown.message}` : undefined;
    this.error = undefined;
  }

  #pickers() {
    const options = this.snapshot?.configOptions ?? [];
    if (options.length === 0) return nothing;
    return html`<div class="pickers" part="pickers">
      ${options.map((o) =>
        o.type === 'boolean'
          ? html`<label title=${o.description ?? ''}>
              <input
                type="checkbox"
                .checked=${o.currentValue === true}
                ?disabled=${!this.handle || this.snapshot?.state !== 'connected'}
                @change=${(e: Event) => this.#setOption(o, (e.target as HTMLInputElement).checked)}
              />${o.name}
            </label>`
          : html`<label title=${o.description ?? ''}>
              <span>${o.name}</span>
              <select
                .value=${String(o.currentValue)}
                ?disabled=${!this.handle || this.snapshot?.state !== 'connected'}
                @change=${(e: Event) => this.#setOption(o, (e.target as HTMLSelectElement).value)}
              >
                ${(o.options ?? []).map(
                  (v) =>
                    html`<option value=${v.value} ?selected=${v.value === o.currentValue}>${v.name}</option>`,
                )}
              </select>
            </label>`,
      )}
    </div>`;
  }

  override render() {
    const s = this.#strings();
    const handle = this.handle;
    const state = this.#stateKey();
    const busy = this.#busy();
    const menu = this.#menu();
    const active = Math.min(this.menuIndex, Math.max(0, menu.length - 1));
    const why = this.#whyNotSendable(s);
    const canSend = why === undefined;
    const note = this.refused ? why : undefined;
    const hinted = menu.length === 0 ? this.#commandHint() : undefined;
    const offlineId = !handle ? this.#lastSession() : undefined;
    return html`
      <header part="header">
        <span class="title" part="title">${this.snapshot?.agentInfo.title || s.untitled}</span>
        <span class="state" part="state" data-state=${state} role="status">${s.state[state] ?? state}</span>
        <span class="actions" part="actions">
          <button type="button" ?disabled=${!this.#bridgeOptions() || this.phase === 'connecting'} @click=${() => this.connect({ fresh: true })}>
            ${s.newSession}
          </button>
          <button type="button" ?disabled=${!handle} @click=${() => this.#export('jsonl')}>${s.exportJsonl}</button>
          <button type="button" ?disabled=${!handle} @click=${() => this.#export('md')}>${s.exportMarkdown}</button>
          <slot name="header-end"></slot>
        </span>
      </header>
      ${this.#banner(s)}
      <silo-transcript
        part="transcript"
        exportparts=${TRANSCRIPT_EXPORTPARTS}
        .session=${handle}
        .service=${handle ? undefined : offlineId ? (this.service ?? this.#ownService) : undefined}
        .sessionId=${handle ? undefined : offlineId}
        .permissionRequests=${this.permissionRequests}
        .elicitationRequests=${this.elicitationRequests}
        .strings=${this.strings?.transcript}
        .locale=${this.locale}
        @silo-permission-answered=${this.#returnFocus}
        @silo-elicitation-ended=${this.#returnFocus}
      ></silo-transcript>
      <div class="composer" part="composer">
        ${
          menu.length > 0
            ? html`<ul class="commands" part="commands" role="listbox" id="commands" aria-label=${s.commands}>
              ${menu.map(
                (c, i) => html`<li
                  role="option"
                  id="command-${i}"
                  part="command"
                  aria-selected=${i === active ? 'true' : 'false'}
                  @mousedown=${(e: Event) => {
                    e.preventDefault();
                    this.#pick(c);
                  }}
                >
                  <span class="name">/${c.name}</span>${c.hint ? html`<span class="hint">${c.hint}</span>` : nothing}<span class="desc">${c.description}</span>
                </li>`,
              )}
            </ul>`
            : nothing
        }
        ${this.#pickers()}
        ${note ? html`<p class="note" part="note" id="composer-note" role="status">${note}</p>` : nothing}
        ${
          hinted
            ? html`<p class="command-hint" part="command-hint" id="command-hint">
              <span class="name">/${hinted.name}</span> <span class="hint">${hinted.hint}</span>
            </p>`
            : nothing
        }
        <div class="input-row">
          <textarea
            part="input"
            rows="1"
            aria-label=${s.composerLabel}
            placeholder=${s.placeholder}
            aria-autocomplete="list"
            aria-controls=${menu.length > 0 ? 'commands' : nothing}
            aria-activedescendant=${menu.length > 0 ? `command-${active}` : nothing}
            aria-describedby=${note || hinted ? [note ? 'composer-note' : '', hinted ? 'command-hint' : ''].join(' ').trim() : nothing}
            .value=${this.draft}
            @input=${this.#onInput}
            @keydown=${this.#onKeydown}
          ></textarea>
          ${
            busy
              ? html`<button type="button" part="stop" @click=${() => this.cancel()}>${s.stop}</button>`
              : html`<button
                type="button"
                class="primary"
                part="send"
                ?disabled=${!canSend || !this.draft.trim()}
                @click=${() => this.#submit()}
              >
                ${s.send}
              </button>`
          }
        </div>
      </div>
    `;
  }
}
