/**
 * Messages sent while a turn runs, where the agent takes them (its `initialize` answer says so):
 * - steering (`_meta.steering.supported`, claude-agent-acp 0.101 and codex-acp 2.6): the message goes
 *   into the running turn through `_session/steering`, asked with `idleBehavior: "promptRequired"`
 *   so an agent whose turn ended meanwhile keeps nothing and says so (then it is a prompt of its own);
 * - prompt queueing (`agentCapabilities._meta.claudeCode.promptQueueing`, claude-agent-acp 0.23 on):
 *   `session/prompt` goes out at once and the agent runs it after the running turn; Silo journals it
 *   when its turn begins, the moment the running turn ends, so the journal keeps one turn after another.
 * Without either, a prompt during a turn is refused (`<silo-chat>` holds it until the turn ends).
 */
import type { InitializeResponse } from '@agentclientprotocol/sdk';
import { SiloError } from '../src/errors.ts';
import type { AgentContentBlock, AgentMidTurn } from '../src/types.ts';
import type { AgentLink } from './link.ts';

/** The custom method that steers a running turn (claude-agent-acp, codex-acp). */
export const STEERING_METHOD = '_session/steering';

/** A prompt turn as the session runs it. */
export interface RunningTurn {
  cancelled: boolean;
  /** Aborted to stop waiting for an agent that ignores a cancel. */
  readonly force: AbortController;
}

/** What the agent takes during a turn, from its `initialize` answer; undefined when neither. */
export function midTurnOffers(init: InitializeResponse): AgentMidTurn | undefined {
  const meta = init._meta as { steering?: { supported?: unknown } } | null | undefined;
  const caps = init.agentCapabilities?._meta as
    | { claudeCode?: { promptQueueing?: unknown } }
    | null
    | undefined;
  const steer = meta?.steering?.supported === true;
  const queue = caps?.claudeCode?.promptQueueing === true;
  return steer || queue ? { steer, queue } : undefined;
}

/** The prompts the agent holds behind the running turn, in the order they were sent. */
export class PromptQueue {
  private readonly waiting: { readonly turn: RunningTurn; readonly start: () => void }[] = [];

  /** How many prompts wait behind the running turn. */
  get length(): number {
    return this.waiting.length;
  }

  /** Resolves once every turn before `turn` has ended: its prompt then journals it and it runs. */
  wait(turn: RunningTurn): Promise<void> {
    return new Promise((start) => this.waiting.push({ turn, start }));
  }

  /**
   * The running turn ended (its end journaled): the next queued turn begins. Call it before anything
   * else is journaled, so the agent's updates of that turn follow its prompt.
   */
  next(): void {
    this.waiting.shift()?.start();
  }

  /** A cancel stops the queued turns too (the agent drops them with the running one). */
  cancelAll(): void {
    for (const w of this.waiting) w.turn.cancelled = true;
  }
}

/**
 * Steers the running turn with `prompt`. Resolves `steered` once the agent took it into that turn
 * (or started a turn with it), `ended` when the agent had no turn running any more (nothing kept).
 * Rejects with the agent's coded error, or `internal` when it answers that it could not take it.
 */
export async function steer(
  link: AgentLink,
  sessionId: string,
  prompt: readonly AgentContentBlock[],
): Promise<'steered' | 'ended'> {
  const r = await link.request<{ outcome?: unknown } | null>(STEERING_METHOD, {
    sessionId,
    prompt,
    _meta: { steering: { idleBehavior: 'promptRequired' } },
  });
  const outcome = r?.outcome;
  if (outcome === 'injected' || outcome === 'startedNewTurn') return 'steered';
  if (outcome === 'promptRequired') return 'ended';
  throw new SiloError('internal', `The agent could not take the message into its turn (${String(outcome)})`);
}
