/**
 * OpenCode (`opencode acp`): a native binary from `opencode-linux-x64`, put in place by its package's
 * `postinstall.mjs` (npm 11 runs no install scripts, so the runner runs it). Offline: one provider
 * through `@ai-sdk/openai-compatible` (fetched by OpenCode from the npm registry on first use) with
 * its `baseURL` at the mock Chat Completions API, given in `OPENCODE_CONFIG_CONTENT`; the models
 * catalogue fetch, auto-update, default plugins, LSP downloads and sharing off; edits and commands
 * ask first. Its tools: `write`, `bash`. (Its `question` tool, behind `OPENCODE_ENABLE_QUESTION_TOOL`,
 * waits for an answer its ACP mode never asks the client for: the tool call stays `in_progress`.)
 * @packageDocumentation
 */
import { join } from 'node:path';
import { CHAT_MODEL } from '../models/openai-chat.ts';
import { type AgentSpec, baseEnv, runPostinstall } from './spec.ts';

const PACKAGE = 'node_modules/opencode-ai';

export const opencode: AgentSpec = {
  name: 'opencode',
  package: 'opencode-ai',
  version: '1.18.33',
  postInstall: (dir) => runPostinstall(dir, 'opencode-ai'),

  prepare(place) {
    const config = {
      $schema: 'https://opencode.ai/config.json',
      autoupdate: false,
      share: 'disabled',
      model: `silo/${CHAT_MODEL}`,
      provider: {
        silo: {
          npm: '@ai-sdk/openai-compatible',
          name: 'Silo mock',
          options: { baseURL: `${place.modelUrl}/v1`, apiKey: 'sk-silo-mock' },
          models: { [CHAT_MODEL]: { name: 'Silo mock model', reasoning: true } },
        },
      },
      permission: { edit: 'ask', bash: 'ask' },
    };
    return {
      command: [join(place.dir, PACKAGE, 'bin/opencode.exe'), 'acp'],
      env: {
        ...baseEnv(place),
        OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_SHARE: '1',
        OPENCODE_DISABLE_CLAUDE_CODE: '1',
      },
    };
  },
  tools: (cwd) => ({
    write: (file, content) => ({ name: 'write', input: { filePath: join(cwd, file), content } }),
    shell: (command) => ({ name: 'bash', input: { command, description: 'Run a command for the test' } }),
  }),
  command: 'init',
  notOffered: { question: 'its question tool never reaches an ACP client (see above)' },
};
