/** Scenarios for what an agent offers beyond a plain turn: a turn that takes steered messages. */
import type { ContentBlock, StopReason } from '@agentclientprotocol/sdk';
import type { Scenario } from '../scenarios.ts';
import type { Turn } from '../turn.ts';

const textOf = (blocks: ContentBlock[]) =>
  blocks.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join(' ');

/**
 * Says it is working, then waits up to `ms` (default 10000) for a message steered into the turn
 * (`--steering`), answers it, and ends; a cancel ends it at once.
 */
export async function steerWait(turn: Turn): Promise<StopReason> {
  const ms = Number(turn.args[0] ?? 10_000);
  await turn.say('Working on it; send me a message meanwhile.');
  const steered = await turn.steers.next(turn.signal, ms);
  if (turn.signal.aborted) return turn.end();
  await turn.say(
    steered ? `You said, during the turn: ${textOf(steered)}` : 'No message came during the turn.',
  );
  return turn.end();
}

export const scenarios: readonly Scenario[] = [
  {
    name: 'steer-wait',
    args: '[ms]',
    description:
      'Waits for a message steered into the running turn (agent flag --steering), then answers it.',
    run: steerWait,
  },
];
