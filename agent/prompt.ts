/**
 * The reference agent's prompt turns: `session/prompt` plays the scenario the prompt names (agent/
 * scenarios.ts `pickScenario`) as one {@link Turn}, recording the prompt and how the turn ended in the
 * session's history; `session/cancel` aborts the running turn; `_session/steering` (`--steering`)
 * hands a message to it.
 */
import { randomUUID } from 'node:crypto';
import {
  type AgentNotificationContext,
  type AgentRequestContext,
  type CancelNotification,
  type ContentBlock,
  type PromptRequest,
  type PromptResponse,
  RequestError,
  type StopReason,
} from '@agentclientprotocol/sdk';
import type { parseSteer } from './mid-turn.ts';
import type { AgentOptions } from './options.ts';
import { OPEN_TURN } from './replay-turns.ts';
import { scenario } from './scenarios/index.ts';
import { pickScenario } from './scenarios.ts';
import type { Sessions } from './sessions.ts';
import { sendThreadStatus } from './thread-status.ts';
import { type RawWriter, Turn } from './turn.ts';
import { duringTurn, responseFields } from './usage-shapes.ts';

function promptText(blocks: ContentBlock[]): string {
  return blocks
    .map((b) => {
      if (b.type === 'text') return b.text;
      if (b.type === 'resource_link') return `[${b.name}](${b.uri})`;
      if (b.type === 'resource') return `[${b.resource.uri}]`;
      return `[${b.type}]`;
    })
    .join('\n');
}

/** Whether the agent's `promptCapabilities` allow a prompt block (text and resource links always). */
function allowedInPrompt(block: ContentBlock, options: AgentOptions): boolean {
  const caps = options.promptCapabilities;
  if (block.type === 'image') return caps.image;
  if (block.type === 'audio') return caps.audio;
  if (block.type === 'resource') return caps.embeddedContext;
  return true;
}

/**
 * `session/prompt`: plays one turn and answers with its stop reason (and usage, under
 * `--usage-shape`). Throws `sessionNotFound` for a session not open here, invalid params for a block
 * the prompt capabilities refuse, and invalid request while a turn runs (under `--prompt-queueing`
 * the prompt waits for that turn to end instead). The session is saved before and after the turn.
 */
export async function prompt(
  sessions: Sessions,
  rawWriter: RawWriter,
  { params, client }: AgentRequestContext<PromptRequest>,
): Promise<PromptResponse> {
  const { options, store } = sessions;
  const session = sessions.liveSession(params.sessionId);
  const refused = params.prompt.find((b) => !allowedInPrompt(b, options));
  if (refused)
    throw RequestError.invalidParams({ type: refused.type }, `${refused.type} blocks are not accepted`);
  // Under --prompt-queueing a prompt during a turn runs once that turn has ended.
  while (session.idle && options.promptQueueing) await session.idle;
  if (session.turn || session.idle)
    throw RequestError.invalidRequest(undefined, 'a turn is already running in this session');
  let ended = () => {};
  const idle = new Promise<void>((resolve) => {
    ended = resolve;
  });
  session.idle = idle;
  const { record } = session;
  const text = promptText(params.prompt);
  // Open until the prompt is answered: a process that dies first leaves the turn open.
  const turnMark = { at: record.history.length, stopReason: OPEN_TURN };
  record.turns = [...(record.turns ?? []), turnMark];
  const userMessageId = `user-${randomUUID().slice(0, 8)}`;
  for (const block of params.prompt) {
    record.history.push({
      sessionUpdate: 'user_message_chunk',
      ...(options.messageId ? { messageId: userMessageId } : {}),
      content: block,
    });
  }
  store.save(record);
  if (options.echoPrompt) {
    for (const block of params.prompt) {
      await client.notify('session/update', {
        sessionId: record.sessionId,
        update: {
          sessionUpdate: 'user_message_chunk',
          content: block,
          ...(options.messageId ? { messageId: userMessageId } : {}),
        },
      });
    }
  }
  const picked = pickScenario(text);
  const controller = new AbortController();
  session.turn = controller;
  const turn = new Turn(
    record.sessionId,
    picked.args,
    picked.text,
    controller.signal,
    client,
    sessions.caps,
    options,
    record,
    rawWriter,
    params.prompt,
    () => {
      if (store.get(record.sessionId)) store.save(record);
    },
  );
  session.current = turn;
  await sendThreadStatus(options.threadStatus, client, record.sessionId, {
    type: 'active',
    activeFlags: [],
  });
  try {
    const played = scenario(picked.name);
    let stopReason: StopReason;
    if (played) stopReason = await played.run(turn);
    else {
      await turn.say(`Unknown scenario "${picked.name}". Send \`/scenario list\` to see them all.`);
      stopReason = turn.end();
    }
    turnMark.stopReason = stopReason;
    if (stopReason === 'cancelled' && options.interruptMarker) {
      record.history.push({
        sessionUpdate: 'user_message_chunk',
        ...(options.messageId ? { messageId: `user-${randomUUID().slice(0, 8)}` } : {}),
        content: { type: 'text', text: '[Request interrupted by user]' },
      });
    }
    // Each agent reports usage its own way (--usage-shape, agent/usage-shapes.ts).
    const shape = options.usageShape;
    if (!shape) return { stopReason };
    await duringTurn(shape, turn, text.length);
    return { stopReason, ...responseFields(shape, text.length) };
  } finally {
    void sendThreadStatus(options.threadStatus, client, record.sessionId, { type: 'idle' }).catch(() => {});
    if (session.turn === controller) session.turn = null;
    if (session.current === turn) session.current = undefined;
    if (session.idle === idle) session.idle = undefined;
    ended();
    if (store.get(record.sessionId)) store.save(record);
  }
}

/** `session/cancel`: aborts the session's running turn, if any. */
export function cancel(sessions: Sessions, { params }: AgentNotificationContext<CancelNotification>): void {
  sessions.live.get(params.sessionId)?.turn?.abort();
}

/**
 * `_session/steering` (`--steering`): the message joins the running turn's history and its
 * {@link Turn.steers}. With no turn running: `promptRequired` when asked for, else invalid request.
 */
export function steer(sessions: Sessions, { params }: AgentRequestContext<ReturnType<typeof parseSteer>>) {
  const session = sessions.liveSession(params.sessionId);
  const turn = session.current;
  if (!turn || turn.signal.aborted) {
    if (params.promptRequired) return { outcome: 'promptRequired', reason: 'noRunningTurn' };
    throw RequestError.invalidRequest(undefined, 'no turn is running');
  }
  for (const block of params.prompt)
    session.record.history.push({ sessionUpdate: 'user_message_chunk', content: block });
  turn.steers.push(params.prompt);
  return { outcome: 'injected' };
}
