/**
 * Scenarios that send what other agents send and the reference agent otherwise does not: a
 * permission request before its tool call, reasoning that starts with a blank chunk and is
 * interrupted by metadata-only updates, output only in `rawOutput` (Codex, Gemini CLI); a tool call
 * patched before it is announced (Cline); a turn the agent starts by itself (Claude).
 */
import type { RequestPermissionResponse, StopReason } from '@agentclientprotocol/sdk';
import { configOptions, setMode, wireModeId } from '../config.ts';
import type { Scenario } from '../scenarios.ts';
import type { Turn } from '../turn.ts';
import { COMMANDS } from './tools.ts';

/** Gemini CLI's option ids: a client must classify options by `kind`, never by id. */
export const GEMINI_OPTIONS = [
  { optionId: 'proceed_once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'proceed_always', name: 'Allow always', kind: 'allow_always' },
  { optionId: 'cancel', name: 'No, tell the agent why', kind: 'reject_once' },
] as const;

/** What the `ls` command of {@link permissionFirst} outputs (only in `rawOutput`). */
export const LS_OUTPUT = 'a.txt\nb.txt\n';

function allowed(response: RequestPermissionResponse): boolean {
  if (response.outcome.outcome !== 'selected') return false;
  const id = response.outcome.optionId;
  return GEMINI_OPTIONS.find((o) => o.optionId === id)?.kind.startsWith('allow') ?? false;
}

/**
 * `permission-first`: asks permission to run `ls -la` for a tool call never announced by `tool_call`
 * (as Gemini CLI does for every tool, Codex for shell commands). Allowed: one `tool_call_update`
 * (completed, no content, the output in `rawOutput`), then `Listed.`. Rejected: nothing more about
 * the tool call, `Not run.`, and the turn ends `end_turn`. Cancelled: the turn ends `cancelled`.
 */
export async function permissionFirst(turn: Turn): Promise<StopReason> {
  const response: RequestPermissionResponse = await turn.client.request('session/request_permission', {
    sessionId: turn.sessionId,
    toolCall: {
      toolCallId: turn.toolCallId('call-first'),
      title: 'ls -la',
      kind: 'execute',
      status: 'pending',
      rawInput: { command: ['ls', '-la'] },
    },
    options: [...GEMINI_OPTIONS],
  });
  if (response.outcome.outcome === 'cancelled' || turn.signal.aborted) return 'cancelled';
  if (allowed(response)) {
    await turn.update({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'call-first',
      status: 'completed',
      rawOutput: { stdout: LS_OUTPUT, exit_code: 0 },
    });
    await turn.say('Listed.');
  } else await turn.say('Not run.');
  return turn.end();
}

/**
 * `raw-output`: two tool calls that never get content, only `rawOutput` — a string (with markup that
 * must show as text) and an object.
 */
export async function rawOutput(turn: Turn): Promise<StopReason> {
  await turn.update({
    sessionUpdate: 'tool_call',
    toolCallId: 'call-raw-text',
    title: 'echo',
    kind: 'execute',
  });
  await turn.update({
    sessionUpdate: 'tool_call_update',
    toolCallId: 'call-raw-text',
    status: 'completed',
    rawOutput: '<b>not bold</b> done',
  });
  await turn.update({ sessionUpdate: 'tool_call', toolCallId: 'call-raw-json', title: 'stat', kind: 'read' });
  await turn.update({
    sessionUpdate: 'tool_call_update',
    toolCallId: 'call-raw-json',
    status: 'completed',
    rawOutput: { size: 42, mode: '0644' },
  });
  return turn.end();
}

/**
 * `reasoning`: Codex-style reasoning with no `messageId` on any chunk: it starts with a chunk that is
 * only `"\n\n"`, and `usage_update`, `available_commands_update` and `config_option_update` arrive in
 * the middle of the thought; then a message that also starts blank.
 */
export async function reasoning(turn: Turn): Promise<StopReason> {
  const thought = (text: string) =>
    turn.update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } });
  const message = (text: string) =>
    turn.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
  await thought('\n\n');
  await thought('**Planning** I look');
  await turn.update({ sessionUpdate: 'usage_update', used: 1200, size: 200000 });
  await thought(' at the files');
  await turn.update({ sessionUpdate: 'available_commands_update', availableCommands: COMMANDS });
  await thought(' and');
  await turn.update({
    sessionUpdate: 'config_option_update',
    configOptions: configOptions(turn.session, turn.clientCapabilities),
  });
  await thought(' decide.');
  await message(' \n');
  await message('Done.');
  return turn.end();
}

/**
 * `update-first`: as Cline, a `tool_call_update` (in progress, with content) before the `tool_call`
 * of the same id (title, kind, input, empty content), then the update that completes it (output only
 * in `rawOutput`), then `Listed.`.
 */
export async function updateFirst(turn: Turn): Promise<StopReason> {
  const content = [{ type: 'content', content: { type: 'text', text: 'Listing the files…' } }];
  await turn.update({
    sessionUpdate: 'tool_call_update',
    toolCallId: 'call-early',
    status: 'in_progress',
    content,
  });
  await turn.update({
    sessionUpdate: 'tool_call',
    toolCallId: 'call-early',
    title: 'ls',
    kind: 'execute',
    status: 'pending',
    rawInput: { command: 'ls' },
    content: [],
    locations: [],
  });
  await turn.update({
    sessionUpdate: 'tool_call_update',
    toolCallId: 'call-early',
    status: 'completed',
    rawOutput: { stdout: LS_OUTPUT },
  });
  await turn.say('Listed.');
  return turn.end();
}

/** What the agent says in the turn it starts by itself after `background`. */
export const BACKGROUND_DONE = 'The background task finished: 3 files checked.';

/**
 * `background [ms]`: starts a background task and ends the turn; `ms` (default 50) later the agent
 * runs a model turn of its own, as claude-agent-acp does when a background task finishes: a message
 * ({@link BACKGROUND_DONE}), then the usage that ends a model turn, marked
 * `_meta["_claude/origin"].kind: "task-notification"`. No prompt, no response: it arrives outside any
 * turn.
 */
export async function background(turn: Turn): Promise<StopReason> {
  const ms = Number(turn.args[0] ?? 50);
  await turn.say('Started a background task.');
  setTimeout(() => {
    void (async () => {
      await turn.say(BACKGROUND_DONE, { kind: 'agent_message_chunk' });
      await turn.update({
        sessionUpdate: 'usage_update',
        used: 2000,
        size: 200000,
        _meta: { '_claude/origin': { kind: 'task-notification' } },
      });
    })().catch(() => {});
  }, ms);
  return turn.end();
}

/** How long after its turn `mode-switch` announces the mode change (so it arrives outside the turn). */
export const MODE_SWITCH_DELAY_MS = 50;

/**
 * The agent's mode as announced outside a turn: a `current_mode_update`, or under
 * `--mode-update-marker` an `agent_message_chunk` `[MODE_UPDATE] <modeId>` (as Gemini CLI's).
 */
export function modeAnnouncement(modeId: string, marker: boolean): Record<string, unknown> {
  return marker
    ? {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: `[MODE_UPDATE] ${wireModeId(modeId)}` },
      }
    : { sessionUpdate: 'current_mode_update', currentModeId: wireModeId(modeId) };
}

/**
 * `mode-switch [modeId]`: the agent changes its own mode (default `architect`), says so, ends the
 * turn, and announces the change {@link MODE_SWITCH_DELAY_MS} after the turn's response (see
 * {@link modeAnnouncement}); the announcement is not replayed by `session/load`.
 */
export async function modeSwitch(turn: Turn): Promise<StopReason> {
  const modeId = turn.args[0] ?? 'architect';
  setMode(turn.session, modeId);
  await turn.say(`Switching to ${modeId} mode.`);
  const update = modeAnnouncement(modeId, turn.options.modeUpdateMarker);
  setTimeout(() => {
    void turn.client.notify('session/update', { sessionId: turn.sessionId, update } as never).catch(() => {});
  }, MODE_SWITCH_DELAY_MS);
  return turn.end();
}

/** This file's scenarios, in the order `/scenario list` and the demo's picker show them (index.ts). */
export const scenarios: readonly Scenario[] = [
  {
    name: 'permission-first',
    args: '',
    description:
      'Asks permission (Gemini option ids) for a tool call never announced; allowed: one completed update with only rawOutput; rejected: nothing more, end_turn.',
    run: permissionFirst,
  },
  {
    name: 'raw-output',
    args: '',
    description: 'Two tool calls with no content, only rawOutput: a string with markup, and an object.',
    run: rawOutput,
  },
  {
    name: 'mode-switch',
    args: '[modeId]',
    description:
      'The agent switches its own mode (default architect) and announces it after the turn (as [MODE_UPDATE] text under --mode-update-marker).',
    run: modeSwitch,
  },
  {
    name: 'reasoning',
    args: '',
    description:
      'Codex-style: id-less thought starting with "\\n\\n", usage/commands/config updates in its middle, then a message starting blank.',
    run: reasoning,
  },
  {
    name: 'update-first',
    args: '',
    description:
      'Cline-style: a tool_call_update (in progress, with content) before the tool_call of its id, then its completion.',
    run: updateFirst,
  },
  {
    name: 'background',
    args: '[ms]',
    description:
      'Starts a background task; ms (default 50) after the turn the agent runs a turn of its own (Claude: a task notification).',
    run: background,
  },
];
