/**
 * Page side of the export benchmark (target 6 of #32): the page API's streaming JSONL export consumed
 * as Silo's own Export does it (the stream encoded into a Blob's bytes: no string of the whole text),
 * and its baseline, one `getAll` of the session's journal records. Merged into `window.siloBench`.
 */
import { utf8Blob } from '../../components/chat/export.ts';
import { createAgentsService } from '../../src/index.ts';
import { openDatabase, readSegments } from './measure.ts';

export const exportBench = {
  /**
   * `service.exportJsonlStream(sessionId)` read to its end into a Blob (`utf8Blob`, as `<silo-chat>`
   * saves it: each chunk `encodeInto` a buffer kept between chunks), the worker and journal already open;
   * timed from the call to the Blob. A pass-through counts the chunks and the longest one (what the
   * page held as one string at most); after the clock stops, the Blob's lines are counted by reading
   * it as a stream (still no whole string).
   */
  async exportStream(databaseName: string, sessionId: string) {
    const service = createAgentsService({ databaseName });
    try {
      await service.sessions();
      let chunks = 0;
      let chars = 0;
      let longest = 0;
      const t0 = performance.now();
      const stream = await service.exportJsonlStream(sessionId);
      const isStream = stream instanceof ReadableStream;
      const counted = stream.pipeThrough(
        new TransformStream<string, string>({
          transform(chunk, controller) {
            chunks++;
            chars += chunk.length;
            longest = Math.max(longest, chunk.length);
            controller.enqueue(chunk);
          },
        }),
      );
      const blob = await utf8Blob(counted);
      const ms = performance.now() - t0;
      let lines = 0;
      const reader = blob.stream().pipeThrough(new TextDecoderStream()).getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read())
        for (let i = r.value.indexOf('\n'); i >= 0; i = r.value.indexOf('\n', i + 1)) lines++;
      return { ms, isStream, chunks, chars, longest, bytes: blob.size, lines };
    } finally {
      await service.dispose();
    }
  },

  /** One `getAll` of a session's journal records, in the page (the export's baseline). */
  async getAll(databaseName: string, sessionId: string) {
    const db = await openDatabase(databaseName);
    try {
      const t0 = performance.now();
      const segments = await readSegments(db, sessionId);
      return { ms: performance.now() - t0, segments: segments.length };
    } finally {
      db.close();
    }
  },
};
