/**
 * The accepted WebSocket as the SDK's `AcpServer` sees it: close codes that say how the agent ended,
 * a `bufferedAmount` that counts what queued frames really cost, and every frame through the wire tap.
 */
import type { WebSocket } from 'ws';
import { type AgentOutcome, describeExit } from './connector.ts';
import { CLOSE_AGENT_EXITED, CLOSE_AGENT_LIMIT } from './protocol.ts';
import type { WireTap } from './wire-log.ts';

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
 * Wraps a `ws` socket for `AcpServer`. Three differences:
 *
 * - A close without a code (what the SDK does when the agent's output ends), or the SDK's 1011
 *   "Initialize failed" once the agent has exited, becomes the agent-exit close code with a reason:
 *   how the agent ended and its last stderr line.
 * - `bufferedAmount` adds {@link QUEUED_FRAME_OVERHEAD} for each frame not yet written out, as the
 *   SDK itself does for frames waiting inbound. The SDK takes no more agent output while
 *   `bufferedAmount` is at least `--max-buffered-bytes`, and `ws` counts payload bytes only: 64 MiB
 *   of them in updates of about 200 bytes were 350,000 frames, which held some 400 MiB.
 * - Every frame, both ways, goes to `tap` (when `--debug` or `--wire-log` enabled it).
 */
export function forAcpServer(ws: WebSocket, outcome: AgentOutcome, tap: WireTap, label: string) {
  let queuedFrames = 0;
  const written = () => {
    queuedFrames--;
  };
  if (tap.enabled) {
    ws.on('message', (data, isBinary) => {
      tap.record(label, 'client->agent', isBinary ? '(binary frame)' : String(data));
    });
  }
  return {
    get readyState() {
      return ws.readyState;
    },
    get bufferedAmount() {
      return ws.bufferedAmount + queuedFrames * QUEUED_FRAME_OVERHEAD;
    },
    send(data: string) {
      if (tap.enabled) tap.record(label, 'agent->client', data);
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
