/**
 * The WebSocket transport to the bridge, with the raw tap: a `TransformStream` on each direction
 * between the SDK's `createWebSocketStream` and `client().connect()`. The inbound tap sees every
 * JSON-RPC message in wire order, unvalidated, before the SDK strips or drops anything.
 */
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import { createWebSocketStream } from '@agentclientprotocol/sdk/experimental/ws-client';
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

/** Opens a WebSocket to the bridge (token in `Sec-WebSocket-Protocol`) and taps both directions. */
export function openBridge(bridge: AgentBridgeOptions, tap: Tap): BridgeLink {
  let resolveEnd: (end: SocketEnd) => void = () => {};
  const ended = new Promise<SocketEnd>((resolve) => {
    resolveEnd = resolve;
  });
  let opened = false;
  // A WebSocket that reports its close code and reason, which the SDK's stream does not surface.
  const Recording = class extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('open', () => {
        opened = true;
      });
      this.addEventListener('close', (e) =>
        resolveEnd({ code: e.code, reason: e.reason, neverOpened: !opened }),
      );
    }
  };
  const socket = createWebSocketStream(bridge.url, {
    protocols: bridgeProtocols(bridge.token),
    WebSocket: Recording,
  });
  const inbound = new TransformStream<AnyMessage, AnyMessage>({
    transform(message, controller) {
      if (tap.inbound(message)) controller.enqueue(message);
    },
  });
  const outbound = new TransformStream<AnyMessage, AnyMessage>({
    transform(message, controller) {
      tap.outbound(message);
      controller.enqueue(message);
    },
  });
  void outbound.readable.pipeTo(socket.writable).catch(() => {});
  return { stream: { readable: socket.readable.pipeThrough(inbound), writable: outbound.writable }, ended };
}
