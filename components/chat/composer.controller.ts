/**
 * The composer of `<silo-chat>` as a Lit reactive controller: the text being typed, the `/` command
 * menu (chat/command-menu.ts), why a message was not sent, the running turn's working state (elapsed time,
 * Stop, Esc; what it shows: chat/turn-status.ts), a follow-up queued while the agent works, editing the
 * last message, and attachments (chat/attachments.ts). Its template is in chat/composer-views.ts.
 * @packageDocumentation
 */
import type { ReactiveController, ReactiveControllerHost, TemplateResult } from 'lit';
import type { AgentContentBlock, AgentSessionConfigOption, AgentSessionSnapshot } from '../../src/index.ts';
import type { SiloChatAllStrings } from '../shared/strings/chat.ts';
import { type Attachment, Attachments, refusal } from './attachments.ts';
import { CommandMenu } from './command-menu.ts';
import { type QueuedMessage, renderComposer } from './composer-views.ts';
import { TurnStatusTracker } from './turn-status.ts';

/** What the composer needs from its element. */
export interface ComposerContext {
  strings(): SiloChatAllStrings;
  snapshot(): AgentSessionSnapshot | undefined;
  /** Why a message cannot be sent now (not connected, read-only…), or undefined when it can. */
  whyNotSendable(): string | undefined;
  /** What the user can do about it, as a button beside the note (Take over and send), if anything. */
  remedy(): { readonly label: string; run(): void } | undefined;
  /**
   * True while the session is on its way (connecting, reconnecting): a message is queued then, and
   * sent once it can be, rather than kept with a note.
   */
  waiting(): boolean;
  /** True while a turn runs (or a prompt is being sent). */
  busy(): boolean;
  /** Sends a prompt with its attachments; resolves once the turn ended or failed (the element shows a failure). */
  send(text: string, attachments: readonly Attachment[]): Promise<unknown>;
  /** Sends a message into the running turn; undefined when that failed (see `TurnRunner.steer`). */
  steer(text: string, attachments: readonly Attachment[]): Promise<'steered' | 'ended' | undefined>;
  /** The code of the element's last error, if any. */
  errorCode(): string | undefined;
  /** Stops the running turn. */
  cancel(): void;
  /** The content blocks of the last message the user sent in this session, if any. */
  lastPrompt(): readonly AgentContentBlock[] | undefined;
  setOption(option: AgentSessionConfigOption, value: string | boolean): void;
  /** True when config options can be changed now. */
  optionsEnabled(): boolean;
}

/**
 * Typed text is never thrown away: Enter sends it when it can; queues it while a turn runs or the
 * session is still on its way (connecting, reconnecting) — shown above the input, cancellable back
 * into the composer, and sent once the agent can take it; and otherwise keeps it and says why. A
 * queued message the session can no longer take (the connection failed) comes back into the
 * composer with the reason. A prompt refused before it reached the agent gives its text back.
 */
export class ComposerController implements ReactiveController {
  draft = '';
  /** A message typed while the agent worked, sent when the turn ends. */
  queued: QueuedMessage | undefined;
  /** The running turn's elapsed time, and what became of the messages sent during it. */
  readonly #turn: TurnStatusTracker;
  /** The files attached to the message being written. */
  readonly attachments: Attachments;
  /** Why the last Enter did not send because of an attachment (until the attachments change). */
  #attachmentNote: string | undefined;
  /** The `/` command menu over the draft. */
  readonly #commands: CommandMenu;
  /** True after Enter or Send could not send: the composer says why (until it can, or the text changes). */
  #refused = false;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement & { renderRoot: ParentNode },
    private readonly ctx: ComposerContext,
  ) {
    host.addController(this);
    this.#turn = new TurnStatusTracker(host, () => ctx.snapshot());
    this.attachments = new Attachments(
      () => {
        this.#attachmentNote = undefined;
        this.#update();
      },
      () => ctx.strings(),
      () => ctx.snapshot()?.promptCapabilities,
    );
    this.#commands = new CommandMenu(
      () => ctx.snapshot()?.availableCommands ?? [],
      (command) => {
        this.draft = `/${command.name} `;
        this.#update();
        this.#input()?.focus();
      },
      () => this.#update(),
    );
  }

  hostConnected(): void {
    this.host.addEventListener('keydown', this.#onHostKeydown);
  }

  hostDisconnected(): void {
    this.host.removeEventListener('keydown', this.#onHostKeydown);
    this.#turn.stopClock();
  }

  hostUpdated(): void {
    const busy = this.ctx.busy();
    this.#turn.updated(busy);
    if (this.queued !== undefined && !busy) this.#flush(this.queued);
  }

  /**
   * The turn ended or the session connected: send the queued message (after this update) if the agent
   * can take it; back into the composer with the reason if it cannot (a file it does not accept, a
   * connection that failed); kept while the session is still on its way.
   */
  #flush(q: QueuedMessage): void {
    const why = this.ctx.whyNotSendable();
    if (why !== undefined && this.ctx.waiting()) return;
    const caps = this.ctx.snapshot()?.promptCapabilities;
    const s = this.ctx.strings();
    const refused = why === undefined && caps ? q.attachments.find((a) => refusal(a, caps, s)) : undefined;
    if (why === undefined && !refused) {
      this.queued = undefined;
      queueMicrotask(() => this.#send(q.text, q.attachments));
      return;
    }
    this.#giveBack();
    if (refused) this.#attachmentNote = s.notSentAttachment(refused.name, refusal(refused, caps!, s)!);
    else this.#refused = true;
  }

  #update(): void {
    this.host.requestUpdate();
  }

  #input(): HTMLTextAreaElement | null {
    return this.host.renderRoot.querySelector('textarea');
  }

  /**
   * Sends the composer's text and attachments, queues them while a turn runs, or keeps them and says
   * why not (not connected, or an attachment the agent does not accept).
   */
  submit(): void {
    const text = this.draft;
    if (!text.trim() && this.attachments.list.length === 0) return;
    const waiting = this.ctx.whyNotSendable() !== undefined && this.ctx.waiting();
    if (this.ctx.whyNotSendable() && !waiting) {
      this.#refused = true;
      this.#update();
      return;
    }
    const caps = this.ctx.snapshot()?.promptCapabilities;
    const s = this.ctx.strings();
    const refused = caps && this.attachments.list.find((a) => refusal(a, caps, s));
    if (refused) {
      this.#attachmentNote = s.notSentAttachment(refused.name, refusal(refused, caps, s)!);
      this.#update();
      return;
    }
    this.#refused = false;
    this.draft = '';
    const attachments = this.attachments.take();
    const midTurn = this.ctx.snapshot()?.midTurn;
    if (waiting || this.queued !== undefined) this.#queue(text, attachments);
    else if (!this.ctx.busy()) this.#send(text, attachments);
    else if (midTurn?.steer) void this.#steer(text, attachments);
    else if (midTurn?.queue) {
      this.#turn.agentQueued(text);
      this.#send(text, attachments);
    } else this.#queue(text, attachments);
    this.#update();
  }

  /** Holds the message until the turn ends or the session connects (joined to one held already). */
  #queue(text: string, attachments: readonly Attachment[]): void {
    const q = this.queued;
    this.queued = q
      ? {
          text: q.text && text ? `${q.text}\n\n${text}` : q.text || text,
          attachments: [...q.attachments, ...attachments],
        }
      : { text, attachments };
  }

  /** Into the running turn; a prompt of its own if that turn ended; held if the agent refused it. */
  async #steer(text: string, attachments: readonly Attachment[]): Promise<void> {
    const how = await this.ctx.steer(text, attachments);
    if (how === 'steered') this.#turn.steered();
    else if (how === 'ended' && !this.ctx.busy()) this.#send(text, attachments);
    else this.#queue(text, attachments);
    this.#update();
  }

  #send(text: string, attachments: readonly Attachment[]): void {
    void this.ctx.send(text, attachments).then(() => {
      // A prompt refused before it reached the agent gives its text and files back (unless the user typed anew).
      const code = this.ctx.errorCode();
      if ((code === 'journal-only' || code === 'closed') && this.draft === '') {
        this.draft = text;
        this.attachments.restore(attachments);
        this.#update();
      }
    });
  }

  /** Cancels the queued message: its text and files return to the composer, before anything added since. */
  unqueue(): void {
    if (this.queued === undefined) return;
    this.#giveBack();
    this.#input()?.focus();
  }

  #giveBack(): void {
    const q = this.queued;
    if (q === undefined) return;
    this.draft = this.draft ? `${q.text}\n${this.draft}` : q.text;
    this.queued = undefined;
    this.attachments.restore(q.attachments);
    this.#update();
  }

  /**
   * Puts the last message sent back into the composer, with the files that went with it (to edit it
   * and send it again). A message with files loads the attachments' chunk first; if it cannot be
   * loaded, the text comes back alone.
   */
  editLast(): void {
    const blocks = this.ctx.lastPrompt();
    if (blocks === undefined) return;
    this.#refused = false;
    const only = blocks.length === 1 && blocks[0]!.type === 'text' ? blocks[0]!.text : undefined;
    if (typeof only === 'string') {
      this.#putBack(only);
      return;
    }
    const typed = () => blocks.map((b) => (b.type === 'text' ? String(b.text ?? '') : '')).join('');
    void this.attachments.fromPrompt(blocks).then(
      (text) => this.#putBack(text),
      () => this.#putBack(typed()),
    );
  }

  /** `text` in the composer, focused, the caret at its end. */
  #putBack(text: string): void {
    this.draft = text;
    this.#update();
    const input = this.#input();
    input?.focus();
    void (this.host as unknown as { updateComplete: Promise<unknown> }).updateComplete.then(() =>
      input?.setSelectionRange(text.length, text.length),
    );
  }

  #onInput = (e: Event): void => {
    this.draft = (e.target as HTMLTextAreaElement).value;
    this.#refused = false;
    this.#commands.typed();
    this.#update();
  };

  #onKeydown = (e: KeyboardEvent): void => {
    if (this.#commands.keydown(e, this.#commands.matches(this.draft))) return;
    if (e.key === 'ArrowUp' && this.draft === '' && !e.shiftKey && this.ctx.lastPrompt() !== undefined) {
      e.preventDefault();
      this.editLast();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      this.submit();
    }
  };

  /** Esc stops the running turn, from anywhere in the element but the transcript (its prompts use Esc). */
  #onHostKeydown = (e: KeyboardEvent): void => {
    if (e.key !== 'Escape' || e.defaultPrevented || !this.ctx.busy()) return;
    if (e.composedPath().some((n) => n instanceof HTMLElement && n.localName === 'silo-transcript')) return;
    e.preventDefault();
    this.ctx.cancel();
  };

  /** The composer as it is now (its template: chat/composer-views.ts). */
  render(): TemplateResult {
    const busy = this.ctx.busy();
    const menu = this.#commands.matches(this.draft);
    const why = this.ctx.whyNotSendable();
    const note = this.#refused ? why : this.#attachmentNote;
    const files = this.attachments.list.length > 0;
    return renderComposer({
      strings: this.ctx.strings(),
      draft: this.draft,
      busy,
      why,
      note,
      remedy: this.#refused && why ? this.ctx.remedy() : undefined,
      commands: this.#commands,
      menu,
      hinted: menu.length === 0 ? this.#commands.hinted(this.draft) : undefined,
      attachments: this.attachments,
      files,
      canEdit: !busy && !why && this.draft === '' && !files && this.ctx.lastPrompt() !== undefined,
      options: this.ctx.snapshot()?.configOptions ?? [],
      optionsEnabled: this.ctx.optionsEnabled(),
      setOption: (o, v) => this.ctx.setOption(o, v),
      turn: this.#turn.status(busy),
      queued: this.queued,
      waiting: this.ctx.waiting(),
      unqueue: () => this.unqueue(),
      onInput: this.#onInput,
      onKeydown: this.#onKeydown,
      editLast: () => this.editLast(),
      stop: () => this.ctx.cancel(),
      submit: () => this.submit(),
    });
  }
}
