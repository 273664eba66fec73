/**
 * Qwen Code (`qwen --acp`), a fork of Gemini CLI that talks to OpenAI-compatible APIs. Offline:
 * `security.auth.selectedType: "openai"` in `~/.qwen/settings.json`, `OPENAI_BASE_URL` at the mock
 * Chat Completions API, `OPENAI_API_KEY` a dummy and `OPENAI_MODEL` the mock's model; usage
 * statistics and telemetry off. Its tools: `write_file`, `run_shell_command`.
 * @packageDocumentation
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHAT_MODEL } from '../models/openai-chat.ts';
import { type AgentSpec, baseEnv } from './spec.ts';

export const qwen: AgentSpec = {
  name: 'qwen-code',
  package: '@qwen-code/qwen-code',
  version: '0.15.10',
  prepare(place) {
    mkdirSync(join(place.home, '.qwen'), { recursive: true });
    writeFileSync(
      join(place.home, '.qwen/settings.json'),
      JSON.stringify({
        security: { auth: { selectedType: 'openai' }, folderTrust: { enabled: false } },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        model: { name: CHAT_MODEL },
      }),
    );
    return {
      command: [process.execPath, join(place.dir, 'node_modules/@qwen-code/qwen-code/cli.js'), '--acp'],
      env: {
        ...baseEnv(place),
        OPENAI_BASE_URL: `${place.modelUrl}/v1`,
        OPENAI_API_KEY: 'sk-silo-mock',
        OPENAI_MODEL: CHAT_MODEL,
      },
    };
  },
  tools: (cwd) => ({
    write: (file, content) => ({ name: 'write_file', input: { file_path: join(cwd, file), content } }),
    shell: (command) => ({
      name: 'run_shell_command',
      input: { command, description: 'Run a command for the test', is_background: false },
    }),
  }),
  command: 'status',
  notOffered: { question: 'no tool it offers the model asks the user a question' },
};
