/**
 * 4. Latency agent → page at 100 updates/s: the reference agent stamps each update, the page reads
 * `Date.now()` in `onUpdate`; baseline, the bare worker posting each frame's stamp to the page.
 */
import { address, type Bench, call } from '../harness.ts';
import { elapsed, figures, judge, log, range } from '../results.ts';
import { type Figure, figure, formatNumber, pairedRatios, quantile } from '../stats.ts';

export async function latency({ page, bridges, config }: Bench): Promise<void> {
  const b = address(bridges.reference);
  const silo = { p50: [] as number[], p95: [] as number[] };
  const raw = { p50: [] as number[], p95: [] as number[] };
  for (let i = 0; i < config.runs; i++) {
    const r = await call(page, 'rawLatency', b, config.latencyRate, config.latencyCount);
    raw.p50.push(quantile(r, 0.5));
    raw.p95.push(quantile(r, 0.95));
    const s = await call(page, 'siloLatency', b, config.latencyRate, config.latencyCount);
    if (s.length !== config.latencyCount)
      throw new Error(`Silo delivered ${s.length} of ${config.latencyCount} stamped updates`);
    silo.p50.push(quantile(s, 0.5));
    silo.p95.push(quantile(s, 0.95));
    log(
      `latency run ${i + 1}/${config.runs}: silo p50 ${silo.p50.at(-1)} ms p95 ${silo.p95.at(-1)} ms; raw p50 ${raw.p50.at(-1)} ms p95 ${raw.p95.at(-1)} ms (${elapsed()})`,
    );
  }
  const p95 = figure(silo.p95, 'ms');
  figures.latency = {
    rate: config.latencyRate,
    updates: config.latencyCount,
    siloP50: figure(silo.p50, 'ms'),
    siloP95: p95,
    rawP50: figure(raw.p50, 'ms'),
    rawP95: figure(raw.p95, 'ms'),
    siloOverRawP95: figure(
      pairedRatios(
        silo.p95,
        raw.p95.map((x) => Math.max(x, 1)),
      ),
      '×',
    ),
    resolution: 'ms (agent Date.now() vs page Date.now(), same clock)',
  };
  judge({
    section: 'latency',
    name: `p95 latency at ${config.latencyRate} updates/s`,
    value: `${range(p95, 0, ' ms')}; raw limit p95 ${formatNumber((figures.latency.rawP95 as Figure).median)} ms`,
    measured: p95.median,
    op: '<',
    limit: 16,
    unit: 'ms',
  });
}
