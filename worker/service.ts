/**
 * The worker's implementation of {@link WorkerApi}: a journal, the sessions this worker drives, and
 * journal reads that need no connection (history, transcripts, export and import).
 */
import { SiloError } from '../src/errors.ts';
import { readJsonlExport, toJsonl } from '../src/export.ts';
import { EMPTY_SESSION_STATE, reduceSessionState } from '../src/session-state.ts';
import type { WorkerApi } from '../src/worker-api.ts';
import { deleteAgentSession, listAgentSessions } from './agent-sessions.ts';
import { type Journal, journalOpener } from './journal.ts';
import { SessionCore } from './session.ts';

/** Creates the API object the worker exposes. */
export function createWorkerService(): WorkerApi {
  let journal: (() => Promise<Journal>) | undefined;
  const sessions = new Map<string, SessionCore>();

  const db = (): Promise<Journal> => {
    journal ??= journalOpener('silo');
    return journal();
  };
  const session = (handleId: string): SessionCore => {
    const s = sessions.get(handleId);
    if (!s) throw SiloError.closed('This session handle is closed');
    return s;
  };

  return {
    holdLifeLock: (name) =>
      new Promise<void>((held) => {
        void navigator.locks.request(name, () => {
          held();
          return new Promise<never>(() => {});
        });
      }),
    async init({ databaseName }) {
      journal ??= journalOpener(databaseName);
      await journal();
    },
    async connect(options, events) {
      const core = await SessionCore.start(await db(), options, events);
      sessions.set(core.handleId, core);
      return { handleId: core.handleId, snapshot: core.wireSnapshot() };
    },
    prompt: (handleId, prompt) => session(handleId).prompt(prompt),
    steer: (handleId, prompt) => session(handleId).steer(prompt),
    cancel: (handleId) => session(handleId).cancel(),
    setConfigOption: (handleId, id, value) => session(handleId).setConfigOption(id, value),
    answerPermission: (handleId, id, optionId) => session(handleId).answerPermission(id, optionId),
    answerElicitation: (handleId, id, action) => session(handleId).answerElicitation(id, action),
    async close(handleId) {
      const s = sessions.get(handleId);
      sessions.delete(handleId);
      await s?.close();
    },
    async sessions(options) {
      const journaled = (await (await db()).sessions()).filter((s) => !(s.continuedBy && !s.updateCount));
      if (!options?.bridge) return journaled;
      const known = new Set(journaled.map((s) => s.sessionId));
      const listed = await listAgentSessions(options.bridge, options.cwd);
      return [...journaled, ...listed.filter((s) => !known.has(s.sessionId))];
    },
    transcript: async (sessionId) => (await db()).read(sessionId),
    transcriptTail: async (sessionId, count) => (await db()).tail(sessionId, count),
    async clear(sessionId, options) {
      await (await db()).clear(sessionId);
      return options?.bridge ? deleteAgentSession(options.bridge, sessionId) : { agentCopy: 'not-asked' };
    },
    async exportJsonl(sessionId) {
      const j = await db();
      const agent = (await j.session(sessionId))?.agent;
      return toJsonl(await j.read(sessionId), agent ? { agent } : {});
    },
    async importJsonl(jsonl, sessionId) {
      const { updates, info } = readJsonlExport(jsonl);
      const id = sessionId ?? `import-${crypto.randomUUID()}`;
      const j = await db();
      // The title the imported updates end with is the session's, as it was where it was exported.
      const { title } = updates.reduce(reduceSessionState, EMPTY_SESSION_STATE);
      const record = await j.upsertSession(id, {
        lastOutcome: 'journal-only',
        ...(title ? { title } : {}),
        ...(info.agent ? { agent: info.agent } : {}),
      });
      const writer = j.writer(id, record.nextSeq);
      writer.append(updates.map((u, i) => ({ ...u, seq: record.nextSeq + i })));
      await writer.flushed();
      j.dropWriter(id);
      return id;
    },
  };
}
