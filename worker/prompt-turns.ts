/**
 * The prompt turns of one session (worker/session.ts checks the session can send, then hands the turn
 * here): the prompt journaled (`silo-u…`), `session/prompt` on the session's link, the agent's echo of
 * the prompt (worker/echo.ts), the turn's end journaled as a `turn_end` with its usage
 * (worker/turn-usage.ts; Silo's `interrupted` or `error` when it broke off), Stop (`session/cancel`,
 * then a forced stop after {@link FORCE_STOP_MS}), and the moment a turn is over. Messages during a
 * turn (worker/mid-turn.ts): a prompt the agent queues waits here for its turn; a steered message is
 * journaled `silo-s…`, `steered`, and starts no turn.
 */
import { SiloError } from '../src/errors.ts';
import type { Raw } from '../src/json.ts';
import { PROMPT_ID_PREFIX, STEER_ID_PREFIX } from '../src/prompt-ids.ts';
import type { AgentContentBlock, AgentSessionUpdate, AgentTurnEnd } from '../src/types.ts';
import type { Delivery } from './delivery.ts';
import { PromptEcho } from './echo.ts';
import type { AgentLink } from './link.ts';
import { PromptQueue, type RunningTurn, steer } from './mid-turn.ts';
import type { SessionStatus } from './status.ts';
import { TurnUsageMeter } from './turn-usage.ts';

/** How long a cancelled turn may take to answer before Silo stops waiting for it. */
export const FORCE_STOP_MS = 5000;

/** What the prompt turns need of their session. */
export interface PromptTurnsHost {
  /** The bound session id. */
  readonly sessionId: string;
  readonly delivery: Delivery;
  /** Journals an update Silo records itself (the prompt, the turn's end). */
  record(update: Omit<AgentSessionUpdate, 'seq'>): void;
  /** The journal position the next update gets (a message's id is numbered by it). */
  nextSeq(): number;
  /** A prompt's turn begins (worker/turns.ts closes a turn the agent started by itself). */
  beforePrompt(): void;
  /** The session's state (its reports read by the usage model), its agent and what it takes mid-turn. */
  readonly status: SessionStatus;
  /** Resolves once everything journaled so far is committed; rejects with the journal's write error. */
  flushed(): Promise<void>;
  /** Stop: the open permission requests and questions are answered cancelled (before `session/cancel`). */
  cancelRequests(): void;
}

/** At most one running turn of a session. */
export class PromptTurns {
  /** Recognizes the agent's echo of the running turn's prompt. */
  readonly echo = new PromptEcho();
  private turn: RunningTurn | undefined;
  private over: Promise<void> = Promise.resolve();
  /** Prompts the agent holds behind the running turn (it queues prompts: worker/mid-turn.ts). */
  private readonly queue = new PromptQueue();
  private readonly usage = new TurnUsageMeter();

  constructor(private readonly host: PromptTurnsHost) {}

  /** True while a turn runs. */
  get running(): boolean {
    return this.turn !== undefined;
  }

  /** True once the running turn was cancelled (Stop). */
  get cancelled(): boolean {
    return this.turn?.cancelled === true;
  }

  /** How many prompts the agent holds behind the running turn. */
  get queued(): number {
    return this.queue.length;
  }

  /** Settles once no turn runs (its end journaled and delivered). */
  settled(): Promise<void> {
    return this.over;
  }

  /**
   * Journals the prompt `blocks` and runs its turn on `link`; resolves to the stop reason once its end
   * is journaled and delivered. While a turn runs, an agent that queues prompts gets it at once and
   * runs it next (it is journaled when its turn begins); any other agent's refuses it
   * (`invalid-params`). Rejects with `interrupted` when the link dropped, or the agent's error (both
   * journaled as the turn's end).
   */
  async run(link: AgentLink, blocks: readonly AgentContentBlock[]): Promise<string> {
    const behind = this.turn !== undefined || this.queue.length > 0;
    if (behind && !this.host.status.midTurn?.queue)
      throw new SiloError('invalid-params', 'A turn is already running; cancel it or wait for it to end');
    const turn: RunningTurn = { cancelled: false, force: new AbortController() };
    const answer = link.request<Raw>(
      'session/prompt',
      { sessionId: this.host.sessionId, prompt: blocks },
      // Force stop must not wait for an agent that ignores the cancel (it may never answer).
      { cancellationSignal: turn.force.signal, stopWaitingOnCancel: true },
    );
    answer.catch(() => {}); // read below, once its turn has begun
    if (behind) {
      const started = this.queue.wait(turn);
      void this.host.delivery.state();
      await started;
    }
    this.host.beforePrompt();
    this.recordMessage(blocks, PROMPT_ID_PREFIX);
    this.turn = turn;
    let done = () => {};
    this.over = new Promise((resolve) => {
      done = resolve;
    });
    try {
      return await this.request(turn, link, blocks, answer);
    } finally {
      done();
    }
  }

  /**
   * Sends `blocks` into the running turn (`_session/steering`, when the agent offers it). Resolves
   * `steered` once the agent took it (journaled then, beside the turn's updates), `ended` when no turn
   * runs any more (nothing was kept: send it as a prompt). Rejects `invalid-params` when the agent
   * takes no such message, or with the agent's coded error.
   */
  async steer(link: AgentLink, blocks: readonly AgentContentBlock[]): Promise<'steered' | 'ended'> {
    if (!this.host.status.midTurn?.steer)
      throw new SiloError('invalid-params', 'The agent takes no messages into a running turn');
    if (!this.turn) return 'ended';
    const outcome = await steer(link, this.host.sessionId, blocks);
    if (outcome === 'ended') return outcome;
    this.recordMessage(blocks, STEER_ID_PREFIX);
    await this.host.flushed();
    await this.host.delivery.flush();
    return outcome;
  }

  /**
   * Journals the user's message, one update per block, under one id: `silo-u<seq>` for a prompt,
   * `silo-s<seq>` (and `steered`) for a message sent into the running turn.
   */
  private recordMessage(
    blocks: readonly AgentContentBlock[],
    prefix: typeof PROMPT_ID_PREFIX | typeof STEER_ID_PREFIX,
  ): void {
    const timestamp = new Date().toISOString();
    const messageId = `${prefix}${this.host.nextSeq()}`;
    for (const content of blocks) {
      const text = content.type === 'text' && typeof content.text === 'string' ? content.text : undefined;
      this.host.record({
        kind: 'user_message_chunk',
        content,
        text,
        messageId,
        timestamp,
        ...(prefix === STEER_ID_PREFIX ? { steered: true } : {}),
        raw: { sessionUpdate: 'user_message_chunk', content, messageId },
      });
    }
  }

  private async request(
    turn: RunningTurn,
    link: AgentLink,
    blocks: readonly AgentContentBlock[],
    answer: Promise<Raw>,
  ): Promise<string> {
    const { host } = this;
    this.echo.expect(blocks);
    void host.delivery.state();
    let end: AgentTurnEnd;
    let failure: SiloError | undefined;
    let response: Raw = {};
    try {
      response = await answer;
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
    const endedAt = new Date().toISOString();
    const { config, agentInfo } = host.status;
    const usage = this.usage.ended(config.current, response, endedAt, agentInfo.name, link.serial);
    if (usage) end = { ...end, usage };
    host.record({
      kind: 'turn_end',
      turnEnd: end,
      timestamp: endedAt,
      raw: { ...response, stopReason: end.stopReason },
    });
    this.queue.next(); // a prompt the agent holds begins now, before its updates are journaled
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
    this.queue.cancelAll();
    this.host.cancelRequests();
    // The SDK writes those answers as its request handlers resolve (microtasks); one task later they
    // are queued on the wire, so session/cancel goes after them.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const sent = link.notify('session/cancel', { sessionId: this.host.sessionId });
    setTimeout(() => turn.force.abort(), FORCE_STOP_MS);
    await sent.catch(() => {});
  }
}
