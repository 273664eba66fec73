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
  // Its own loss (0.61.0, read in its bundle). It records a session in
  // `~/.gemini/tmp/<project>/chats/session-<YYYY-MM-DDTHH-MM>-<id8>.jsonl`, named by the minute the
  // record began. `session/load` first builds the session's config for that id, which starts a
  // fresh record of it (the hidden `<session_context>` alone) named by the current minute, then
  // reads the real one. (1) In the minute the session began that is the same file: the fresh
  // record's `$set` of its messages wipes the conversation, and the load finds none. (2) In a later
  // minute the load works, but leaves that fresh record beside the real one; at the next process
  // start its session cleanup (`general.sessionRetention`, on by default) deletes every record with
  // no resumable content and, by its 8-character id, every other file of the same session: the real
  // one too. Either way `session/load` then answers -32603.
  losesSessions:
    'its own session/load leaves an empty record of the session (in the minute the session began: over the real one); its session cleanup at the next start deletes every file of that session id; session/load then answers -32603 "No previous sessions found for this project."',
};
