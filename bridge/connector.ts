/**
 * An `AgentConnector` for the SDK's `AcpServer` that runs one stdio agent process per connection and
 * pipes its stdio through the SDK's `ndJsonStream`. When the socket goes away the agent's process
 * group is ended; when the agent goes away the client gets `_silo/agent_exited` before the close.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { type Readable, Writable } from 'node:stream';
import {
  type AgentConnector,
  type AnyMessage,
  MessageTooLargeError,
  ndJsonStream,
  type Stream,
} from '@agentclientprotocol/sdk';
import { withoutToken } from './options.ts';
import { AGENT_EXITED_METHOD, type AgentExitedParams } from './protocol.ts';
import { CONNECTION_ENV, endAgentProcesses } from './reaper.ts';
import { LastStderrLine } from './stderr.ts';

/** One line of the bridge's log; `level` is informational only. */
export type BridgeLog = (message: string) => void;

/** How a connection's agent ended, filled in before the connector's `closed` resolves. */
export interface AgentOutcome {
  exit?: AgentExitedParams;
}

/** What {@link stdioAgentConnector} needs. */
export interface StdioConnectorOptions {
  command: string;
  args: string[];
  maxLineBytes: number;
  /**
   * The connection's mark, put in the agent's environment as `SILO_CONNECTION=<mark>` (inherited by
   * everything it starts, so `reaper.ts` and the watchdog find what left its process group).
   */
  mark: string;
  log: BridgeLog;
  /**
   * Called once the process is spawned (the bridge tracks live agents for shutdown and tests).
   * `gone` resolves once the agent has exited and every process it started has been ended; `end()`
   * starts ending them all (SIGTERM, SIGKILL after the grace period) and resolves like `gone`.
   */
  onSpawn?(child: ChildProcess, gone: Promise<void>, end: () => Promise<void>): void;
  /** Receives the agent's fate before `closed` resolves, so the socket can close with a code. */
  outcome: AgentOutcome;
  /** Connection label for logs. */
  label: string;
}

/** Human text for an exit, e.g. `agent exited with code 3` or `agent killed by SIGKILL`. */
export function describeExit(exit: AgentExitedParams): string {
  const base = exit.signal ? `agent killed by ${exit.signal}` : `agent exited with code ${exit.code}`;
  return exit.reason ? `${base} (${exit.reason})` : base;
}

/**
 * Forwards a child's stderr to the log, line by line, each line capped at 8 KiB. Returns a function
 * giving the line to quote in the agent-exit notice so far: the last meaningful one, not one of
 * Node's warnings or stack lines (bridge/stderr.ts).
 */
function forwardStderr(child: ChildProcess, log: BridgeLog): () => string | undefined {
  let pending = '';
  const last = new LastStderrLine();
  const cap = 8192;
  const line = (text: string) => {
    last.push(text);
    log(`[agent ${child.pid}] ${text}`);
  };
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    pending += chunk;
    let nl = pending.indexOf('\n');
    while (nl !== -1) {
      line(pending.slice(0, Math.min(nl, cap)));
      pending = pending.slice(nl + 1);
      nl = pending.indexOf('\n');
    }
    if (pending.length > cap) {
      line(`${pending.slice(0, cap)}…`);
      pending = '';
    }
  });
  child.stderr?.on('end', () => {
    if (pending) line(pending);
  });
  return () => last.value;
}

/**
 * Nesting up to which `JSON.stringify` never overflows the stack (it takes thousands of levels), so
 * a message no deeper than this needs no trial serialization.
 */
const SAFE_DEPTH = 256;

/** Whether objects and arrays in `value` nest more than `limit` levels (walked without recursion). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node as object)) {
      if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Drops agent messages that cannot be serialized again for the socket (nesting so deep that
 * `JSON.stringify` overflows the stack), logging it. Forwarding one would fail inside the SDK's
 * WebSocket session and close the whole connection (1011), losing everything after it. The SDK
 * serializes every message once to send it; only a message nested deeper than {@link SAFE_DEPTH}
 * is serialized here first, on trial. Also drops the bridge's own marks (see
 * {@link pacedAgentOutput}), which `isMark` recognizes.
 */
function forwardableOnly(
  log: BridgeLog,
  label: string,
  isMark: (message: AnyMessage) => boolean,
): TransformStream<AnyMessage, AnyMessage> {
  return new TransformStream({
    transform(message, controller) {
      if (isMark(message)) return;
      if (nestsDeeperThan(message, SAFE_DEPTH)) {
        try {
          JSON.stringify(message);
        } catch (error) {
          log(
            `${label}: dropped an agent message that cannot be serialized (${error instanceof Error ? error.message : String(error)})`,
          );
          return;
        }
      }
      controller.enqueue(message);
    },
  });
}

/**
 * The agent's stdout for the SDK's `ndJsonStream`, read only as fast as the client takes messages.
 *
 * `ndJsonStream` reads its input as fast as it arrives and queues every message it parses, whether
 * or not anything takes them. Against a client slower than its agent (a flood into a browser page)
 * the SDK stops taking output once the socket holds `--max-buffered-bytes`, but that queue kept
 * growing with everything the agent wrote: 1,000,000 updates to a client reading 4,000 a second
 * took the bridge past 500 MiB, and draining the queue then blocked its event loop for 90 s (a
 * web-streams queue dequeues in time proportional to its length).
 *
 * So `input` hands `ndJsonStream` one read of the pipe at a time and, after each read that ends a
 * line, a mark line (a JSON object carrying a per-connection nonce). The next read waits until the
 * first step after `ndJsonStream` has passed the mark to `isMark`, which happens only once every
 * message before it has been taken on towards the socket; that step then drops it. Meanwhile the
 * pipe stays unread and the agent's writes wait, so the bridge holds at most one read of messages
 * besides what the SDK buffers.
 */
function pacedAgentOutput(stdout: Readable): {
  input: ReadableStream<Uint8Array>;
  isMark(message: AnyMessage): boolean;
} {
  const nonce = randomUUID();
  const markLine = Buffer.from(`${JSON.stringify({ [MARK_KEY]: nonce })}\n`);
  const chunks = stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let markTaken: Promise<void> = Promise.resolve();
  let takeMark = () => {};
  let cancelled = false;
  const input = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await markTaken;
        const next = cancelled ? undefined : await chunks.next();
        if (!next || cancelled) return;
        if (next.done) {
          controller.close();
          return;
        }
        const chunk = next.value;
        const end = chunk.lastIndexOf(0x0a);
        // No line ends in this read, so it yields no message: read on.
        if (end === -1) {
          controller.enqueue(chunk);
          return;
        }
        markTaken = new Promise((resolve) => {
          takeMark = resolve;
        });
        controller.enqueue(Buffer.concat([chunk.subarray(0, end + 1), markLine, chunk.subarray(end + 1)]));
      },
      async cancel() {
        cancelled = true;
        takeMark();
        await chunks.return?.();
      },
    },
    { highWaterMark: 0 },
  );
  const isMark = (message: AnyMessage) => {
    if ((message as Record<string, unknown>)[MARK_KEY] !== nonce) return false;
    takeMark();
    return true;
  };
  return { input, isMark };
}

/** The key of {@link pacedAgentOutput}'s mark lines (never forwarded, so the name is free). */
const MARK_KEY = '_silo/bridge_mark';

/**
 * Creates the connector for one connection. `connect()` is called by `AcpServer` at upgrade time
 * (after the guard accepted it) and spawns the agent at once.
 */
export function stdioAgentConnector(options: StdioConnectorOptions): AgentConnector {
  return {
    connect(stream: Stream) {
      const { log, label, mark } = options;
      // Its own process group; the bridge's environment without the token, with the connection's mark.
      const child = spawn(options.command, options.args, {
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        env: { ...withoutToken(process.env), [CONNECTION_ENV]: mark },
      });
      let ending: Promise<void> | undefined;
      const end = (): Promise<void> => {
        if (child.pid === undefined) return Promise.resolve();
        ending ??= endAgentProcesses(child.pid, mark);
        return ending;
      };
      const exited = new Promise<AgentExitedParams>((resolve) => {
        child.once('exit', (code, signal) => resolve({ code, signal }));
        child.once('error', (error) => {
          if (child.pid === undefined)
            resolve({ code: null, signal: null, reason: `spawn failed: ${error.message}` });
        });
      }).then((exit) => {
        // Whatever the agent left behind (in its group or not) is ended with it.
        void end();
        return exit;
      });
      if (child.pid !== undefined) {
        log(`${label}: agent spawned pid=${child.pid}`);
        options.onSpawn?.(
          child,
          exited.then(() => end()),
          end,
        );
      }
      child.stdin?.on('error', () => {});
      child.stdout?.on('error', () => {});
      const lastStderr = forwardStderr(child, log);
      const stderrDone = new Promise<void>((resolve) => {
        if (child.stderr) child.stderr.once('close', () => resolve());
        else resolve();
      });

      const paced = pacedAgentOutput(child.stdout!);
      const agent = ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, paced.input, {
        maxMessageBytes: options.maxLineBytes,
      });
      const inbound = stream.readable;
      const outbound = agent.readable.pipeThrough(forwardableOnly(log, label, paced.isMark));

      // Client side ended (socket closed): end the agent and its children.
      void inbound
        .pipeTo(agent.writable)
        .catch(() => {})
        .finally(() => {
          void end();
        });

      let limitReason: string | undefined;
      const stopPump = new AbortController();
      const pumped = outbound
        .pipeTo(stream.writable, { preventClose: true, preventAbort: true, signal: stopPump.signal })
        .catch((error) => {
          if (stopPump.signal.aborted) return;
          if (error instanceof MessageTooLargeError) {
            limitReason = `agent message over ${options.maxLineBytes} bytes`;
            log(`${label}: ${limitReason}; ending the agent`);
          } else {
            log(`${label}: agent output failed: ${error instanceof Error ? error.message : String(error)}`);
          }
          void end();
        });

      const closed = (async () => {
        const exit = await exited;
        // Let the agent's last lines (and last stderr line) through, but do not wait on a grandchild that holds stdout open.
        await Promise.race([
          Promise.all([pumped, stderrDone]),
          new Promise((r) => setTimeout(r, 2000).unref()),
        ]);
        stopPump.abort();
        await pumped;
        const stderr = lastStderr();
        const params: AgentExitedParams = {
          ...exit,
          ...(limitReason ? { reason: limitReason } : {}),
          ...(stderr ? { stderr } : {}),
        };
        options.outcome.exit = params;
        log(`${label}: ${describeExit(params)}`);
        try {
          const writer = stream.writable.getWriter();
          await writer.write({ jsonrpc: '2.0', method: AGENT_EXITED_METHOD, params } as AnyMessage);
          await writer.close();
        } catch {
          // the client is already gone
        }
      })();
      return { closed };
    },
  };
}
