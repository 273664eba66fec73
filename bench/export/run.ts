/**
 * Target 6 of #32: the JSONL export of a 100,000-update session (`service.exportJsonl`, the page
 * API's export path: the worker reads the journal, `toJsonl` builds the text, Comlink copies it to the
 * page) against one `getAll` of the session's journal records in the page, paired; and whether it
 * streams. Today `exportJsonl` resolves to one string holding the whole transcript (checked below
 * from what it returns): it does not stream.
 */
import { type Bench, call } from '../harness.ts';
import type { Journal } from '../reopen/journal.ts';
import { elapsed, figures, judge, log, mb, range } from '../results.ts';
import { figure, formatNumber, pairedRatios } from '../stats.ts';

export async function exportJsonl({ page, config }: Bench, journal: Journal): Promise<void> {
  const exported: number[] = [];
  const getAll: number[] = [];
  let chars = 0;
  let lines = 0;
  let type = '';
  for (let i = 0; i < config.journalRuns; i++) {
    const g = await call(page, 'getAll', journal.databaseName, journal.sessionId);
    const e = await call(page, 'exportJsonl', journal.databaseName, journal.sessionId);
    getAll.push(g.ms);
    exported.push(e.ms);
    chars = e.chars;
    lines = e.lines;
    type = e.type;
    log(
      `export run ${i + 1}/${config.journalRuns}: JSONL export ${formatNumber(e.ms)} ms (${formatNumber(e.lines)} lines, ${mb(e.chars)} in one ${e.type}); getAll ${formatNumber(g.ms)} ms (${elapsed()})`,
    );
  }
  const ratio = figure(pairedRatios(exported, getAll), '×');
  const streams = type !== 'string';
  figures.export = {
    updates: journal.updates,
    export: figure(exported, 'ms'),
    getAll: figure(getAll, 'ms'),
    exportOverGetAll: ratio,
    lines,
    chars,
    streams,
    how: 'service.exportJsonl(sessionId): the worker reads the whole journal (getAll), toJsonl concatenates one string, Comlink clones it to the page',
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
    why: 'the export is a getAll in the worker, plus a JSON.stringify of every update, the concatenation and a structured clone of the whole string to the page',
  });
  judge({
    section: 'export',
    id: 6,
    name: 'JSONL export streams (no whole-transcript string; 1 = yes)',
    value: streams
      ? 'yes'
      : `no: exportJsonl resolves to one ${mb(chars)} string (the worker's toJsonl builds it whole)`,
    measured: streams ? 1 : 0,
    op: '=',
    limit: 1,
    unit: '',
    why: 'the API returns Promise<string> (src/api.ts `exportJsonl`); worker/service.ts reads the journal whole (`Journal.read`, one getAll) and `toJsonl` (src/export.ts) concatenates every line into one string',
  });
}
