/**
 * `createAgentsService()`: starts Silo's worker and returns the page API.
 */
import { releaseProxy, wrap } from 'comlink';
import { parseConnectionString } from '../bridge/protocol.ts';
import type {
  AgentSessionConnectOptions,
  AgentSessionHandle,
  AgentsService,
  AgentsServiceOptions,
} from './api.ts';
import { registerErrorTransfer } from './comlink-errors.ts';
import { startDefaultWorker } from './default-worker.ts';
import { SiloError } from './errors.ts';
import { type ExportStreams, relayExport, streamText } from './export-relay.ts';
import { closedInPage } from './page-closes.ts';
import { eventsProxy, HandleEvents, SessionHandle } from './session-handle.ts';
import type { AgentBridgeOptions } from './types.ts';
import type { WorkerApi } from './worker-api.ts';
import { watchWorker } from './worker-lifetime.ts';
import type { WorkerPlace } from './worker-start.ts';

/**
 * Starts the worker (the package's own entry, or `options.worker`) and returns an {@link AgentsService}.
 * The journal opens at once; while it cannot open (an old tab blocks its upgrade, IndexedDB is
 * unavailable) every call rejects with `journal-write`, and a later call tries again.
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
  const started: { worker: Worker; place?: WorkerPlace } = options.worker
    ? { worker: options.worker }
    : startDefaultWorker();
  const { worker } = started;
  const handles = new Set<SessionHandle>();
  const exports: ExportStreams = new Set();
  // Every call, from the service or a handle, rejects with a code once the worker is gone; every
  // export stream errors with it.
  const api = watchWorker(
    worker,
    wrap<WorkerApi>(worker),
    (error) => {
      for (const h of handles) h.markClosed();
      for (const gone of exports) gone(error);
    },
    started.place,
  );
  // The journal may refuse to open for a while (an old tab blocks its upgrade): a failed init is
  // tried again by the next call instead of failing the service for good.
  let ready: Promise<void> | undefined;
  const init = (): Promise<void> => {
    ready ??= api.init({ databaseName: options.databaseName ?? 'silo' }).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };
  void init().catch(() => {});
  let disposed = false;
  const call = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (disposed) throw SiloError.closed('The agents service was disposed');
    await init();
    return fn();
  };

  const connect = async (connectOptions: AgentSessionConnectOptions): Promise<AgentSessionHandle> => {
    const bridge = bridgeOptions(connectOptions.bridge);
    const events = new HandleEvents(connectOptions);
    const resume = connectOptions.resume;
    if (resume && !resume.startFresh) await closedInPage(resume.sessionId);
    const { handleId, snapshot } = await call(() =>
      api.connect(
        {
          bridge,
          cwd: connectOptions.cwd,
          ...(connectOptions.mcpServers ? { mcpServers: connectOptions.mcpServers } : {}),
          ...(connectOptions.resume ? { resume: connectOptions.resume } : {}),
          ...(connectOptions.fork ? { fork: connectOptions.fork } : {}),
          ...(connectOptions.authenticate ? { authenticate: connectOptions.authenticate } : {}),
          ...(options.signInTimeoutMs !== undefined ? { signInTimeoutMs: options.signInTimeoutMs } : {}),
          handlesPermissions: typeof connectOptions.onPermission === 'function',
          handlesElicitations: typeof connectOptions.onElicitation === 'function',
        },
        eventsProxy(events),
      ),
    );
    const handle = new SessionHandle(api, handleId, snapshot, connectOptions, connect);
    handles.add(handle);
    void handle.closed.then(() => handles.delete(handle));
    events.attach(handle);
    return handle;
  };

  const exportJsonlStream = (sessionId: string): Promise<ReadableStream<string>> =>
    call(async () => relayExport(await api.exportJsonlStream(sessionId), exports));

  return {
    connect,
    sessions: (o) =>
      call(() =>
        api.sessions({
          ...(o?.cwd !== undefined ? { cwd: o.cwd } : {}),
          ...(o?.query ? { query: o.query } : {}),
          ...(o?.bridge ? { bridge: bridgeOptions(o.bridge) } : {}),
        }),
      ),
    transcript: (sessionId) => call(() => api.transcript(sessionId)),
    transcriptTail: (sessionId, count) => call(() => api.transcriptTail(sessionId, count)),
    clear: (sessionId, o) =>
      call(() => api.clear(sessionId, o?.bridge ? { bridge: bridgeOptions(o.bridge) } : {})),
    rename: (sessionId, title) => call(() => api.rename(sessionId, title)),
    exportJsonlStream,
    exportJsonl: async (sessionId) => streamText(await exportJsonlStream(sessionId)),
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

/**
 * The bridge's URL and token from either form `connect()` takes: `{ url, token }`, or the one
 * connection string `silo-bridge` prints (`ws://127.0.0.1:PORT/#token=…`). Throws `invalid-params`
 * for a string that is not one.
 */
export function bridgeOptions(bridge: AgentBridgeOptions | string): AgentBridgeOptions {
  if (typeof bridge !== 'string') return { url: bridge.url, token: bridge.token };
  const parsed = parseConnectionString(bridge);
  if (!parsed)
    throw new SiloError(
      'invalid-params',
      'The bridge connection string must look like ws://127.0.0.1:PORT/#token=… (as silo-bridge prints it)',
    );
  return parsed;
}
