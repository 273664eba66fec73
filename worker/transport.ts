/**
 * The WebSocket transport to the bridge, with the raw tap. The socket's frames are parsed once and
 * shown to the inbound tap synchronously, in wire order, unvalidated; only what the tap keeps
 * (everything but session updates and the bridge's agent-exit notice) is enqueued into the stream
 * `client().connect()` reads. The session updates — nearly all the traffic — so never pass through a
 * stream: no promise per update, no second parse (docs/performance.md, item 1). Outbound messages are
 * shown to the tap as the SDK writes them, then serialized and sent once the socket is open.
 * This adapter does what the SDK's `createWebSocketStream` does for a browser socket (JSON-RPC
 * framing stays the SDK's: it only turns frames into messages and back).
 */
import { type AnyMessage, RequestError, type Stream } from '@agentclientprotocol/sdk';
import { bridgeProtocols } from '../bridge/protocol.ts';
import type { AgentBridgeOptions } from '../src/types.ts';

/** What the taps are told. `inbound` returns false to keep a message from the SDK. */
export interface Tap {
  inbound(message: AnyMessage): boolean;
  outbound(message: AnyMessage): void;
}

/** How the socket ended, as far as the browser could tell. */
export interface SocketEnd {
  readonly code: number;
  readonly reason: string;
  /** True when the socket never opened (unreachable or refused before the upgrade). */
  readonly neverOpened: boolean;
}

/** A tapped stream to the bridge and what is known about its socket. */
export interface BridgeLink {
  readonly stream: Stream;
  /** Resolves when the socket closes or fails, with what the browser saw. */
  readonly ended: Promise<SocketEnd>;
}

const closedError = () => new Error('ACP WebSocket stream is closed');

/**
 * Opens a WebSocket to the bridge (token in `Sec-WebSocket-Protocol`) and taps both directions.
 * A frame that is not one JSON object is answered with a JSON-RPC protocol error (as the SDK's
 * transport does) and not shown to the tap. The stream ends when the socket closes (errors when the
 * socket reports an error); writing after that rejects.
 */
export function openBridge(bridge: AgentBridgeOptions, tap: Tap): BridgeLink {
  const socket = new WebSocket(bridge.url, bridgeProtocols(bridge.token));
  let opened = false;
  let done = false;
  let readable!: ReadableStreamDefaultController<AnyMessage>;
  const open = new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => {
      opened = true;
      resolve();
    });
    socket.addEventListener('close', () => reject(new Error('ACP WebSocket stream closed before open')));
  });
  open.catch(() => {});
  // Ends the readable once (nothing is taken from the socket after that), as the SDK's transport does.
  const finish = () => {
    if (done) return;
    done = true;
    try {
      readable.close();
    } catch {
      // Already cancelled by its reader.
    }
  };
  const ended = new Promise<SocketEnd>((resolve) => {
    socket.addEventListener('close', (e) => {
      resolve({ code: e.code, reason: e.reason, neverOpened: !opened });
      finish();
    });
  });
  socket.addEventListener('error', (e) => {
    if (done) return;
    done = true;
    readable.error(e);
  });
  const protocolError = (error: RequestError) => {
    if (socket.readyState === WebSocket.OPEN)
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: null, error: error.toErrorResponse() }));
  };
  socket.addEventListener('message', (e: MessageEvent<unknown>) => {
    if (done || typeof e.data !== 'string') return;
    let value: unknown;
    try {
      value = JSON.parse(e.data);
    } catch {
      return protocolError(RequestError.parseError());
    }
    if (Array.isArray(value))
      return protocolError(RequestError.invalidRequest(undefined, 'JSON-RPC batches are not supported'));
    if (typeof value !== 'object' || value === null) return protocolError(RequestError.invalidRequest(value));
    if (tap.inbound(value as AnyMessage)) readable.enqueue(value as AnyMessage);
  });
  const close = () => {
    finish();
    socket.close();
  };
  const stream: Stream = {
    readable: new ReadableStream<AnyMessage>({
      start: (controller) => {
        readable = controller;
      },
      cancel: close,
    }),
    writable: new WritableStream<AnyMessage>({
      async write(message) {
        tap.outbound(message);
        if (done) throw closedError();
        if (!opened) await open;
        if (done) throw closedError();
        socket.send(JSON.stringify(message));
      },
      close,
      abort: close,
    }),
  };
  return { stream, ended };
}
