/**
 * The current Codex adapter, `@agentclientprotocol/codex-acp` 2.x (TypeScript): it runs the Codex
 * CLI's `app-server` (the native binary from `@openai/codex`'s platform package) and speaks ACP.
 * Offline: `$CODEX_HOME/config.toml` names a model provider whose `base_url` is the mock Responses
 * API (a configured provider counts as signed in: `getAuthenticationStatus` → `gateway`), with
 * retries, update checks and analytics off; `OPENAI_API_KEY` is a dummy. It starts in its "read-only"
 * mode (`INITIAL_AGENT_MODE`), which asks before a write; its default, "agent" (auto review), has a
 * model call judge each action instead.
 * The model is one of the CLI's bundled catalogue (`gpt-5.5`: unknown ones get fallback metadata and
 * no `apply_patch`), whose tools are `apply_patch` (a free-text patch) and `exec_command` (a PTY).
 * @packageDocumentation
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FREE_TEXT_INPUT } from '../models/openai-responses.ts';
import { type AgentSpec, baseEnv } from './spec.ts';

export const codex: AgentSpec = {
  name: 'codex-acp',
  package: '@agentclientprotocol/codex-acp',
  version: '2.6.0',
  prepare(place) {
    const codexHome = join(place.home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(
      join(codexHome, 'config.toml'),
      [
        'model = "gpt-5.5"',
        'model_reasoning_summary = "detailed"',
        'model_provider = "silo"',
        'check_for_update_on_startup = false',
        '[analytics]',
        'enabled = false',
        '[model_providers.silo]',
        'name = "Silo mock"',
        `base_url = "${place.modelUrl}/v1"`,
        'env_key = "OPENAI_API_KEY"',
        'wire_api = "responses"',
        'request_max_retries = 0',
        'stream_max_retries = 0',
        `[projects."${place.cwd}"]`,
        'trust_level = "trusted"',
        '',
      ].join('\n'),
    );
    return {
      command: [
        process.execPath,
        join(place.dir, 'node_modules/@agentclientprotocol/codex-acp/dist/index.js'),
      ],
      env: {
        ...baseEnv(place),
        CODEX_HOME: codexHome,
        OPENAI_API_KEY: 'sk-silo-mock',
        NO_BROWSER: '1',
        INITIAL_AGENT_MODE: 'read-only',
      },
    };
  },
  tools: () => ({
    write: (file, content) => ({
      name: 'apply_patch',
      input: {
        [FREE_TEXT_INPUT]: `*** Begin Patch\n*** Add File: ${file}\n${content
          .split('\n')
          .filter((l, i, all) => l || i < all.length - 1)
          .map((l) => `+${l}`)
          .join('\n')}\n*** End Patch\n`,
      },
    }),
    shell: (command) => ({ name: 'exec_command', input: { cmd: command } }),
  }),
  command: 'status',
  notOffered: { question: 'its question tool (request_user_input) is offered only in Plan mode' },
};
