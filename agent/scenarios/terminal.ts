/**
 * `terminal`: command output as claude-agent-acp (0.101) and codex-acp (2.6) send it to a client that
 * advertises `clientCapabilities._meta.terminal_output` (and `terminal_output_delta`), in their exact
 * shapes (their dist code: tool-calls/renderer.js and background-work.js; AcpToolCallRenderer and
 * CommandReporter). To a client that advertises neither, Claude's output goes as a console block in
 * the content and Codex's still as `terminal_output_delta` (what codex-acp does).
 */
import type { StopReason } from '@agentclientprotocol/sdk';
import type { Scenario } from '../scenarios.ts';
import type { Turn } from '../turn.ts';

const ESC = '\u001b';
const red = (s: string) => `${ESC}[31m${s}${ESC}[39m`;
const green = (s: string) => `${ESC}[32m${s}${ESC}[39m`;
const bold = (s: string) => `${ESC}[1m${s}${ESC}[22m`;

/** What the Claude-style `npm test` prints (ANSI colours, a failing test). */
export const CLAUDE_OUTPUT = `${bold('> npm test')}\n${green('✓')} greet.test.ts\n${red('✗ FAIL')} sum.test.ts: expected 3, got 4\n`;
/** The placeholder a backgrounded command's terminal gets first, then replaced by its output. */
export const BACKGROUND_PLACEHOLDER = 'Command running in background with ID: bg-1';
/** A line of the Codex-style slow build (`n` from 1). */
export const buildLine = (n: number) => `${green('CC')} src/part${n}.c\n`;

/** What the client advertised: Claude renders a terminal for either key, delta chunks for the second. */
function terminalCaps(turn: Turn): { terminal: boolean; delta: boolean } {
  const meta = (turn.clientCapabilities._meta ?? {}) as Record<string, unknown>;
  const delta = meta.terminal_output_delta === true;
  return { terminal: delta || meta.terminal_output === true, delta };
}

/** claude-agent-acp: a foreground Bash call that fails (exit code 1), its output sent once at its end. */
async function claudeBash(turn: Turn): Promise<void> {
  const { terminal, delta } = terminalCaps(turn);
  const id = turn.toolCallId('term-claude');
  await turn.update({
    _meta: { claudeCode: { toolName: 'Bash' }, ...(terminal ? { terminal_info: { terminal_id: id } } : {}) },
    toolCallId: 'term-claude',
    sessionUpdate: 'tool_call',
    name: 'Bash',
    rawInput: { command: 'npm test', description: 'Run the tests' },
    status: 'pending',
    title: 'npm test',
    kind: 'execute',
    content: terminal ? [{ type: 'terminal', terminalId: id }] : [],
  });
  await turn.update({ sessionUpdate: 'tool_call_update', toolCallId: 'term-claude', status: 'in_progress' });
  if (!terminal) {
    await turn.update({
      _meta: { claudeCode: { toolName: 'Bash' } },
      toolCallId: 'term-claude',
      sessionUpdate: 'tool_call_update',
      status: 'failed',
      content: [
        {
          type: 'content',
          content: { type: 'text', text: `\`\`\`console\n${CLAUDE_OUTPUT.trimEnd()}\n\`\`\`` },
        },
      ],
    });
    return;
  }
  const output = { terminal_id: id, data: CLAUDE_OUTPUT };
  await turn.update({
    _meta: delta ? { terminal_output_delta: output } : { terminal_output: output },
    toolCallId: 'term-claude',
    sessionUpdate: 'tool_call_update',
  });
  await turn.update({
    _meta: {
      claudeCode: { toolName: 'Bash' },
      terminal_exit: { terminal_id: id, exit_code: 1, signal: null },
    },
    toolCallId: 'term-claude',
    sessionUpdate: 'tool_call_update',
    status: 'failed',
    content: [{ type: 'terminal', terminalId: id }],
  });
}

/**
 * claude-agent-acp: a command that went to the background. Its Bash result gives the terminal a
 * placeholder and completes without an exit; the command's own output then replaces it
 * (`terminal_output`), later output appends (`terminal_output_delta`), and its end exits the terminal
 * with no exit code (Claude Code reports none).
 */
async function claudeBackground(turn: Turn, lines: number, delayMs: number): Promise<void> {
  if (!terminalCaps(turn).terminal) return;
  const id = turn.toolCallId('term-background');
  await turn.update({
    _meta: { claudeCode: { toolName: 'Bash' }, terminal_info: { terminal_id: id } },
    toolCallId: 'term-background',
    sessionUpdate: 'tool_call',
    name: 'Bash',
    rawInput: { command: 'npm run watch', run_in_background: true },
    status: 'pending',
    title: 'npm run watch',
    kind: 'execute',
    content: [{ type: 'terminal', terminalId: id }],
  });
  await turn.update({
    _meta: { terminal_output_delta: { terminal_id: id, data: BACKGROUND_PLACEHOLDER } },
    toolCallId: 'term-background',
    sessionUpdate: 'tool_call_update',
  });
  await turn.update({
    _meta: { claudeCode: { toolName: 'Bash' } },
    toolCallId: 'term-background',
    sessionUpdate: 'tool_call_update',
    status: 'completed',
    content: [{ type: 'terminal', terminalId: id }],
  });
  for (let n = 1; n <= lines && !turn.signal.aborted; n++) {
    const data = { terminal_id: id, data: `watch: rebuilt ${n}\n` };
    await turn.update({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'term-background',
      _meta: n === 1 ? { terminal_output: data } : { terminal_output_delta: data },
    });
    await turn.sleep(delayMs);
  }
  await turn.update({
    sessionUpdate: 'tool_call_update',
    toolCallId: 'term-background',
    _meta: { terminal_exit: { terminal_id: id, exit_code: null, signal: null } },
  });
}

/** codex-acp: a slow build streaming one line every `delayMs`, then its exit (code 0) with the completion. */
async function codexBuild(turn: Turn, lines: number, delayMs: number): Promise<void> {
  const id = turn.toolCallId('term-codex');
  const cwd = turn.session.cwd || '/tmp';
  await turn.update({
    sessionUpdate: 'tool_call',
    toolCallId: 'term-codex',
    kind: 'execute',
    title: 'make',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId: id }],
    rawInput: { command: 'make', cwd },
    _meta: { terminal_info: { cwd, terminal_id: id } },
  });
  for (let n = 1; n <= lines && !turn.signal.aborted; n++) {
    await turn.sleep(delayMs);
    await turn.update({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'term-codex',
      _meta: { terminal_output_delta: { data: buildLine(n), terminal_id: id } },
    });
  }
  await turn.update({
    sessionUpdate: 'tool_call_update',
    toolCallId: 'term-codex',
    status: turn.signal.aborted ? 'failed' : 'completed',
    _meta: { terminal_exit: { exit_code: turn.signal.aborted ? 130 : 0, signal: null, terminal_id: id } },
  });
}

/** `terminal [lines] [ms]`: Claude's failing command, its background command, Codex's slow build. */
async function terminal(turn: Turn): Promise<StopReason> {
  const lines = Math.max(1, Number(turn.args[0] ?? 8) || 8);
  const delayMs = Math.max(0, Number(turn.args[1] ?? 150) || 0);
  await claudeBash(turn);
  await claudeBackground(turn, 3, 0);
  await codexBuild(turn, lines, delayMs);
  await turn.say('Ran the tests (one failed) and the build.');
  return turn.end();
}

export const scenarios: readonly Scenario[] = [
  {
    name: 'terminal',
    args: '[lines] [ms]',
    description:
      'Command output in terminals as Claude and Codex send it: a failing npm test (exit code 1, ANSI colours), a background command whose output replaces its placeholder then appends, and a slow make streaming [lines] lines [ms] apart.',
    run: terminal,
  },
];
