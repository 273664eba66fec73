/**
 * 2. The main thread while `<silo-transcript>` renders a paced stream (5,000 updates/s), against the
 * same stream appended to a bare `<div>`: long tasks, frame intervals.
 */
import { type Bench, call } from '../harness.ts';
import { elapsed, figures, judge, log, range } from '../results.ts';
import { type Figure, figure, formatNumber, pairedRatios } from '../stats.ts';

export async function mainThread({ page, config }: Bench): Promise<void> {
  const silo = {
    p95: [] as number[],
    p50: [] as number[],
    count: [] as number[],
    longest: [] as number[],
    blocking: [] as number[],
    rate: [] as number[],
    dom: [] as number[],
  };
  const bare = {
    p95: [] as number[],
    count: [] as number[],
    longest: [] as number[],
    blocking: [] as number[],
  };
  const args = [config.streamRate, config.streamCount, config.chunksPerMessage] as const;
  for (let i = 0; i < config.runs; i++) {
    const b = await call(page, 'feedStream', 'bare', ...args);
    bare.p95.push(b.frameP95);
    bare.count.push(b.longTasks);
    bare.longest.push(b.longestTask);
    bare.blocking.push(b.blockingMs);
    const m = await call(page, 'feedStream', 'silo', ...args);
    silo.p95.push(m.frameP95);
    silo.p50.push(m.frameP50);
    silo.count.push(m.longTasks);
    silo.longest.push(m.longestTask);
    silo.blocking.push(m.blockingMs);
    silo.rate.push(m.achievedRate);
    silo.dom.push(m.dom);
    log(
      `main thread run ${i + 1}/${config.runs}: <silo-transcript> ${m.longTasks} long tasks (longest ${formatNumber(m.longestTask)} ms), frame p95 ${formatNumber(m.frameP95, 1)} ms; bare div ${b.longTasks} long tasks (longest ${formatNumber(b.longestTask)} ms), frame p95 ${formatNumber(b.frameP95, 1)} ms (${elapsed()})`,
    );
  }
  const longTasks = figure(silo.count, 'tasks');
  const longestTask = figure(silo.longest, 'ms');
  figures.mainThread = {
    rate: config.streamRate,
    updates: config.streamCount,
    chunksPerMessage: config.chunksPerMessage,
    achievedRate: figure(silo.rate, 'updates/s'),
    longTasks,
    longestTask,
    blockingTime: figure(silo.blocking, 'ms'),
    frameP50: figure(silo.p50, 'ms'),
    frameP95: figure(silo.p95, 'ms'),
    domElements: figure(silo.dom, 'elements'),
    bareLongTasks: figure(bare.count, 'tasks'),
    bareLongestTask: figure(bare.longest, 'ms'),
    bareBlockingTime: figure(bare.blocking, 'ms'),
    bareFrameP95: figure(bare.p95, 'ms'),
    frameP95OverBare: figure(pairedRatios(silo.p95, bare.p95), '×'),
  };
  judge({
    section: 'main-thread',
    name: `long tasks > 50 ms at ${formatNumber(config.streamRate)} updates/s`,
    value: `${range(longTasks, 0, '')} (longest ${formatNumber(longestTask.median)} ms; bare <div> ${formatNumber((figures.mainThread.bareLongTasks as Figure).median)})`,
    measured: longTasks.median,
    op: '=',
    limit: 0,
    unit: 'tasks',
  });
}
