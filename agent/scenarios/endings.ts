/** Scenarios about how a turn ends: every stopReason, slow and cancellable streams, hangs, crashes. */
import { RequestError, type StopReason } from '@agentclientprotocol/sdk';
import type { Scenario } from '../scenarios.ts';
import type { Turn } from '../turn.ts';

export async function stop(turn: Turn, reason: string): Promise<StopReason> {
  await turn.say(reason === 'refusal' ? 'I cannot help with that.' : `Stopping with ${reason}.`);
  return turn.end(reason);
}

/** Streams `chunks` chunks `ms` apart; a cancel stops it promptly with `cancelled`. */
export async function slow(turn: Turn): Promise<StopReason> {
  const chunks = Number(turn.args[0] ?? 50);
  const ms = Number(turn.args[1] ?? 100);
  const messageId = turn.newMessageId();
  for (let i = 0; i < chunks && !turn.signal.aborted; i++) {
    await turn.update({
      sessionUpdate: 'agent_message_chunk',
      messageId,
      content: { type: 'text', text: `chunk ${i} ` },
    });
    await turn.sleep(ms);
  }
  return turn.end();
}

/** Like `slow`, but a cancel makes the prompt fail with an internal error (a non-conformant agent). */
export async function cancelError(turn: Turn): Promise<StopReason> {
  const messageId = turn.newMessageId();
  for (let i = 0; i < 100 && !turn.signal.aborted; i++) {
    await turn.update({
      sessionUpdate: 'agent_message_chunk',
      messageId,
      content: { type: 'text', text: `part ${i} ` },
    });
    await turn.sleep(100);
  }
  if (turn.signal.aborted) throw RequestError.internalError(undefined, 'aborted while streaming');
  return turn.end();
}

/** Sends one chunk, then never answers (not even a cancel). */
export async function hang(turn: Turn): Promise<StopReason> {
  await turn.say('I will now stop answering.');
  return new Promise<StopReason>(() => {});
}

/** What `crash` writes on stderr before it exits: the line a client should quote. */
export const CRASH_STDERR = 'reference-agent: crashed on purpose (/scenario crash)';

/**
 * Sends a chunk and a pending tool call, then exits the process with `code` (default 3). On the way
 * out it writes {@link CRASH_STDERR} and then, as real agents do, a Node warning (Node prints it and
 * its hint after the agent's own line), so the last stderr line is not the meaningful one.
 */
export async function crash(turn: Turn): Promise<StopReason> {
  const code = Number(turn.args[0] ?? 3);
  await turn.say('About to crash. ');
  await turn.update({
    sessionUpdate: 'tool_call',
    toolCallId: 'call-crash',
    title: 'Dangerous operation',
    kind: 'execute',
    status: 'pending',
  });
  process.stderr.write(`${CRASH_STDERR}\n`);
  // Node writes a warning from its 'warning' listener, a tick after it is emitted: exit after it.
  process.once('warning', () => setImmediate(() => process.exit(code)));
  process.emitWarning(
    'Possible EventTarget memory leak detected. 11 abort listeners added to [AbortSignal]. MaxListeners is 10.',
    'MaxListenersExceededWarning',
  );
  return new Promise<StopReason>(() => {});
}

/** This file's scenarios, in the order `/scenario list` and the demo's picker show them (index.ts). */
export const scenarios: readonly Scenario[] = [
  {
    name: 'stop',
    args: '<reason>',
    description:
      'Ends the turn with the given stopReason (end_turn, max_tokens, max_turn_requests, refusal, or any string).',
    run: (t) => stop(t, t.args[0] ?? 'end_turn'),
  },
  {
    name: 'max-tokens',
    args: '',
    description: 'Some text, then stopReason max_tokens.',
    run: (t) => stop(t, 'max_tokens'),
  },
  {
    name: 'max-turn-requests',
    args: '',
    description: 'Some text, then stopReason max_turn_requests.',
    run: (t) => stop(t, 'max_turn_requests'),
  },
  {
    name: 'refusal',
    args: '',
    description: 'A short refusal, then stopReason refusal.',
    run: (t) => stop(t, 'refusal'),
  },
  {
    name: 'slow',
    args: '[chunks] [ms]',
    description: 'Streams slowly (default 50 chunks, 100 ms apart); session/cancel ends it with cancelled.',
    run: slow,
  },
  {
    name: 'cancel-error',
    args: '',
    description: 'Streams slowly; on cancel answers the prompt with an error instead of cancelled.',
    run: cancelError,
  },
  {
    name: 'hang',
    args: '',
    description: 'Sends one chunk, then never answers the prompt (ignores cancel).',
    run: hang,
  },
  {
    name: 'crash',
    args: '[code]',
    description:
      'Sends a chunk and a pending tool call, then exits with code 3 mid-turn (stderr: a line, then a Node warning).',
    run: crash,
  },
];
