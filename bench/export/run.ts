/**
 * Target 6 of #32: the JSONL export of a 100,000-update session through the page API's streaming
 * export (`service.exportJsonlStream`: the worker reads a few journal segments per pull and turns them
 * into text, the stream is transferred to the page, and the page encodes it into a Blob as Silo's
 * Export does), timed to the Blob, against one `getAll` of the session's journal records in the page,
 * paired; and whether it streams: judged from what the page got (bench/page/export.ts), a stream of
 * several chunks of which the longest is a small part of the text, so no whole-transcript string was
 * made in the page. (The worker makes none either: it reads and writes one chunk at a time,
 * worker/export-stream.ts.)
 */
import { type Bench, call } from '../harness.ts';
import type { Journal } from '../reopen/journal.ts';
import { elapsed, figures, judge, log, mb, range } from '../results.ts';
import { figure, formatNumber, pairedRatios } from '../stats.ts';

/** The longest chunk may be at most this part of the whole text for the export to count as streamed. */
const MAX_CHUNK_SHARE = 0.25;

export async function exportJsonl({ page, config }: Bench, journal: Journal): Promise<void> {
  const exported: number[] = [];
  const getAll: number[] = [];
  let last: Awaited<ReturnType<typeof exportOnce>> | undefined;
  let streams = true;
  const exportOnce = () => call(page, 'exportStream', journal.databaseName, journal.sessionId);
  for (let i = 0; i < config.journalRuns; i++) {
    const g = await call(page, 'getAll', journal.databaseName, journal.sessionId);
    const e = await exportOnce();
    getAll.push(g.ms);
    exported.push(e.ms);
    last = e;
    const complete = e.lines === journal.updates + 1;
    streams &&= e.isStream && complete && e.chunks > 2 && e.longest <= e.chars * MAX_CHUNK_SHARE;
    log(
      `export run ${i + 1}/${config.journalRuns}: streamed JSONL export to a Blob ${formatNumber(e.ms)} ms (${formatNumber(e.lines)} lines${complete ? '' : ' — NOT the whole journal'}, ${mb(e.bytes)} in ${formatNumber(e.chunks)} chunks, the longest ${mb(e.longest)} of text); getAll ${formatNumber(g.ms)} ms (${elapsed()})`,
    );
  }
  const ratio = figure(pairedRatios(exported, getAll), '×');
  figures.export = {
    updates: journal.updates,
    export: figure(exported, 'ms'),
    getAll: figure(getAll, 'ms'),
    exportOverGetAll: ratio,
    lines: last?.lines,
    chars: last?.chars,
    bytes: last?.bytes,
    chunks: last?.chunks,
    longestChunk: last?.longest,
    streams,
    how: 'service.exportJsonlStream(sessionId) read to its end into a Blob (utf8Blob, as <silo-chat> saves it: encodeInto per chunk): the worker reads segment records per pull (getAll over a key range, the next read started before the current chunk is stringified) and makes each chunk, the stream is transferred to the page',
  };
  judge({
    section: 'export',
    id: 6,
    name: `JSONL export of ${formatNumber(journal.updates)} updates / one getAll`,
    value: `${range(ratio, 2, '×')}: ${formatNumber(figure(exported, 'ms').median)} vs ${formatNumber(figure(getAll, 'ms').median)} ms`,
    measured: ratio.median,
    op: '≤',
    limit: 2,
    unit: '×',
    digits: 2,
    why: 'CPU on 2 cores: the export reads and deserializes the same records as the getAll (in the worker, a few segments per transaction), and adds a JSON.stringify of every update, a copy of each chunk to the page, and its UTF-8 encoding (encodeInto, ~130 MB/s in this Chromium) and the Blob in the page (docs/performance.md, #6)',
  });
  judge({
    section: 'export',
    id: 6,
    name: 'JSONL export streams (no whole-transcript string; 1 = yes)',
    value: last
      ? `${streams ? 'yes' : 'no'}: a ${last.isStream ? 'ReadableStream' : 'value that is not a stream'} of ${formatNumber(last.chunks)} chunks, the longest ${mb(last.longest)} of ${mb(last.chars)} of text`
      : 'not run',
    measured: streams && last ? 1 : 0,
    op: '=',
    limit: 1,
    unit: '',
    why: `streamed means: a ReadableStream holding every line, in more than two chunks, none over ${MAX_CHUNK_SHARE * 100} % of the text`,
  });
}
