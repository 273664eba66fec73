/**
 * The prompt turns of one session (worker/session.ts journals the prompt, then hands the turn here):
 * `session/prompt` on the session's link, the agent's echo of the prompt (worker/echo.ts), the turn's
 * end journaled as a `turn_end` (with Silo's `interrupted` or `error` when it broke off), Stop
 * (`session/cancel`, then a forced stop after {@link FORCE_STOP_MS}), and the moment a turn is over.
 */
import { SiloError } from '../src/errors.ts';
import type { Raw } from '../src/json.ts';
import type { AgentContentBlock, AgentSessionUpdate, AgentTurnEnd } from '../src/types.ts';
import type { Delivery } from './delivery.ts';
import { PromptEcho } from './echo.ts';
import type { AgentLink } from './link.ts';

/** How long a cancelled turn may take to answer before Silo stops waiting for it. */
export const FORCE_STOP_MS = 5000;

/** What the prompt turns need of their session. */
export interface PromptTurnsHost {
  /** The bound session id. */
  readonly sessionId: string;
  readonly delivery: Delivery;
  /** Journals an update Silo records itself (the turn's end). */
  record(update: Omit<AgentSessionUpdate, 'seq'>): void;
  /** Resolves once everything journaled so far is committed; rejects with the journal's write error. */
  flushed(): Promise<void>;
  /** Stop: the open permission requests and questions are answered cancelled (before `session/cancel`). */
  cancelRequests(): void;
}

/** At most one running turn of a session. */
export class PromptTurns {
  /** Recognizes the agent's echo of the running turn's prompt. */
  readonly echo = new PromptEcho();
  private turn: { cancelled: boolean; force: AbortController } | undefined;
  private over: Promise<void> = Promise.resolve();

  constructor(private readonly host: PromptTurnsHost) {}

  /** True while a turn runs. */
  get running(): boolean {
    return this.turn !== undefined;
  }

  /** True once the running turn was cancelled (Stop). */
  get cancelled(): boolean {
    return this.turn?.cancelled === true;
  }

  /** Settles once no turn runs (its end journaled and delivered). */
  settled(): Promise<void> {
    return this.over;
  }

  /**
   * Runs one turn of the prompt `blocks` (already journaled) on `link`; resolves to the stop reason
   * once its end is journaled and delivered. Rejects with `interrupted` when the link dropped, or the
   * agent's error (both journaled as the turn's end).
   */
  async run(link: AgentLink, blocks: readonly AgentContentBlock[]): Promise<string> {
    const turn = { cancelled: false, force: new AbortController() };
    this.turn = turn;
    let done = () => {};
    this.over = new Promise((resolve) => {
      done = resolve;
    });
    try {
      return await this.request(turn, link, blocks);
    } finally {
      done();
    }
  }

  private async request(
    turn: { cancelled: boolean; force: AbortController },
    link: AgentLink,
    blocks: readonly AgentContentBlock[],
  ): Promise<string> {
    const { host } = this;
    this.echo.expect(blocks);
    void host.delivery.state();
    let end: AgentTurnEnd;
    let failure: SiloError | undefined;
    let response: Raw = {};
    try {
      response = await link.request<Raw>(
        'session/prompt',
        { sessionId: host.sessionId, prompt: blocks },
        // Force stop must not wait for an agent that ignores the cancel (it may never answer).
        { cancellationSignal: turn.force.signal, stopWaitingOnCancel: true },
      );
      end = { stopReason: typeof response.stopReason === 'string' ? response.stopReason : 'end_turn' };
    } catch (error) {
      const e = SiloError.from(error);
      if (link.closedSignal.aborted) {
        await link.ended; // after the link's own end handling (pending requests recorded first)
        failure = new SiloError('interrupted', `The turn was interrupted: ${e.message}`, e.data);
        end = { stopReason: 'interrupted', error: { code: e.code, message: e.message } };
      } else if (turn.cancelled) {
        end = { stopReason: 'cancelled' };
      } else {
        failure = e;
        end = { stopReason: 'error', error: { code: e.code, message: e.message } };
      }
    }
    this.turn = undefined;
    this.echo.end();
    host.record({
      kind: 'turn_end',
      turnEnd: end,
      timestamp: new Date().toISOString(),
      raw: { ...response, stopReason: end.stopReason },
    });
    await host.flushed();
    await host.delivery.flush();
    if (failure) throw failure;
    return end.stopReason;
  }

  /**
   * Cancels the running turn: answers every pending permission request and question cancelled, then
   * sends `session/cancel` (in that order on the wire, as the protocol notes ask). If the agent has not
   * answered after {@link FORCE_STOP_MS}, Silo stops waiting and ends the turn as cancelled.
   */
  async cancel(link: AgentLink | undefined): Promise<void> {
    const turn = this.turn;
    if (!turn || !link) return;
    turn.cancelled = true;
    this.host.cancelRequests();
    // The SDK writes those answers as its request handlers resolve (microtasks); one task later they
    // are queued on the wire, so session/cancel goes after them.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const sent = link.notify('session/cancel', { sessionId: this.host.sessionId });
    setTimeout(() => turn.force.abort(), FORCE_STOP_MS);
    await sent.catch(() => {});
  }
}
