/**
 * Target 7 of #32: find across 100,000 updates. The 100,000-update journal is reopened in
 * `<silo-transcript>` and folded whole; then a query is typed into its find one character every
 * 60 ms (each keystroke a `find()`, as the chat's find bar calls it) and timed from the last
 * keystroke to the first `silo-find` of the whole query with a current match. Two queries: one that
 * matches all through the thread (`compute(`), and one that matches one turn near its start only
 * (`question 7:`, so the first result is far above the view and its row must be scrolled to).
 */
import { type Bench, call } from '../harness.ts';
import type { Journal } from '../reopen/journal.ts';
import { reopenOnce } from '../reopen/measure.ts';
import { elapsed, figures, judge, log, range } from '../results.ts';
import { figure, formatNumber } from '../stats.ts';

const QUERIES = { common: 'compute(', rare: 'question 7:' } as const;

export async function find(bench: Bench, journal: Journal): Promise<void> {
  const { page, config } = bench;
  const first = { common: [] as number[], rare: [] as number[] };
  const painted = { common: [] as number[], rare: [] as number[] };
  const done = { common: [] as number[], rare: [] as number[] };
  const totals = { common: 0, rare: 0 };
  for (let i = 0; i < config.journalRuns; i++) {
    await reopenOnce(
      bench,
      journal,
      async () => {
        await call(page, 'settle', journal.updates, bench.quick ? 60_000 : 300_000);
        for (const which of ['common', 'rare'] as const) {
          const r = await call(page, 'typeFind', QUERIES[which], 60, 10_000);
          first[which].push(r.firstMs ?? Number.NaN);
          painted[which].push(r.paintedMs ?? Number.NaN);
          done[which].push(r.doneMs);
          totals[which] = r.total;
          log(
            `find run ${i + 1}/${config.journalRuns}, "${QUERIES[which]}": first result ${formatNumber(r.firstMs ?? Number.NaN)} ms, painted ${formatNumber(r.paintedMs ?? Number.NaN)} ms, search done ${formatNumber(r.doneMs)} ms, ${formatNumber(r.total)} matches (${elapsed()})`,
          );
        }
      },
      false,
    );
  }
  const f = (xs: number[]) => figure(xs, 'ms');
  figures.find = {
    updates: journal.updates,
    queries: QUERIES,
    keystrokeMs: 60,
    matches: totals,
    firstResult: { common: f(first.common), rare: f(first.rare) },
    firstResultPainted: { common: f(painted.common), rare: f(painted.rare) },
    searchDone: { common: f(done.common), rare: f(done.rare) },
  };
  // Each run's worse query (a find that has no match in the view must still be fast).
  const worstFigure = f(first.common.map((c, k) => Math.max(c, first.rare[k]!)));
  judge({
    section: 'find',
    id: 7,
    name: `find across ${formatNumber(journal.updates)} updates: first result after typing stops (worse query)`,
    value: `${range(worstFigure, 0, ' ms')}; "${QUERIES.common}" ${formatNumber(f(first.common).median)} ms, "${QUERIES.rare}" ${formatNumber(f(first.rare).median)} ms (painted ${formatNumber(f(painted.rare).median)} ms, search done ${formatNumber(f(done.rare).median)} ms)`,
    measured: worstFigure.median,
    op: '≤',
    limit: 100,
    unit: 'ms',
    why: "the find reads rows from the view on and names the first match as soon as it is read (components/transcript/find/count.ts); what is left is the main thread: the previous keystroke's slice, its scroll and render, and the text of rows not read yet between the view and the first match",
  });
}
