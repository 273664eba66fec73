/**
 * Under `--string-request-ids`: the agent's own JSON-RPC requests (permission requests, questions)
 * go out with string ids (UUIDs, as codex-acp sends) instead of the SDK's integers; the client's
 * answers are mapped back before the SDK sees them. Everything else passes through untouched.
 */
import { randomUUID } from 'node:crypto';
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';

type Message = AnyMessage & { id?: unknown; method?: unknown };

/** Wraps a message stream so the agent's requests carry string ids. */
export function withStringRequestIds(stream: Stream): Stream {
  const sent = new Map<string, unknown>();
  const writable = new WritableStream<AnyMessage>({
    async write(message) {
      const m = message as Message;
      let out = message;
      if (typeof m.method === 'string' && typeof m.id === 'number') {
        const id = randomUUID();
        sent.set(id, m.id);
        out = { ...m, id } as AnyMessage;
      }
      const writer = stream.writable.getWriter();
      try {
        await writer.write(out);
      } finally {
        writer.releaseLock();
      }
    },
    close: () => stream.writable.close(),
  });
  const readable = stream.readable.pipeThrough(
    new TransformStream<AnyMessage, AnyMessage>({
      transform(message, controller) {
        const m = message as Message;
        if (m.method === undefined && typeof m.id === 'string' && sent.has(m.id)) {
          const id = sent.get(m.id);
          sent.delete(m.id);
          controller.enqueue({ ...m, id } as AnyMessage);
        } else controller.enqueue(message);
      },
    }),
  );
  return { readable, writable };
}
