/**
 * claude-agent-acp: the Claude Agent SDK's ACP adapter, which runs the Claude Code CLI (a native
 * binary from `@anthropic-ai/claude-agent-sdk-linux-x64`, found through the SDK: `claude-cli.js`).
 * Offline: `ANTHROPIC_BASE_URL` points the CLI at the mock Messages API, `ANTHROPIC_API_KEY` is a
 * dummy, and the CLI's auto-update, telemetry, error reporting and other non-essential traffic are
 * off. Its tools: `Write` (absolute `file_path`), `Bash`, `AskUserQuestion` (→ `elicitation/create`
 * when the client advertises form elicitation), `Agent` (a subagent, whose own model requests reach
 * the same mock with its task as their first prompt). Started in its "default" (Manual) mode, which asks
 * before every edit and command (`~/.claude/settings.json`).
 * @packageDocumentation
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentSpec, baseEnv } from './spec.ts';

export const claude: AgentSpec = {
  name: 'claude-agent-acp',
  package: '@agentclientprotocol/claude-agent-acp',
  version: '0.101.0',
  prepare(place) {
    // Its default mode is `auto` (a model call judges each action); the test asks as a user's
    // default would: "default" (Manual) asks before every edit and command.
    mkdirSync(join(place.home, '.claude'), { recursive: true });
    writeFileSync(
      join(place.home, '.claude/settings.json'),
      JSON.stringify({ permissions: { defaultMode: 'default' } }),
    );
    return {
      command: [
        process.execPath,
        join(place.dir, 'node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js'),
      ],
      env: {
        ...baseEnv(place),
        ANTHROPIC_BASE_URL: place.modelUrl,
        ANTHROPIC_API_KEY: 'sk-ant-silo-mock',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        DISABLE_BUG_COMMAND: '1',
        CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
      },
    };
  },
  tools: (cwd) => ({
    write: (file, content) => ({ name: 'Write', input: { file_path: join(cwd, file), content } }),
    shell: (command) => ({ name: 'Bash', input: { command, description: 'Run a command for the test' } }),
    ask: (question, options) => ({
      name: 'AskUserQuestion',
      input: {
        questions: [
          {
            question,
            header: 'Colour',
            multiSelect: false,
            options: options.map((label) => ({ label, description: `${label} it is` })),
          },
        ],
      },
    }),
    // In the foreground: the parent's turn waits for the subagent (they run in the background by default).
    subagent: (description, prompt) => ({
      name: 'Agent',
      input: { description, prompt, subagent_type: 'general-purpose', run_in_background: false },
    }),
  }),
  command: 'context',
};
