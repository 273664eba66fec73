/**
 * The turn runner of `<silo-chat>` (a plain class, not a controller: the element calls it): sending a
 * prompt, what its failure means (never sent, or sent and then broken off), the text of a failed
 * message (to send again), and Stop.
 * @packageDocumentation
 */
import type { ReactiveControllerHost } from 'lit';
import { type AgentContentBlock, type AgentSessionHandle, SiloError } from '../../src/index.ts';

/** Prompt failures that mean the prompt never reached the agent. */
const NOT_SENT = new Set([
  'journal-only',
  'invalid-params',
  'not-owner',
  'auth-required',
  'session-not-found',
]);

/** What the turns need from their element. */
export interface TurnRunnerContext {
  handle(): AgentSessionHandle | undefined;
  /** A prompt is being sent: the transcript brings the user's own message into view. */
  sending(): void;
  /** A turn completed: whatever went wrong before is resolved. */
  completed(): void;
  /** Sending, cancelling, or the turn failed: show and fire it. */
  failed(error: unknown): void;
}

/**
 * Runs the chat's turns: at most one prompt in flight from this element; `sending` is true until it
 * settles.
 */
export class TurnRunner {
  sending = false;
  /** True when the last failure is a prompt that reached the agent and then broke off. */
  broke = false;
  /** The text of the last message that failed (it can be sent again), if any. */
  failedText: string | undefined;
  /** The attachments' blocks of the last message that failed. */
  #failedBlocks: readonly AgentContentBlock[] = [];

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly ctx: TurnRunnerContext,
  ) {}

  /**
   * Sends a prompt: `text` (a text block, unless blank) followed by `blocks` (attachments). Resolves to
   * the stop reason, or undefined when it failed (see the context).
   */
  async send(text: string, blocks: readonly AgentContentBlock[] = []): Promise<string | undefined> {
    const handle = this.ctx.handle();
    if (!handle || (!text.trim() && blocks.length === 0)) return undefined;
    this.sending = true;
    this.host.requestUpdate();
    this.ctx.sending();
    try {
      const stop = await handle.prompt(
        blocks.length ? [...(text.trim() ? [{ type: 'text' as const, text }] : []), ...blocks] : text,
      );
      if (handle === this.ctx.handle()) {
        this.failedText = undefined;
        this.ctx.completed();
      }
      return stop;
    } catch (e) {
      // Refused before it reached the agent, or sent and then broken off (crash, dropped connection)?
      const code = SiloError.from(e).code;
      this.broke = !NOT_SENT.has(code);
      // It can be sent again (unless it can never be: a read-only session).
      this.failedText = code === 'journal-only' ? undefined : text;
      this.#failedBlocks = blocks;
      this.ctx.failed(e);
      return undefined;
    } finally {
      this.sending = false;
      this.host.requestUpdate();
    }
  }

  /**
   * Sends a message into the running turn (the agent steers: `snapshot.midTurn.steer`). Resolves
   * `steered`, `ended` (no turn ran any more: nothing was sent), or undefined when it failed (the
   * caller keeps the message; nothing is reported).
   */
  async steer(
    text: string,
    blocks: readonly AgentContentBlock[] = [],
  ): Promise<'steered' | 'ended' | undefined> {
    const handle = this.ctx.handle();
    if (!handle) return undefined;
    try {
      return await handle.steer(
        blocks.length ? [...(text.trim() ? [{ type: 'text' as const, text }] : []), ...blocks] : text,
      );
    } catch {
      return undefined;
    }
  }

  /** Sends the failed message again; false when there is none. */
  resend(): boolean {
    const text = this.failedText;
    if (text === undefined) return false;
    this.failedText = undefined;
    void this.send(text, this.#failedBlocks);
    return true;
  }

  /** Cancels the running turn (a failure goes to the context). */
  async cancel(): Promise<void> {
    try {
      await this.ctx.handle()?.cancel();
    } catch (e) {
      this.ctx.failed(e);
    }
  }
}
