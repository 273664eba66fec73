/**
 * Cline CLI 3 (`cline --acp`): a native binary (`bin/.cline`, linked by its package's
 * `postinstall.mjs`, which the runner runs). In ACP mode it offers only its account providers
 * (`cline`, `cline-pass`, `openai-codex`: `tryRestoreAuth`), never the OpenAI-compatible one that
 * `cline auth -p openai -b …` saves, and `auth` takes a base URL for OpenAI providers only. Offline
 * therefore: the `cline` provider itself, with `CLINE_API_BASE_URL` moving Cline's API to the mock
 * server (its chat calls are Chat Completions under `/api/v1`) and `CLINE_API_KEY` a dummy (without
 * a key `session/new` answers -32000). Its tools: `editor` (absolute `path`, `new_text`),
 * `run_commands` (`commands`).
 * @packageDocumentation
 */
import { join } from 'node:path';
import { type AgentSpec, baseEnv, runPostinstall } from './spec.ts';

const PACKAGE = 'node_modules/cline';
const KEY = 'sk-silo-mock';

export const cline: AgentSpec = {
  name: 'cline',
  package: 'cline',
  version: '3.0.65',
  postInstall: (dir) => runPostinstall(dir, 'cline'),

  prepare(place) {
    return {
      command: [join(place.dir, PACKAGE, 'bin/cline'), '--acp'],
      env: { ...baseEnv(place), CLINE_API_KEY: KEY, CLINE_API_BASE_URL: place.modelUrl },
    };
  },
  tools: (cwd) => ({
    write: (file, content) => ({ name: 'editor', input: { path: join(cwd, file), new_text: content } }),
    shell: (command) => ({ name: 'run_commands', input: { commands: [command] } }),
  }),
  notOffered: {
    question: 'no tool it offers the model asks the user a question',
    command: 'it sends no available_commands_update',
  },
};
