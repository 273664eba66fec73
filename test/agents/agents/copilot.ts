/**
 * GitHub Copilot CLI (`copilot --acp`): a native binary from `@github/copilot-linux-x64`, run directly
 * (the package's `npm-loader.js` only finds and spawns it). Offline: its bring-your-own-key provider
 * (`COPILOT_PROVIDER_TYPE=openai`, `COPILOT_PROVIDER_BASE_URL` at the mock Chat Completions API,
 * `COPILOT_PROVIDER_API_KEY` a dummy, `COPILOT_MODEL` the mock's model), `COPILOT_OFFLINE=true`, no
 * auto-update, its state in a private `COPILOT_HOME`. Its tools: `create`, `bash`.
 * @packageDocumentation
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CHAT_MODEL } from '../models/openai-chat.ts';
import { type AgentSpec, baseEnv } from './spec.ts';

export const copilot: AgentSpec = {
  name: 'copilot',
  package: '@github/copilot',
  version: '1.0.102',
  prepare(place) {
    const copilotHome = join(place.home, '.copilot');
    mkdirSync(copilotHome, { recursive: true });
    return {
      command: [
        join(place.dir, 'node_modules/@github/copilot-linux-x64/copilot'),
        '--acp',
        '--no-auto-update',
      ],
      env: {
        ...baseEnv(place),
        COPILOT_HOME: copilotHome,
        COPILOT_OFFLINE: 'true',
        COPILOT_PROVIDER_TYPE: 'openai',
        COPILOT_PROVIDER_BASE_URL: `${place.modelUrl}/v1`,
        COPILOT_PROVIDER_API_KEY: 'sk-silo-mock',
        COPILOT_MODEL: CHAT_MODEL,
      },
    };
  },
  tools: (cwd) => ({
    write: (file, content) => ({ name: 'create', input: { path: join(cwd, file), file_text: content } }),
    shell: (command) => ({ name: 'bash', input: { command, description: 'Run a command for the test' } }),
  }),
  command: 'context',
  notOffered: { question: 'no tool it offers the model asks the user a question (in ACP mode)' },
};
