/**
 * The worker's implementation of {@link WorkerApi}: a journal, the sessions this worker drives, and
 * journal reads that need no connection (history with search and rename — worker/history.ts —,
 * transcripts, export and import).
 */
import { transfer } from 'comlink';
import { SiloError } from '../src/errors.ts';
import type { WorkerApi } from '../src/worker-api.ts';
import { deleteAgentSession, listAgentSessions } from './agent-sessions.ts';
import { exportJsonlStream } from './export-stream.ts';
import { History } from './history.ts';
import { type Journal, journalOpener } from './journal.ts';
import { latestId } from './open.ts';
import { SessionCore } from './session.ts';

/** Creates the API object the worker exposes. */
export function createWorkerService(): WorkerApi {
  let journal: (() => Promise<Journal>) | undefined;
  const sessions = new Map<string, SessionCore>();
  /**
   * The closes in flight, by session id. A connect that restores one of them waits for it (its lock
   * is this worker's until then), so a page that reopens a session it is closing drives it, never
   * following itself.
   */
  const closing = new Map<string, Promise<void>>();
  const closed = async (sessionId: string): Promise<void> => {
    await closing.get(sessionId);
    if (closing.size) await closing.get(await latestId(await db(), sessionId));
  };

  const db = (): Promise<Journal> => {
    journal ??= journalOpener('silo');
    return journal();
  };
  const history = new History(db);
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
      const resume = options.resume;
      if (resume && !resume.startFresh) await closed(resume.sessionId);
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
    async takeOver(handleId) {
      const s = session(handleId);
      await s.takeOver();
      return s.wireSnapshot();
    },
    async close(handleId) {
      const s = sessions.get(handleId);
      sessions.delete(handleId);
      if (!s) return;
      const sessionId = s.sessionId;
      const done = s.close();
      if (!sessionId) return done;
      // Two handles of one session may close at once: a connect waits for both.
      const settled = Promise.all([closing.get(sessionId), done.catch(() => {})]).then(() => {});
      closing.set(sessionId, settled);
      void settled.then(() => {
        if (closing.get(sessionId) === settled) closing.delete(sessionId);
      });
      return done;
    },
    async sessions(options) {
      const journaled = (await (await db()).sessions()).filter((s) => !(s.continuedBy && !s.updateCount));
      if (!options?.bridge) return history.search(journaled, options?.query);
      const known = new Set(journaled.map((s) => s.sessionId));
      const listed = await listAgentSessions(options.bridge, options.cwd);
      return history.search([...journaled, ...listed.filter((s) => !known.has(s.sessionId))], options.query);
    },
    transcript: async (sessionId) => (await db()).read(sessionId),
    transcriptTail: async (sessionId, count) => (await db()).tail(sessionId, count),
    async clear(sessionId, options) {
      await (await db()).clear(sessionId);
      history.forget(sessionId);
      return options?.bridge ? deleteAgentSession(options.bridge, sessionId) : { agentCopy: 'not-asked' };
    },
    async exportJsonlStream(sessionId) {
      const stream = await exportJsonlStream(db, sessionId);
      return transfer(stream, [stream]);
    },
    importJsonl: (jsonl, sessionId) => history.importJsonl(jsonl, sessionId),
    async rename(sessionId, title) {
      const shown = await history.rename(sessionId, title);
      // Open handles of the session show the new title at once (other tabs at their next connect).
      for (const core of sessions.values()) if (core.sessionId === sessionId) core.retitle(title);
      return shown;
    },
  };
}
