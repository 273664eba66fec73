/**
 * The streaming JSONL export (`AgentsService.exportJsonlStream`), the worker's side: the journal read
 * a few segment records at a time — each pull of the stream one `getAll` over a key range of the
 * session's segments, in a transaction of its own — and turned into text chunk by chunk, so neither
 * the whole journal nor the whole text is ever in memory. The stream is transferred to the page.
 */
import { SiloError, serializeError } from '../src/errors.ts';
import { type JsonlExportInfo, jsonlHeader, jsonlLines } from '../src/jsonl.ts';
import type { Journal, Segment, SessionRecord } from './journal.ts';

/**
 * About how many updates one chunk holds (≈ 0.4 MB of text at 400 B an update: one full journal
 * segment). A pull reads as many whole segment records as come to this at the average size of those
 * read so far (journal segments hold from one update, a sparse live burst, to 1,000). Measured on
 * 100,000 updates, chunks of 1,000 did no worse than 2,000 (docs/performance.md, #6).
 */
export const CHUNK_UPDATES = 1000;

/** What the export's header says of a session (journal-side names → {@link JsonlExportInfo}). */
export function exportInfo(sessionId: string, record: SessionRecord | undefined): JsonlExportInfo {
  return {
    ...(record?.agent ? { agent: record.agent } : {}),
    sessionId: record?.importedFrom ?? sessionId,
    ...(record?.userTitle ? { title: record.userTitle } : {}),
  };
}

/**
 * Resolves, once the session's record is read, to a stream of its JSONL export: the header line as
 * the first chunk, then the updates journaled when it resolved, about {@link CHUNK_UPDATES} a chunk,
 * every chunk whole lines. Updates journaled later are not in it. The journal is read only as the
 * stream is pulled — one chunk made ahead, and the read of the next started as soon as a read is back,
 * so IndexedDB reads while the worker stringifies — through `open` each time (a journal reopened
 * meanwhile is used).
 *
 * Rejects with `session-not-found` when the journal holds no such session. The stream errors — with
 * a serialized {@link SiloError}, a plain object that crosses `postMessage` — with
 * `session-not-found` when the session's updates go away while it is read (deleted, or continued in
 * another session), and `internal` when IndexedDB fails a read; `data.updates` says how many updates
 * went out before. Cancelling it stops the reads.
 */
export async function exportJsonlStream(
  open: () => Promise<Journal>,
  sessionId: string,
  chunkUpdates = CHUNK_UPDATES,
): Promise<ReadableStream<string>> {
  const record = await (await open()).session(sessionId);
  if (!record) throw new SiloError('session-not-found', `No journaled session ${sessionId}`);
  const end = record.nextSeq;
  /** The key (first seq) of the last segment read; the next read starts after it. */
  let after = -1;
  let sent = 0;
  let segmentsRead = 0;
  /** The read ahead: started as soon as the previous read is back, before its text is made. */
  let next: Promise<Segment[]> | undefined;
  const read = (count: number): Promise<Segment[]> => {
    const range = IDBKeyRange.bound([sessionId, after], [sessionId, end], true, true);
    const segments = open().then((journal) => journal.db.getAll('segments', range, Math.max(1, count)));
    segments.catch(() => {}); // awaited at the next pull; a cancelled stream never awaits it
    return segments;
  };
  return new ReadableStream<string>(
    {
      start(controller) {
        controller.enqueue(jsonlHeader(exportInfo(sessionId, record)));
        if (end === 0) controller.close();
      },
      async pull(controller) {
        try {
          const segments = await (next ?? read(1));
          next = undefined;
          if (segments.length === 0)
            throw new SiloError(
              'session-not-found',
              `The journal of session ${sessionId} went away during its export (deleted, or continued in another session)`,
              { updates: sent },
            );
          let updates = 0;
          for (const s of segments) updates += s.updates.length;
          segmentsRead += segments.length;
          after = segments.at(-1)!.seq;
          const total = sent + updates;
          if (total < end) next = read(Math.ceil(chunkUpdates / (total / segmentsRead)));
          let text = '';
          for (const s of segments) text += jsonlLines(s.updates);
          sent = total;
          controller.enqueue(text);
          if (sent >= end) controller.close();
        } catch (error) {
          controller.error(serializeError(readError(error, sent)));
        }
      },
    },
    { highWaterMark: 1 },
  );
}

/** A failed read as a coded error: Silo's own as it is, IndexedDB's as `internal`. */
function readError(error: unknown, sent: number): SiloError {
  if (error instanceof SiloError) return error;
  const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return SiloError.internal(`The journal could not be read during the export (${why})`, { updates: sent });
}
