/** Structured updates: tool calls, plans, usage, title, commands, config/mode, notices, compaction. */
import type { StopReason } from '@agentclientprotocol/sdk';
import { configOptions } from '../config.ts';
import type { Scenario } from '../scenarios.ts';
import type { Turn } from '../turn.ts';

const CWD_FALLBACK = '/tmp/silo-demo';

function planEntries(statuses: ('pending' | 'in_progress' | 'completed')[]) {
  const contents = ['Read the existing code', 'Write the new module', 'Run the checks'];
  const priorities = ['high', 'medium', 'low'] as const;
  return statuses.map((status, i) => ({ content: contents[i]!, priority: priorities[i]!, status }));
}

/**
 * The tool-call tour shared by `tools` and `demo`: a read that completes with content and a
 * location, a new file (diff with oldText null), an edit (diff), and a command that fails.
 * The plan is re-sent whole as it progresses.
 */
export async function toolsTour(turn: Turn, delayMs = 0): Promise<void> {
  const cwd = turn.session.cwd || CWD_FALLBACK;
  const file = `${cwd}/src/greet.ts`;
  const readme = `${cwd}/README.md`;
  await turn.update({ sessionUpdate: 'plan', entries: planEntries(['in_progress', 'pending', 'pending']) });

  await turn.update({
    sessionUpdate: 'tool_call',
    toolCallId: 'call-read',
    title: 'Read README.md',
    kind: 'read',
    status: 'pending',
    rawInput: { path: readme },
  });
  await turn.sleep(delayMs);
  await turn.update({
    sessionUpdate: 'tool_call_update',
    toolCallId: 'call-read',
    status: 'in_progress',
    locations: [{ path: readme, line: 1 }],
  });
  await turn.sleep(delayMs);
  await turn.update({
    sessionUpdate: 'tool_call_update',
    toolCallId: 'call-read',
    status: 'completed',
    content: [{ type: 'content', content: { type: 'text', text: '# Project\n\nA tiny project.' } }],
    rawOutput: { bytes: 27 },
  });
  await turn.update({ sessionUpdate: 'plan', entries: planEntries(['completed', 'in_progress', 'pending']) });

  await turn.update({
    sessionUpdate: 'tool_call',
    toolCallId: 'call-new',
    title: 'Create src/greet.ts',
    kind: 'edit',
    status: 'pending',
    locations: [{ path: file }],
  });
  await turn.sleep(delayMs);
  await turn.update({
    sessionUpdate: 'tool_call_update',
    toolCallId: 'call-new',
    status: 'completed',
    content: [
      {
        type: 'diff',
        path: file,
        oldText: null,
        newText: "export const greet = (n: string): string => 'Hi ' + n;\n",
      },
    ],
  });
  await turn.update({
    sessionUpdate: 'tool_call',
    toolCallId: 'call-edit',
    title: 'Edit README.md',
    kind: 'edit',
    status: 'in_progress',
    locations: [{ path: readme, line: 3 }],
  });
  await turn.sleep(delayMs);
  await turn.update({
    sessionUpdate: 'tool_call_update',
    toolCallId: 'call-edit',
    status: 'completed',
    content: [
      {
        type: 'diff',
        path: readme,
        oldText: '# Project\n\nA tiny project.\n',
        newText: '# Project\n\nA tiny project that greets.\n',
      },
    ],
  });
  await turn.update({
    sessionUpdate: 'plan',
    entries: planEntries(['completed', 'completed', 'in_progress']),
  });

  await turn.update({
    sessionUpdate: 'tool_call',
    toolCallId: 'call-check',
    title: 'npm test',
    kind: 'execute',
    status: 'pending',
    rawInput: { command: 'npm test' },
  });
  await turn.sleep(delayMs);
  await turn.update({ sessionUpdate: 'tool_call_update', toolCallId: 'call-check', status: 'in_progress' });
  await turn.sleep(delayMs);
  await turn.update({
    sessionUpdate: 'tool_call_update',
    toolCallId: 'call-check',
    status: 'failed',
    content: [{ type: 'content', content: { type: 'text', text: 'Error: 1 test failed (greet.test.ts)' } }],
    rawOutput: { exitCode: 1 },
  });
  await turn.update({ sessionUpdate: 'plan', entries: planEntries(['completed', 'completed', 'completed']) });
}

export async function tools(turn: Turn): Promise<StopReason> {
  await toolsTour(turn);
  await turn.say('Done: one read, a new file, an edit, and a failed check.');
  return turn.end();
}

export async function plan(turn: Turn): Promise<StopReason> {
  await turn.update({ sessionUpdate: 'plan', entries: planEntries(['pending', 'pending', 'pending']) });
  await turn.update({ sessionUpdate: 'plan', entries: planEntries(['in_progress', 'pending', 'pending']) });
  await turn.say('Working on it. ');
  await turn.update({ sessionUpdate: 'plan', entries: planEntries(['completed', 'in_progress', 'pending']) });
  await turn.update({
    sessionUpdate: 'plan',
    entries: planEntries(['completed', 'completed', 'in_progress']),
  });
  await turn.update({ sessionUpdate: 'plan', entries: planEntries(['completed', 'completed', 'completed']) });
  await turn.say('All three steps done.');
  return turn.end();
}

export async function usage(turn: Turn): Promise<StopReason> {
  await turn.update({ sessionUpdate: 'usage_update', used: 1000, size: 200000 });
  await turn.say('Some work. ');
  await turn.update({
    sessionUpdate: 'usage_update',
    used: 53000,
    size: 200000,
    cost: { amount: 0.0123, currency: 'USD' },
  });
  return turn.end();
}

export async function title(turn: Turn): Promise<StopReason> {
  turn.session.title = turn.args.join(' ') || 'A title from the agent';
  await turn.update({
    sessionUpdate: 'session_info_update',
    title: turn.session.title,
    updatedAt: new Date().toISOString(),
  });
  await turn.say(`Title set to "${turn.session.title}".`);
  return turn.end();
}

export const COMMANDS = [
  { name: 'scenario', description: 'Play a scripted scenario', input: { hint: 'name [args]' } },
  { name: 'review', description: 'Review the current changes' },
  { name: 'web', description: 'Search the web', input: { hint: 'query' } },
];

export async function commands(turn: Turn): Promise<StopReason> {
  await turn.update({ sessionUpdate: 'available_commands_update', availableCommands: COMMANDS });
  await turn.say('Commands updated.');
  return turn.end();
}

export async function notice(turn: Turn): Promise<StopReason> {
  if (!turn.clientCapabilities.session?.notices) {
    await turn.say('(notice) The client did not advertise session.notices, so this is a plain message.');
    return turn.end();
  }
  for (const severity of ['info', 'warning', 'error'] as const) {
    await turn.update(
      {
        sessionUpdate: 'notice',
        severity,
        title: `A ${severity} notice`,
        description: `Details of the ${severity} notice.`,
      },
      { history: false },
    );
  }
  await turn.say('Three notices sent.');
  return turn.end();
}

export async function compaction(turn: Turn): Promise<StopReason> {
  if (!turn.clientCapabilities.session?.compaction) {
    await turn.say('(compaction) The client did not advertise session.compaction, so nothing was compacted.');
    return turn.end();
  }
  const compactionId = `cmp-${Date.now()}`;
  await turn.update({ sessionUpdate: 'compaction_update', compactionId, status: 'in_progress' });
  await turn.update({
    sessionUpdate: 'compaction_summary_chunk',
    compactionId,
    content: { type: 'text', text: 'Summary: the user asked for ' },
  });
  await turn.update({
    sessionUpdate: 'compaction_summary_chunk',
    compactionId,
    content: { type: 'text', text: 'a tour of the agent.' },
  });
  await turn.update({ sessionUpdate: 'compaction_update', compactionId, status: 'completed' });
  await turn.say('Context compacted.');
  return turn.end();
}

/** The agent changes its own mode and model mid-turn. */
export async function config(turn: Turn): Promise<StopReason> {
  turn.session.modeId = turn.session.modeId === 'architect' ? 'code' : 'architect';
  await turn.update({ sessionUpdate: 'current_mode_update', currentModeId: turn.session.modeId });
  turn.session.model = 'smart';
  await turn.update({
    sessionUpdate: 'config_option_update',
    configOptions: configOptions(turn.session, turn.clientCapabilities),
  });
  await turn.say(`Switched to mode ${turn.session.modeId} and model ${turn.session.model}.`);
  return turn.end();
}

/** This file's scenarios, in the order `/scenario list` and the demo's picker show them (index.ts). */
export const scenarios: readonly Scenario[] = [
  {
    name: 'tools',
    args: '',
    description:
      'Tool calls pending → in_progress → completed/failed, with content, diffs (new file, edit) and locations.',
    run: tools,
  },
  {
    name: 'plan',
    args: '',
    description: 'A three-entry plan re-sent whole as each entry progresses.',
    run: plan,
  },
  { name: 'usage', args: '', description: 'usage_update without cost, then with cost.', run: usage },
  {
    name: 'title',
    args: '[title]',
    description: 'session_info_update setting the title (and updatedAt).',
    run: title,
  },
  {
    name: 'commands',
    args: '',
    description: 'available_commands_update with commands, one with an input hint.',
    run: commands,
  },
  {
    name: 'config',
    args: '',
    description: 'The agent changes its own mode and model: current_mode_update and config_option_update.',
    run: config,
  },
  {
    name: 'notice',
    args: '',
    description:
      'notice updates of each severity (or a plain message if the client did not advertise notices).',
    run: notice,
  },
  {
    name: 'compaction',
    args: '',
    description: 'compaction_update in_progress → summary chunks → completed (if advertised).',
    run: compaction,
  },
];
