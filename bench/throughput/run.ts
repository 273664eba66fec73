/**
 * 1. Streaming throughput: Silo against the true ceiling (fast agent → bare worker) and against the
 * client users would write (the ACP SDK's `client()` in the page, no journal), with worker and
 * main-thread CPU per update from /proc (bench/cpu.ts); the agent-paced raw limit and the naive
 * one-transaction-per-update client as extra rows.
 */
import { address, type Bench, call } from '../harness.ts';
import { elapsed, figures, judge, log, range } from '../results.ts';
import { figure, formatNumber, pairedRatios } from '../stats.ts';

type Flood = 'ceiling' | 'silo' | 'sdk' | 'paced' | 'naive';

/** What each flood measures, for the log and the report. */
const FLOODS: Record<Flood, string> = {
  ceiling: 'true ceiling: fast agent → bare worker (WebSocket + JSON.parse)',
  silo: 'Silo: fast agent → worker, journal on',
  sdk: 'SDK client() in the page, no journal (fast agent)',
  paced: 'extra: bare worker, reference agent (agent-paced raw)',
  naive: 'extra: SDK in the page, 1 transaction/update (fast agent)',
};

const perFlood = (): Record<Flood, number[]> => ({ ceiling: [], silo: [], sdk: [], paced: [], naive: [] });

export async function throughput({ page, bridges, cpu, config }: Bench): Promise<void> {
  const fast = address(bridges.fast);
  const reference = address(bridges.reference);
  const rate = perFlood();
  const workerUs = perFlood();
  const mainUs = perFlood();
  let complete = true;
  let journaled: number | undefined;
  let receivedAll = true;
  const run = async (which: Flood, last: boolean) => {
    const count = which === 'naive' ? config.naiveFlood : config.flood;
    const r =
      which === 'ceiling'
        ? await call(page, 'rawFlood', fast, count)
        : which === 'paced'
          ? await call(page, 'rawFlood', reference, count)
          : which === 'silo'
            ? await call(page, 'siloFlood', fast, count, last)
            : which === 'sdk'
              ? await call(page, 'sdkFlood', fast, count)
              : await call(page, 'naiveFlood', fast, count);
    rate[which].push((r.received / r.ms) * 1000);
    receivedAll &&= r.received === count;
    const split = cpu.take();
    workerUs[which].push(split ? (split.workerMs * 1000) / count : Number.NaN);
    mainUs[which].push(split ? (split.mainMs * 1000) / count : Number.NaN);
    if (which === 'silo' && last) {
      journaled = r.journaled;
      complete = r.journalComplete === true;
    }
  };
  const paired: Flood[] = ['ceiling', 'silo', 'sdk'];
  for (let i = 0; i < config.runs; i++) {
    const last = i === config.runs - 1;
    // The three paired floods in a rotating order, so no one of them always runs first (or last).
    for (let k = 0; k < paired.length; k++) await run(paired[(i + k) % paired.length]!, last);
    await run('paced', last);
    await run('naive', last);
    log(
      `throughput pair ${i + 1}/${config.runs}: ceiling ${formatNumber(rate.ceiling.at(-1)!)}/s, silo ${formatNumber(rate.silo.at(-1)!)}/s, sdk ${formatNumber(rate.sdk.at(-1)!)}/s; extra: paced raw ${formatNumber(rate.paced.at(-1)!)}/s, naive ${formatNumber(rate.naive.at(-1)!)}/s; worker CPU silo ${formatNumber(workerUs.silo.at(-1)!, 1)} µs/update, bare ${formatNumber(workerUs.ceiling.at(-1)!, 1)} (${elapsed()})`,
    );
  }
  const overCeiling = figure(pairedRatios(rate.silo, rate.ceiling), '×');
  const overSdk = figure(pairedRatios(rate.silo, rate.sdk), '×');
  const cpuRatio = figure(pairedRatios(workerUs.silo, workerUs.ceiling), '×');
  const siloUs = figure(workerUs.silo, 'µs');
  const ceilingUs = figure(workerUs.ceiling, 'µs');
  figures.throughput = {
    chunks: { flood: config.flood, naive: config.naiveFlood },
    what: FLOODS,
    ceiling: figure(rate.ceiling, 'updates/s'),
    silo: figure(rate.silo, 'updates/s'),
    sdk: figure(rate.sdk, 'updates/s'),
    paced: figure(rate.paced, 'updates/s'),
    naive: figure(rate.naive, 'updates/s'),
    siloOverCeiling: overCeiling,
    siloOverSdk: overSdk,
    siloOverPaced: figure(pairedRatios(rate.silo, rate.paced), '×'),
    siloOverNaive: figure(pairedRatios(rate.silo, rate.naive), '×'),
    workerCpuPerUpdate: { silo: siloUs, ceiling: ceilingUs, siloOverCeiling: cpuRatio },
    mainThreadCpuPerUpdate: {
      silo: figure(mainUs.silo, 'µs'),
      sdk: figure(mainUs.sdk, 'µs'),
      naive: figure(mainUs.naive, 'µs'),
    },
    everyUpdateReceived: receivedAll,
    journal: { journaledChunks: journaled, complete },
  };
  const why =
    "the worker's receive path: the IndexedDB put and the copy to the page (a structured clone each) and normalizing, on top of the bare worker's WebSocket + JSON.parse (docs/performance.md)";
  judge({
    section: 'throughput',
    id: 1,
    name: 'worker CPU per update, Silo / bare worker',
    value: `${range(cpuRatio, 2, '×')}: ${formatNumber(siloUs.median, 1)} vs ${formatNumber(ceilingUs.median, 1)} µs`,
    measured: cpuRatio.median,
    op: '≤',
    limit: 1.2,
    unit: '×',
    digits: 2,
    why,
  });
  judge({
    section: 'throughput',
    id: 1,
    name: 'Silo / true ceiling (fast agent, bare worker)',
    value: range(overCeiling, 2, '×'),
    measured: overCeiling.median,
    op: '≥',
    limit: 0.95,
    unit: '×',
    digits: 2,
    why: `on 2 cores throughput follows the worker's CPU per update (above); ${why}`,
  });
  judge({
    section: 'throughput',
    name: 'Silo / SDK client() in the page, no journal',
    value: range(overSdk, 2, '×'),
    measured: overSdk.median,
    op: '≥',
    limit: 1,
    unit: '×',
    digits: 2,
  });
  judge({
    section: 'throughput',
    name: 'journal holds every update, in order (1 = yes)',
    value: `${complete ? 'yes' : 'NO'} (${formatNumber(journaled ?? 0)} chunks)`,
    measured: complete && receivedAll ? 1 : 0,
    op: '=',
    limit: 1,
    unit: '',
  });
}
