/**
 * The bridge server: an HTTP server that only upgrades to WebSocket, with a bound on sockets not yet
 * upgraded (`admission.ts`), guarded before the upgrade (`guard.ts`), with the SDK's `AcpServer`
 * running one stdio agent per accepted socket and a watchdog that ends them if the bridge dies.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { AcpServer } from '@agentclientprotocol/sdk/experimental/server';
import { WebSocketServer } from 'ws';
import { Admission } from './admission.ts';
import { type AgentOutcome, type BridgeLog, stdioAgentConnector } from './connector.ts';
import { checkUpgrade, type GuardConfig, type Refusal, TokenFailures } from './guard.ts';
import { type BridgeOptions, hostName, withoutToken } from './options.ts';
import { ACP_SUBPROTOCOL, type BridgeAnnouncement, formatConnectionString } from './protocol.ts';
import { CONNECTION_ENV } from './reaper.ts';
import { forAcpServer } from './socket.ts';
import { startWatchdog } from './watchdog.ts';
import { wireTap } from './wire-log.ts';

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

/**
 * Starts the bridge. Resolves once it listens and its watchdog runs; rejects if the port cannot be
 * bound or the wire log cannot be opened.
 */
export async function startBridge(options: BridgeOptions, log: BridgeLog): Promise<RunningBridge> {
  const agents = new Map<number, ChildProcess>();
  const enders = new Set<() => Promise<void>>();
  const agentExits = new Set<Promise<void>>();
  let spawnedCount = 0;
  let liveConnections = 0;
  let nextConnection = 1;
  const failures = new TokenFailures(options.maxTokenFailures);
  // One page may open a socket for each connection it is allowed at once.
  const perPeer = Math.max(options.maxPendingPerPeer, options.maxConnections);
  const admission = new Admission<Socket>({ perPeer, total: Math.max(options.maxPending, perPeer) });
  const tap = wireTap(options, log);
  // Every agent of this bridge, and all they start, carry `SILO_CONNECTION=<run>.<n>` (reaper.ts).
  const run = randomUUID();
  const watchdog = await startWatchdog(`${CONNECTION_ENV}=${run}.`, withoutToken(process.env), log);

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

  http.on('connection', (socket: Socket) => admission.admit(socket));

  let guard: GuardConfig;
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {});
    const peer = req.socket.remoteAddress ?? 'unknown';
    const refusal = checkUpgrade(req, guard, { failures, peer, liveConnections, now: Date.now() });
    if (refusal) {
      log(`refused upgrade: ${refusal.status} ${refusal.reason}`);
      refuse(socket, refusal);
      return;
    }
    const n = nextConnection++;
    const label = `conn ${n}`;
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
        mark: `${run}.${n}`,
        log,
        outcome,
        label,
        onSpawn(child, gone, end) {
          endAgent = end;
          spawnedCount++;
          agents.set(child.pid!, child);
          watchdog.watch(child.pid!);
          agentExits.add(gone);
          enders.add(end);
          void gone.then(() => {
            agents.delete(child.pid!);
            watchdog.unwatch(child.pid!);
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
      admission.upgraded(req.socket);
      log(`${label}: accepted`);
      ws.on('close', (code) => {
        release();
        log(`${label}: socket closed (${code})`);
        // The connector ends the agent when the SDK shuts the connection down; a connection stuck on
        // output backpressure may never get there, so the socket's end ends the agent too.
        void endAgent?.();
      });
      ws.on('error', (error) => log(`${label}: socket error: ${error.message}`));
      upgrade.accept(forAcpServer(ws, outcome, tap, label));
    });
  });

  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => {
      watchdog.close();
      tap.close();
      reject(error);
    };
    http.once('error', failed);
    http.listen(options.port, options.host, () => {
      http.off('error', failed);
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
      watchdog.close();
      tap.close();
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
