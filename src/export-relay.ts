/**
 * The page's side of the streaming JSONL export: the stream the worker transfers (worker/export-stream.ts)
 * errors with a serialized SiloError and cannot tell that the worker died (its port just goes quiet),
 * so the page hands out a stream of its own that reads it on demand, rebuilds its errors as
 * {@link SiloError}s and errors when the worker is gone.
 */
import { SiloError } from './errors.ts';

/** The export streams being read, each told when the worker is gone (see {@link relayExport}). */
export type ExportStreams = Set<(error: SiloError) => void>;

/**
 * A stream of `source`'s chunks, read from it only when this one is read (no chunk is queued here).
 * It errors with a {@link SiloError} (`source`'s error rebuilt) when `source` errors, and with the
 * error given to its entry in `live` (which it joins until it ends) when the worker is gone.
 * Cancelling it cancels `source`.
 */
export function relayExport(source: ReadableStream<string>, live: ExportStreams): ReadableStream<string> {
  const reader = source.getReader();
  let gone: ((error: SiloError) => void) | undefined;
  const end = () => {
    if (gone) live.delete(gone);
  };
  return new ReadableStream<string>(
    {
      start(controller) {
        gone = (error) => {
          end();
          controller.error(error);
          reader.cancel(error).catch(() => {});
        };
        live.add(gone);
      },
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            end();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          end();
          controller.error(SiloError.from(error));
        }
      },
      cancel(reason) {
        end();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** Every chunk of `stream` as one string. Rejects with the stream's error. */
export async function streamText(stream: ReadableStream<string>): Promise<string> {
  const reader = stream.getReader();
  const chunks: string[] = [];
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
  return chunks.join('');
}
