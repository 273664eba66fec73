/**
 * The bridge server: an HTTP server that only upgrades to WebSocket, guarded before the upgrade,
 * with the SDK's `AcpServer` running one stdio agent per accepted socket.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { AcpServer } from '@agentclientprotocol/sdk/experimental/server';
import { type WebSocket, WebSocketServer } from 'ws';
import { type AgentOutcome, type BridgeLog, describeExit, stdioAgentConnector } from './connector.ts';
import { checkUpgrade, FailureWindow, type GuardConfig, type Refusal } from './guard.ts';
import { type BridgeOptions, hostName } from './options.ts';
import {
  ACP_SUBPROTOCOL,
  type BridgeAnnouncement,
  CLOSE_AGENT_EXITED,
  CLOSE_AGENT_LIMIT,
  formatConnectionString,
} from './protocol.ts';

/** A running bridge. */
export interface RunningBridge extends BridgeAnnouncement {
  /** Live agent processes, by pid. */
  readonly agents: ReadonlyMap<number, ChildProcess>;
  /** Number of agents spawned since start (refused upgrades never spawn). */
  readonly spawnedCount: number;
  /**
   * Stops accepting, closes every socket (1001), ends every agent and resolves once all agent
   * processes have exited. Safe to call twice.
   */
  close(): Promise<void>;
}

const STATUS_TEXT: Record<Refusal['status'], string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

function refuse(socket: Duplex, refusal: Refusal): void {
  const body = `${refusal.reason}\n`;
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_TEXT[refusal.status]}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  socket.once('finish', () => socket.destroy());
}

/** True for the any-address binds (`0.0.0.0`, `::`), which no client names in its Host header. */
function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** How long a closing socket may wait for the peer's close frame before it is cut. */
const CLOSE_GRACE_MS = 1000;

/**
 * What a frame queued on a socket costs the bridge besides its text: `ws` and Node keep a header and
 * a payload `Buffer` and a write request for each, 600 to 900 bytes for a small frame (measured).
 */
const QUEUED_FRAME_OVERHEAD = 1024;

/** `text` cut to the 123 bytes of UTF-8 a WebSocket close reason may hold, on a character boundary. */
export function closeReason(text: string): string {
  let out = '';
  let bytes = 0;
  for (const ch of text) {
    bytes += Buffer.byteLength(ch);
    if (bytes > 123) break;
    out += ch;
  }
  return out;
}

/**
 * Wraps a `ws` socket for `AcpServer`. Two differences:
 *
 * - A close without a code (what the SDK does when the agent's output ends), or the SDK's 1011
 *   "Initialize failed" once the agent has exited, becomes the agent-exit close code with a reason:
 *   how the agent ended and its last stderr line.
 * - `bufferedAmount` adds {@link QUEUED_FRAME_OVERHEAD} for each frame not yet written out, as the
 *   SDK itself does for frames waiting inbound. The SDK takes no more agent output while
 *   `bufferedAmount` is at least `--max-buffered-bytes`, and `ws` counts payload bytes only: 64 MiB
 *   of them in updates of about 200 bytes were 350,000 frames, which held some 400 MiB.
 */
function forAcpServer(ws: WebSocket, outcome: AgentOutcome) {
  let queuedFrames = 0;
  const written = () => {
    queuedFrames--;
  };
  return {
    get readyState() {
      return ws.readyState;
    },
    get bufferedAmount() {
      return ws.bufferedAmount + queuedFrames * QUEUED_FRAME_OVERHEAD;
    },
    send(data: string) {
      // `ws` calls back once the frame is written out, or with an error once it never will be.
      queuedFrames++;
      ws.send(data, written);
    },
    close(code?: number, reason?: string) {
      // 1011 is the SDK's "Initialize failed": the agent ended before it answered `initialize`.
      if ((code === undefined || code === 1011) && outcome.exit) {
        const exit = outcome.exit;
        const text = exit.stderr ? `${describeExit(exit)}: ${exit.stderr}` : describeExit(exit);
        ws.close(exit.reason ? CLOSE_AGENT_LIMIT : CLOSE_AGENT_EXITED, closeReason(text));
      } else {
        ws.close(code, reason);
      }
      // A peer that never answers the close handshake (a client that stopped reading) would keep the
      // socket, and so its agent, for ws's 30 s close timeout: cut it after a short grace instead.
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
    },
    on: (type: string, listener: (...args: unknown[]) => void) => ws.on(type, listener),
    off: (type: string, listener: (...args: unknown[]) => void) => ws.off(type, listener),
  };
}

/** Starts the bridge. Resolves once it listens; rejects if the port cannot be bound. */
export async function startBridge(options: BridgeOptions, log: BridgeLog): Promise<RunningBridge> {
  const agents = new Map<number, ChildProcess>();
  const enders = new Set<() => Promise<void>>();
  const agentExits = new Set<Promise<void>>();
  let spawnedCount = 0;
  let liveConnections = 0;
  let nextConnection = 1;
  const failures = new FailureWindow(options.maxTokenFailures);

  const acp = new AcpServer({
    // Each upgrade passes its own connector (below); this default is never used.
    createAgent: () => {
      throw new Error('no agent without a guarded upgrade');
    },
    maxBufferedBytes: options.maxBufferedBytes,
    maxOutputStallMs: options.maxOutputStallMs,
  });
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxFrameBytes,
    handleProtocols: () => ACP_SUBPROTOCOL,
    perMessageDeflate: false,
  });
  const http = createServer((_req, res) => {
    res.writeHead(426, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
    res.end('silo-bridge speaks WebSocket only\n');
  });

  let guard: GuardConfig;
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {});
    const refusal = checkUpgrade(req, guard, { failures, liveConnections, now: Date.now() });
    if (refusal) {
      log(`refused upgrade: ${refusal.status} ${refusal.reason}`);
      refuse(socket, refusal);
      return;
    }
    const label = `conn ${nextConnection++}`;
    const outcome: AgentOutcome = {};
    let endAgent: (() => Promise<void>) | undefined;
    liveConnections++;
    let released = false;
    const release = () => {
      if (!released) {
        released = true;
        liveConnections--;
      }
    };
    const upgrade = acp.prepareWebSocketUpgrade({
      agent: stdioAgentConnector({
        command: options.agentCommand,
        args: options.agentArgs,
        maxLineBytes: options.maxLineBytes,
        debug: options.debug,
        log,
        outcome,
        label,
        onSpawn(child, gone, end) {
          endAgent = end;
          spawnedCount++;
          agents.set(child.pid!, child);
          agentExits.add(gone);
          enders.add(end);
          void gone.then(() => {
            agents.delete(child.pid!);
            agentExits.delete(gone);
            enders.delete(end);
          });
        },
      }),
    });
    let accepted = false;
    socket.once('close', () => {
      if (!accepted) {
        upgrade.reject();
        release();
      }
    });
    wss.handleUpgrade(req, socket, head, (ws) => {
      accepted = true;
      log(`${label}: accepted`);
      ws.on('close', (code) => {
        release();
        log(`${label}: socket closed (${code})`);
        // The connector ends the agent when the SDK shuts the connection down; a connection stuck on
        // output backpressure may never get there, so the socket's end ends the agent too.
        void endAgent?.();
      });
      ws.on('error', (error) => log(`${label}: socket error: ${error.message}`));
      upgrade.accept(forAcpServer(ws, outcome));
    });
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  guard = {
    port,
    // The bound address itself (unless a wildcard) and every --allow-host name.
    extraHosts: options.allowNonLoopback
      ? [...(isWildcard(options.host) ? [] : [hostName(options.host)]), ...options.allowHosts]
      : [],
    origins: new Set(options.allowOrigins),
    allowMissingOrigin: options.allowMissingOrigin,
    token: options.token,
    maxConnections: options.maxConnections,
  };
  const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `ws://${hostForUrl}:${port}`;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      http.close();
      for (const client of wss.clients) client.close(1001, 'bridge shutting down');
      await acp.close();
      // Every agent and everything it started, SIGKILLed after the grace period if need be.
      await Promise.all([...enders].map((end) => end()));
      await Promise.all([...agentExits]);
      http.closeAllConnections();
    })();
    return closing;
  };

  return {
    url,
    token: options.token,
    origins: options.allowOrigins,
    connection: formatConnectionString(url, options.token),
    port,
    pid: process.pid,
    agents,
    get spawnedCount() {
      return spawnedCount;
    },
    close,
  };
}
