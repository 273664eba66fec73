/** Benchmark scenarios: a flood as fast as the pipe takes it, and a paced stream stamped with send times. */
import type { StopReason } from '@agentclientprotocol/sdk';
import type { Scenario } from '../scenarios.ts';
import type { Turn } from '../turn.ts';

/** `flood [n]`: n chunks of one message, awaited one by one (the pipe's pace). History keeps a summary. */
export async function flood(turn: Turn): Promise<StopReason> {
  const n = Number(turn.args[0] ?? 10000);
  const messageId = turn.newMessageId();
  for (let i = 0; i < n && !turn.signal.aborted; i++) {
    await turn.update(
      { sessionUpdate: 'agent_message_chunk', messageId, content: { type: 'text', text: `${i} ` } },
      { history: false },
    );
  }
  turn.session.history.push({
    sessionUpdate: 'agent_message_chunk',
    messageId,
    content: { type: 'text', text: `(flood of ${n} chunks)` },
  });
  return turn.end();
}

/** `paced <rate> <count>`: count chunks at rate per second, each with `_meta["silo/sentAt"]`. */
export async function paced(turn: Turn): Promise<StopReason> {
  const rate = Math.max(1, Number(turn.args[0] ?? 100));
  const count = Number(turn.args[1] ?? 1000);
  const messageId = turn.newMessageId();
  const start = performance.now();
  for (let i = 0; i < count && !turn.signal.aborted; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await turn.sleep(wait);
    await turn.update(
      {
        sessionUpdate: 'agent_message_chunk',
        messageId,
        content: { type: 'text', text: `${i} ` },
        _meta: { 'silo/sentAt': Date.now(), 'silo/seq': i },
      },
      { history: false },
    );
  }
  turn.session.history.push({
    sessionUpdate: 'agent_message_chunk',
    messageId,
    content: { type: 'text', text: `(paced ${count} chunks at ${rate}/s)` },
  });
  return turn.end();
}

/** This file's scenarios, in the order `/scenario list` and the demo's picker show them (index.ts). */
export const scenarios: readonly Scenario[] = [
  {
    name: 'flood',
    args: '[n]',
    description: 'n chunks (default 10000) as fast as the pipe takes them; history keeps one summary.',
    run: flood,
  },
  {
    name: 'paced',
    args: '<rate> <count>',
    description: 'count chunks at rate per second, each with _meta["silo/sentAt"] = Date.now().',
    run: paced,
  },
];
