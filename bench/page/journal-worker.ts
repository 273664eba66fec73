/**
 * Writes a synthetic long thread into a Silo journal with Silo's own journal module (same database
 * layout and segment size as a live session), for the reopen benchmark.
 */
import { journalOpener } from '../../worker/journal.ts';
import { mixedTranscript } from './mixed-transcript.ts';
import type { JournalMessage, JournalRequest } from './protocol.ts';

const post = (m: JournalMessage) => self.postMessage(m);

self.onmessage = async (event: MessageEvent<JournalRequest>) => {
  const { databaseName, sessionId, count, marker, noisy } = event.data;
  try {
    const t0 = performance.now();
    const journal = await journalOpener(databaseName)();
    const record = await journal.upsertSession(sessionId, {
      lastOutcome: 'journal-only',
      title: 'Benchmark thread',
    });
    const writer = journal.writer(sessionId, record.nextSeq);
    // As a live session's writer: it folds what it appends and keeps the fold (worker/journal-fold.ts).
    await writer.fold((end) => journal.fold(sessionId, end));
    let updates = 0;
    let approxBytes = 0;
    // What the updates weigh on the wire: each one's `session/update` notification, one line each
    // (Silo's own rows, the user's prompt and the turn end, counted as if an agent had sent them).
    let wireBytes = 0;
    const encoder = new TextEncoder();
    for (const batch of mixedTranscript(count, marker, 5000, noisy === true)) {
      if (updates === 0) approxBytes = JSON.stringify(batch).length * (count / batch.length);
      for (const u of batch) {
        const line = JSON.stringify({
          jsonrpc: '2.0',
          method: 'session/update',
          params: { sessionId, update: u.raw },
        });
        wireBytes += encoder.encode(line).length + 1;
      }
      writer.append(batch);
      updates += batch.length;
      await writer.flushed();
    }
    journal.close();
    post({ type: 'done', updates, ms: performance.now() - t0, approxBytes, wireBytes });
  } catch (error) {
    post({ type: 'error', message: String(error) });
  }
};
