/**
 * `createAgentsService()`: starts Silo's worker and returns the page API.
 */
import { type Remote, releaseProxy, wrap } from 'comlink';
import type {
  AgentSessionConnectOptions,
  AgentSessionHandle,
  AgentsService,
  AgentsServiceOptions,
} from './api.ts';
import { registerErrorTransfer } from './comlink-errors.ts';
import { startDefaultWorker } from './default-worker.ts';
import { SiloError } from './errors.ts';
import { eventsProxy, HandleEvents, SessionHandle } from './session-handle.ts';
import type { WorkerApi } from './worker-api.ts';

/**
 * Starts the worker (the package's own entry, or `options.worker`) and returns an {@link AgentsService}.
 * The journal opens lazily; a journal that cannot open (a blocked upgrade, no IndexedDB) makes the
 * first call reject with `journal-write`.
 *
 * @example
 * ```ts
 * const service = createAgentsService();
 * const session = await service.connect({
 *   bridge: { url: 'ws://127.0.0.1:7777', token },
 *   cwd: '/home/me/project',
 *   onUpdate: (u) => console.log(u.kind, u.text),
 *   onPermission: (p) => p.choose(p.options[0].optionId),
 * });
 * console.log(await session.prompt('Hello'));
 * ```
 */
export function createAgentsService(options: AgentsServiceOptions = {}): AgentsService {
  registerErrorTransfer();
  const worker = options.worker ?? startDefaultWorker();
  const api: Remote<WorkerApi> = wrap<WorkerApi>(worker);
  const ready = api.init({ databaseName: options.databaseName ?? 'silo' });
  const handles = new Set<SessionHandle>();
  let disposed = false;
  const failed = new Promise<never>((_, reject) => {
    worker.addEventListener('error', (e) => {
      e.preventDefault?.();
      reject(SiloError.internal(`The Silo worker failed: ${e.message ?? 'unknown error'}`));
      for (const h of handles) h.markClosed();
    });
  });
  failed.catch(() => {});
  const call = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (disposed) throw SiloError.closed('The agents service was disposed');
    await Promise.race([ready, failed]);
    return Promise.race([fn(), failed]);
  };

  return {
    async connect(connectOptions: AgentSessionConnectOptions): Promise<AgentSessionHandle> {
      const events = new HandleEvents(connectOptions);
      const { handleId, snapshot } = await call(() =>
        api.connect(
          {
            bridge: connectOptions.bridge,
            cwd: connectOptions.cwd,
            ...(connectOptions.mcpServers ? { mcpServers: connectOptions.mcpServers } : {}),
            ...(connectOptions.resume ? { resume: connectOptions.resume } : {}),
            handlesPermissions: typeof connectOptions.onPermission === 'function',
            handlesElicitations: typeof connectOptions.onElicitation === 'function',
          },
          eventsProxy(events),
        ),
      );
      const handle = new SessionHandle(api, handleId, snapshot, connectOptions);
      handles.add(handle);
      void handle.closed.then(() => handles.delete(handle));
      events.attach(handle);
      return handle;
    },
    sessions: (o) => call(() => api.sessions(o)),
    transcript: (sessionId) => call(() => api.transcript(sessionId)),
    transcriptTail: (sessionId, count) => call(() => api.transcriptTail(sessionId, count)),
    clear: (sessionId) => call(() => api.clear(sessionId)),
    exportJsonl: (sessionId) => call(() => api.exportJsonl(sessionId)),
    importJsonl: (jsonl, sessionId) => call(() => api.importJsonl(jsonl, sessionId)),
    async dispose() {
      if (disposed) return;
      await Promise.allSettled([...handles].map((h) => h.close()));
      disposed = true;
      api[releaseProxy]();
      worker.terminate();
    },
  };
}
