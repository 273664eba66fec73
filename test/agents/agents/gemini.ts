/**
 * Gemini CLI (`gemini --acp`). Offline: the API-key sign-in (`security.auth.selectedType:
 * "gemini-api-key"` in `~/.gemini/settings.json`, `GEMINI_API_KEY` a dummy) with
 * `GOOGLE_GEMINI_BASE_URL` pointing `@google/genai` at the mock Gemini API; one fixed model (no
 * router call), update checks, usage statistics and telemetry off, the working folder trusted
 * (`GEMINI_CLI_TRUST_WORKSPACE`). Its tools: `write_file`, `run_shell_command`; it offers the model
 * no tool that asks the user a question.
 * @packageDocumentation
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentSpec, baseEnv } from './spec.ts';

export const gemini: AgentSpec = {
  name: 'gemini-cli',
  package: '@google/gemini-cli',
  version: '0.61.0',
  prepare(place) {
    mkdirSync(join(place.home, '.gemini'), { recursive: true });
    writeFileSync(
      join(place.home, '.gemini/settings.json'),
      JSON.stringify({
        security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        model: { name: 'gemini-2.5-flash' },
      }),
    );
    return {
      command: [
        process.execPath,
        join(place.dir, 'node_modules/@google/gemini-cli/bundle/gemini.js'),
        '--acp',
      ],
      env: {
        ...baseEnv(place),
        GEMINI_API_KEY: 'silo-mock-key',
        GOOGLE_GEMINI_BASE_URL: place.modelUrl,
        GEMINI_MODEL: 'gemini-2.5-flash',
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
      },
    };
  },
  tools: (cwd) => ({
    write: (file, content) => ({ name: 'write_file', input: { file_path: join(cwd, file), content } }),
    shell: (command) => ({
      name: 'run_shell_command',
      input: { command, description: 'Run a command for the test' },
    }),
  }),
  command: 'memory show',
  notOffered: { question: 'no tool of its asks the user a question' },
  // Its own loss (0.61.0, read in its bundle): it records a session in
  // `~/.gemini/tmp/<project>/chats/session-<YYYY-MM-DDTHH-MM>-<id8>.jsonl`, named by the minute the
  // session began. `session/load` first builds the session's config for that id, which starts a
  // fresh recording of it: in the same clock minute that is the same file, and the fresh record's
  // `$set` of its messages (the hidden `<session_context>` alone) wipes the conversation before the
  // load reads it. In a later minute the fresh record is a file of its own and the load works.
  losesSessions:
    'a session/load in the clock minute the session began wipes its record, then answers -32603 "No previous sessions found for this project."',
};
