/**
 * Under `--calls-log`: every request and notification the client sends is logged, once read, as a
 * line `<method> <sessionId>` (`-` when it names none) appended to `<sessions-dir>/calls.log`, so a
 * test can see what the client asked of the agent (`session/close`, `session/delete`, `session/fork`,
 * `_session/steering`…) across the bridge's agent processes.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';

/** Wraps the agent's message stream so each message the client sends is logged as it is read. */
export function withCallsLog(stream: Stream, sessionsDir: string): Stream {
  const file = join(sessionsDir, 'calls.log');
  const readable = stream.readable.pipeThrough(
    new TransformStream<AnyMessage, AnyMessage>({
      transform(message, controller) {
        const m = message as { method?: unknown; params?: { sessionId?: unknown } };
        if (typeof m.method === 'string') {
          const sessionId = typeof m.params?.sessionId === 'string' ? m.params.sessionId : '-';
          appendFileSync(file, `${m.method} ${sessionId}\n`);
        }
        controller.enqueue(message);
      },
    }),
  );
  return { readable, writable: stream.writable };
}
