/**
 * `subagent`: a Task (Agent) call whose subagent searches, runs a command and answers, as
 * claude-agent-acp (0.101) sends it (its dist code: acp-agent.js `stampParentToolUseId`,
 * native-subagents.js, tool-calls/reporters/agent.js). Two forms:
 * - in the session (what a client without `clientCapabilities.subagents` gets; with
 *   `_meta["subagent-transcript"]` it is also replayed by `session/load`): the Agent tool call, then
 *   the subagent's thoughts, text and tool calls, each stamped `_meta.claudeCode.parentToolUseId`
 *   with the Agent call's id, then the Agent call's result;
 * - as an ACP child session (`/scenario subagent rfd`, or a client that advertises `subagents`):
 *   no Agent tool call; a `subagent_update` announces the child, the parent's `session_message`
 *   gives it its task, the child's own updates go out under its session id, a `subagent_update`
 *   reports it idle, and a `session_message` from it carries its answer.
 */
import type { StopReason } from '@agentclientprotocol/sdk';
import type { Scenario } from '../scenarios.ts';
import type { RawUpdate, Turn } from '../turn.ts';

export const SUBAGENT_TITLE = 'Explore the repo';
export const SUBAGENT_PROMPT = 'Find where greet is defined.';
export const SUBAGENT_THOUGHT = 'I search the sources for greet.';
export const SUBAGENT_TEXT = 'It is in src/greet.ts.';
export const SUBAGENT_REPORT = 'greet is defined in src/greet.ts (line 1).';
export const SUBAGENT_OUTPUT = 'src/greet.ts:1:export const greet\n';
export const PARENT_TEXT = 'The subagent found it.';

/** The subagent's own work: a thought, a search, a command with a terminal, its text. */
async function work(turn: Turn, launch: string, send: (u: RawUpdate) => Promise<void>): Promise<void> {
  const meta = (toolName?: string) => ({
    claudeCode: { ...(toolName ? { toolName } : {}), parentToolUseId: launch },
  });
  const bash = turn.toolCallId('sub-bash');
  await send({
    sessionUpdate: 'agent_thought_chunk',
    messageId: turn.newMessageId(),
    content: { type: 'text', text: SUBAGENT_THOUGHT },
    _meta: meta(),
  });
  await send({
    _meta: meta('Grep'),
    toolCallId: 'sub-grep',
    sessionUpdate: 'tool_call',
    name: 'Grep',
    rawInput: { pattern: 'greet' },
    status: 'pending',
    title: 'grep "greet"',
    kind: 'search',
    content: [],
  });
  await send({
    _meta: meta('Grep'),
    toolCallId: 'sub-grep',
    sessionUpdate: 'tool_call_update',
    status: 'completed',
    content: [{ type: 'content', content: { type: 'text', text: 'Found 1 file' } }],
  });
  await send({
    _meta: { ...meta('Bash'), terminal_info: { terminal_id: bash } },
    toolCallId: 'sub-bash',
    sessionUpdate: 'tool_call',
    name: 'Bash',
    rawInput: { command: 'grep -n greet src/greet.ts' },
    status: 'pending',
    title: 'grep -n greet src/greet.ts',
    kind: 'execute',
    content: [{ type: 'terminal', terminalId: bash }],
  });
  await send({
    _meta: { ...meta(), terminal_output_delta: { terminal_id: bash, data: SUBAGENT_OUTPUT } },
    toolCallId: 'sub-bash',
    sessionUpdate: 'tool_call_update',
  });
  await send({
    _meta: { ...meta('Bash'), terminal_exit: { terminal_id: bash, exit_code: 0, signal: null } },
    toolCallId: 'sub-bash',
    sessionUpdate: 'tool_call_update',
    status: 'completed',
    content: [{ type: 'terminal', terminalId: bash }],
  });
  await send({
    sessionUpdate: 'agent_message_chunk',
    messageId: turn.newMessageId(),
    content: { type: 'text', text: SUBAGENT_TEXT },
    _meta: meta(),
  });
}

/** In the session: the Agent call, its subagent's stamped updates, its result. */
async function inSession(turn: Turn): Promise<void> {
  const launch = turn.toolCallId('sub-agent');
  await turn.update({
    _meta: { claudeCode: { toolName: 'Agent' } },
    toolCallId: 'sub-agent',
    sessionUpdate: 'tool_call',
    name: 'Agent',
    rawInput: { description: SUBAGENT_TITLE, prompt: SUBAGENT_PROMPT, subagent_type: 'Explore' },
    status: 'pending',
    title: SUBAGENT_TITLE,
    kind: 'think',
    content: [{ type: 'content', content: { type: 'text', text: SUBAGENT_PROMPT } }],
  });
  await turn.update({
    sessionUpdate: 'tool_call_update',
    toolCallId: 'sub-agent',
    status: 'in_progress',
    _meta: {
      claudeCode: { toolName: 'Agent', toolResponse: { elapsedTimeSeconds: 1, subagentType: 'Explore' } },
    },
  });
  await work(turn, launch, (u) => turn.update(u));
  await turn.update({
    _meta: { claudeCode: { toolName: 'Agent' } },
    toolCallId: 'sub-agent',
    sessionUpdate: 'tool_call_update',
    status: 'completed',
    content: [{ type: 'content', content: { type: 'text', text: SUBAGENT_REPORT } }],
  });
}

/** As an ACP child session (the RFD form). The child's own updates are not replayed by `session/load`. */
async function childSession(turn: Turn): Promise<void> {
  const launch = turn.toolCallId('sub-agent');
  const child = `agent-${launch}`;
  const parent = turn.sessionId;
  await turn.update({
    sessionUpdate: 'subagent_update',
    sessionId: child,
    title: SUBAGENT_TITLE,
    description: 'Explore',
    capabilities: { cancel: {} },
    state: { state: 'running' },
  });
  const message = {
    sessionUpdate: 'session_message',
    messageId: launch,
    senderSessionId: parent,
    recipientSessionId: child,
    content: [{ type: 'text', text: SUBAGENT_PROMPT }],
  };
  await turn.update({ ...message, recipientMessageId: launch });
  const toChild = (u: RawUpdate) => turn.update(u, { sessionId: child, history: false });
  await toChild({ ...message, senderMessageId: launch });
  await work(turn, launch, toChild);
  await turn.update({
    sessionUpdate: 'subagent_update',
    sessionId: child,
    state: { state: 'idle', stopReason: 'end_turn' },
  });
  await turn.update({
    sessionUpdate: 'session_message',
    messageId: `${launch}:reply`,
    senderSessionId: child,
    recipientSessionId: parent,
    content: [{ type: 'text', text: SUBAGENT_REPORT }],
  });
}

/** `subagent [rfd]`. */
async function subagent(turn: Turn): Promise<StopReason> {
  const rfd =
    turn.args.includes('rfd') || Boolean((turn.clientCapabilities as { subagents?: unknown }).subagents);
  await (rfd ? childSession(turn) : inSession(turn));
  await turn.say(PARENT_TEXT);
  return turn.end();
}

export const scenarios: readonly Scenario[] = [
  {
    name: 'subagent',
    args: '[rfd]',
    description:
      "A Task call whose subagent thinks, searches, runs a command and answers, as claude-agent-acp sends it: in the session, stamped with the call's id; with rfd (or a client advertising subagents), as an ACP child session.",
    run: subagent,
  },
];

/**
 * What a `session/load` replays of subagents' text, as claude-agent-acp does: a subagent's text and
 * thoughts (stamped `parentToolUseId`) only to a client that advertised `_meta["subagent-transcript"]`.
 */
export function withoutSubagentText<T extends Record<string, unknown>>(
  history: readonly T[],
  caps: { readonly _meta?: Record<string, unknown> | null },
): T[] {
  if (caps._meta?.['subagent-transcript'] === true) return [...history];
  return history.filter((u) => {
    const text = u.sessionUpdate === 'agent_message_chunk' || u.sessionUpdate === 'agent_thought_chunk';
    const meta = u._meta as { claudeCode?: { parentToolUseId?: unknown } } | undefined;
    return !(text && typeof meta?.claudeCode?.parentToolUseId === 'string');
  });
}
