/**
 * 3. Reopening a big transcript (100,000 updates): the last screen painted, offline and as a live
 * session after a reload, against one raw `getAll` of the journal, and the floor (reading the last
 * journal segment only).
 */
import { type Bench, heapUsed } from '../harness.ts';
import { elapsed, figures, judge, log, range } from '../results.ts';
import { figure, formatNumber, pairedRatios } from '../stats.ts';
import type { Journal } from './journal.ts';
import { reopenOnce } from './measure.ts';

export async function reopen(bench: Bench, journal: Journal): Promise<void> {
  const { config, page } = bench;
  const raw: number[] = [];
  const tail: number[] = [];
  const offline: number[] = [];
  const live: number[] = [];
  const first: number[] = [];
  const liveFirst: number[] = [];
  const dom: number[] = [];
  const heap: number[] = [];
  const heapBefore: number[] = [];
  let atEnd = true;
  let liveAtEnd = true;
  let outcome: string | undefined;
  let rows = 0;
  for (let i = 0; i < config.runs; i++) {
    heapBefore.push(await heapUsed(page));
    const r = await reopenOnce(bench, journal, async () => {
      heap.push(await heapUsed(page));
    });
    raw.push(r.raw);
    tail.push(r.tail);
    offline.push(r.offline);
    live.push(r.live);
    first.push(r.first);
    liveFirst.push(r.liveFirst);
    dom.push(...r.dom);
    atEnd &&= r.atEnd;
    liveAtEnd &&= r.liveAtEnd;
    outcome = r.outcome;
    rows = r.rows;
    log(
      `reopen run ${i + 1}/${config.runs}: last screen offline ${formatNumber(r.offline)} ms${r.atEnd ? '' : ' (NOT at the end)'}, live ${formatNumber(r.live)} ms${r.liveAtEnd ? '' : ' (NOT at the end)'}; raw getAll ${formatNumber(r.raw)} ms, last segment ${formatNumber(r.tail, 1)} ms; ${r.dom.join('/')} DOM elements (${elapsed()})`,
    );
  }
  const ratio = figure(pairedRatios(offline, raw), '×');
  const liveRatio = figure(pairedRatios(live, raw), '×');
  const domFigure = figure(dom, 'elements');
  figures.reopen = {
    updates: journal.updates,
    approxJsonBytes: Math.round(journal.approxBytes),
    rows,
    generateMs: journal.ms,
    lastScreenPainted: figure(offline, 'ms'),
    firstRowsPainted: figure(first, 'ms'),
    liveLastScreenPainted: figure(live, 'ms'),
    liveFirstRowsPainted: figure(liveFirst, 'ms'),
    liveResumeOutcome: outcome,
    rawGetAll: figure(raw, 'ms'),
    rawLastSegment: figure(tail, 'ms'),
    lastScreenOverRawGetAll: ratio,
    liveLastScreenOverRawGetAll: liveRatio,
    lastSegmentOverRawGetAll: figure(pairedRatios(tail, raw), '×'),
    domElements: domFigure,
    jsHeapAfterRender: figure(heap, 'bytes'),
    jsHeapBeforeOpen: figure(heapBefore, 'bytes'),
    openedAtTheEnd: { offline: atEnd, live: liveAtEnd },
  };
  const floor = `; floor (last segment) ${formatNumber(figure(tail, 'ms').median, 1)} ms, raw getAll ${formatNumber(figure(raw, 'ms').median)} ms`;
  const name = `last screen of ${formatNumber(journal.updates)} updates / raw getAll`;
  judge({
    section: 'reopen',
    name: `${name}: offline source`,
    value: `${range(ratio, 2, '×')}: ${formatNumber(figure(offline, 'ms').median)} ms${floor}`,
    measured: atEnd ? ratio.median : Number.NaN,
    op: '<',
    limit: 0.5,
    unit: '×',
    digits: 2,
  });
  judge({
    section: 'reopen',
    name: `${name}: live session after a reload`,
    value: `${range(liveRatio, 2, '×')}: ${formatNumber(figure(live, 'ms').median)} ms (${outcome})`,
    measured: liveAtEnd ? liveRatio.median : Number.NaN,
    op: '<',
    limit: 0.5,
    unit: '×',
    digits: 2,
  });
  judge({
    section: 'reopen',
    name: 'DOM elements after reopening',
    value: formatNumber(domFigure.max),
    measured: domFigure.max,
    op: '<',
    limit: 2000,
    unit: '',
  });
}
