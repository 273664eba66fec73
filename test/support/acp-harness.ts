/**
 * A Node ACP client for tests: the SDK's `client()` over a stdio agent or a bridge WebSocket, with a
 * raw tap that keeps every message the agent sent, in wire order and unvalidated (the SDK drops
 * unknown update kinds; tests must see them).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import {
  type AnyMessage,
  type ClientCapabilities,
  type ClientConnection,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  client,
  ndJsonStream,
  PROTOCOL_VERSION,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type Stream,
} from '@agentclientprotocol/sdk';
import { createWebSocketStream } from '@agentclientprotocol/sdk/experimental/ws-client';
import { WebSocket } from 'ws';
import { bridgeProtocols } from '../../bridge/protocol.ts';
import { ROOT, referenceAgentCommand } from './bridge-process.mjs';

/** A raw message as the agent sent it. */
export type Raw = AnyMessage & { method?: string; params?: Record<string, unknown>; id?: unknown };
/** A raw `session/update` update. */
export type RawUpdate = { sessionUpdate: string } & Record<string, unknown>;

/** Client capabilities advertising everything Silo implements. */
export const FULL_CAPABILITIES: ClientCapabilities = {
  fs: { readTextFile: false, writeTextFile: false },
  terminal: false,
  elicitation: { form: {}, url: {} },
  session: { notices: {}, compaction: {}, configOptions: { boolean: {} } },
};

export interface Harness {
  readonly connection: ClientConnection;
  /** Every message received from the agent, in wire order. */
  readonly raw: Raw[];
  /** Answers `session/request_permission` (default: the first option). */
  onPermission: (
    params: RequestPermissionRequest,
    /** Aborts when the agent withdraws the request (`$/cancel_request`). */
    signal: AbortSignal,
  ) => Promise<RequestPermissionResponse> | RequestPermissionResponse;
  /** Answers `elicitation/create` (default: decline). */
  onElicitation: (
    params: CreateElicitationRequest,
    signal: AbortSignal,
  ) => Promise<CreateElicitationResponse> | CreateElicitationResponse;
  /** Raw updates received so far (optionally of one session). */
  updates(sessionId?: string): RawUpdate[];
  /** Concatenated text of agent_message_chunk updates. */
  text(sessionId?: string): string;
  /** Resolves once `check()` holds, re-checked on every message; rejects with `what` after `timeoutMs`. */
  until(check: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** `initialize` with full capabilities, then `session/new`; returns the session id. */
  start(cwd?: string): Promise<string>;
  /** Sends a text prompt and resolves with the stop reason. */
  prompt(sessionId: string, text: string): Promise<string>;
  close(): void;
}

/** Wraps a stream with a raw tap and connects the SDK client. */
export function connectHarness(stream: Stream): Harness {
  const raw: Raw[] = [];
  const waiters = new Set<() => void>();
  const tap = new TransformStream<AnyMessage, AnyMessage>({
    transform(message, controller) {
      raw.push(message as Raw);
      for (const w of [...waiters]) w();
      controller.enqueue(message);
    },
    flush() {
      for (const w of [...waiters]) w();
    },
  });
  const harness = {} as Harness;
  const app = client({ name: 'silo-test-client' })
    .onRequest('session/request_permission', ({ params, signal }) => harness.onPermission(params, signal))
    .onRequest('elicitation/create', ({ params, signal }) => harness.onElicitation(params, signal))
    .onNotification('session/update', () => {})
    .onNotification('elicitation/complete', () => {});
  const connection = app.connect({ readable: stream.readable.pipeThrough(tap), writable: stream.writable });
  const updates = (sessionId?: string) =>
    raw
      .filter((m) => m.method === 'session/update' && (!sessionId || m.params?.sessionId === sessionId))
      .map((m) => m.params!.update as RawUpdate);
  Object.assign(harness, {
    connection,
    raw,
    onPermission: (p: RequestPermissionRequest) => ({
      outcome: { outcome: 'selected', optionId: p.options[0]!.optionId },
    }),
    onElicitation: () => ({ action: 'decline' }),
    updates,
    text: (sessionId?: string) =>
      updates(sessionId)
        .filter((u) => u.sessionUpdate === 'agent_message_chunk')
        .map((u) => (u.content as { text?: string }).text ?? '')
        .join(''),
    until(check: () => boolean, what: string, timeoutMs = 10000) {
      return new Promise<void>((resolve, reject) => {
        if (check()) return resolve();
        const timer = setTimeout(() => {
          waiters.delete(w);
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
        }, timeoutMs);
        const w = () => {
          if (check()) {
            clearTimeout(timer);
            waiters.delete(w);
            resolve();
          }
        };
        waiters.add(w);
      });
    },
    async start(cwd = '/tmp/silo-test') {
      await connection.agent.request('initialize', {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: FULL_CAPABILITIES,
        clientInfo: { name: 'silo-test', version: '0' },
      });
      const { sessionId } = await connection.agent.request('session/new', { cwd, mcpServers: [] });
      return sessionId;
    },
    async prompt(sessionId: string, text: string) {
      const r = await connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text }],
      });
      return r.stopReason;
    },
    close: () => connection.close(),
  } satisfies Partial<Harness>);
  return harness;
}

/** A harness over a spawned reference agent (stdio). */
export interface StdioHarness extends Harness {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly stderr: string[];
  /** Closes the connection and stdin, waits for exit (SIGKILL after 5 s). */
  stop(): Promise<void>;
}

/** Spawns `node agent/cli.ts <args>` (or agent/replay.ts) and connects a harness to its stdio. */
export function spawnAgent(
  args: string[],
  options: { sessionsDir?: string; replay?: boolean; maxMessageBytes?: number } = {},
): StdioHarness {
  const [cmd, ...cmdArgs] = referenceAgentCommand(args, { replay: options.replay });
  const child = spawn(cmd!, cmdArgs, {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...(options.sessionsDir ? { SILO_AGENT_SESSIONS_DIR: options.sessionsDir } : {}) },
  });
  const stderr: string[] = [];
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (c: string) => stderr.push(c));
  child.stdin!.on('error', () => {});
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
    options.maxMessageBytes ? { maxMessageBytes: options.maxMessageBytes } : {},
  );
  const harness = connectHarness(stream) as StdioHarness;
  Object.assign(harness, {
    child,
    exited,
    stderr,
    async stop() {
      harness.close();
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  });
  return harness;
}

/** A harness over a bridge WebSocket, with the socket's close code and reason. */
export interface SocketHarness extends Harness {
  readonly socket: WebSocket;
  readonly socketClosed: Promise<{ code: number; reason: string }>;
}

/** Connects through the bridge with the token subprotocol and the given Origin. */
export function connectBridge(url: string, token: string, origin: string): SocketHarness {
  let socket: WebSocket | undefined;
  class CapturingWebSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[], opts?: object) {
      super(address, protocols, { ...opts, origin });
      socket = this;
    }
  }
  const stream = createWebSocketStream(url, {
    protocols: bridgeProtocols(token),
    WebSocket: CapturingWebSocket as unknown as typeof globalThis.WebSocket,
  });
  const harness = connectHarness(stream) as SocketHarness;
  const s = socket!;
  const socketClosed = new Promise<{ code: number; reason: string }>((resolve) =>
    s.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  Object.assign(harness, { socket: s, socketClosed });
  return harness;
}
