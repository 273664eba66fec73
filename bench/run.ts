/**
 * `npm run bench` — Silo against the project's targets, in one run, on this machine. Builds the
 * library bundles and a benchmark page, serves them on loopback, starts the real bridge twice (with
 * the reference agent, and with the fast agent of agent/bench/fast-agent.ts), drives Debian's Chromium
 * (headless, puppeteer with network/issue monitoring off and no attachment to workers), and runs one
 * benchmark per folder, each recording its figures and judging its targets (bench/results.ts):
 *
 * - throughput/   streaming throughput against the true ceiling and the SDK client; worker CPU per update
 * - main-thread/  the main thread while `<silo-transcript>` renders 5,000 updates/s
 * - streaming/    main-thread time per frame at the start and end of one 50 KB answer
 * - reopen/       the journals (written with Silo's journal module; bytes on disk per update) and
 *                 reopening 100,000 updates: last screen vs one raw `getAll`
 * - scale/        1,000,000 updates against 100,000: last screen, page + worker JS heap
 * - export/       JSONL export of 100,000 updates against one `getAll`; whether it streams
 * - find/         find across 100,000 updates: first result after typing stops
 * - latency/      agent → page at 100 updates/s
 * - size/         bundle sizes, first paint, and the first rows (what draws the first agent message)
 *
 * report.ts prints the table and the targets. Every figure is the median of paired runs (min and max
 * shown); each ratio pairs runs made one after the other. Benchmarks never fail the build: the exit
 * code is 0 whether targets are met or not (non-zero only when the harness itself breaks).
 *
 *   npm run bench                      full run (5 pairs; the 1,000,000-update journal included)
 *   npm run bench -- --quick           a much smaller run (smoke check)
 *   npm run bench -- --runs 7          more runs per figure
 *   npm run bench -- --only throughput,latency   some sections (see bench/options.ts)
 *   npm run bench -- --out file.json   where to write the JSON (default .bench/latest.json for a full
 *                                      run; -quick / -partial suffixes for smaller runs)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { chromiumArgs, ensureBrowsers } from '../scripts/browsers.mjs';
import { ROOT, startBridgeProcess } from '../test/support/bridge-process.mjs';
import { buildBench, composition } from './build.ts';
import { cpuSampler } from './cpu.ts';
import { exportJsonl } from './export/run.ts';
import { find } from './find/run.ts';
import { type Bench, type Bridge, call } from './harness.ts';
import { latency } from './latency/run.ts';
import { machine } from './machine.ts';
import { mainThread } from './main-thread/run.ts';
import { parseArgs } from './options.ts';
import { type Journal, judgeDisk, writeJournal } from './reopen/journal.ts';
import { reopen } from './reopen/run.ts';
import { report } from './report.ts';
import { elapsed, figures, log, notes, runSeconds, targets } from './results.ts';
import { scale } from './scale/run.ts';
import { serveStatic } from './serve.ts';
import { size } from './size/run.ts';
import { streaming } from './streaming/run.ts';
import { throughput } from './throughput/run.ts';

const { quick, config, out, only } = parseArgs(process.argv.slice(2), ROOT);

/** The journal-reading benchmarks, on journals written once for all of them. */
async function journals(bench: Bench): Promise<void> {
  const needBase = ['reopen', 'scale', 'export', 'find'].some((s) => only.includes(s as never));
  if (!needBase) return;
  const written: Journal[] = [];
  try {
    if (only.includes('reopen')) {
      // Bytes on disk of text that does not compress (target 4); not read back.
      const noisy = await writeJournal(bench, Math.round(config.reopenUpdates / 5), true);
      written.push(noisy);
      await call(bench.page, 'deleteDatabase', noisy.databaseName);
    }
    const base = await writeJournal(bench, config.reopenUpdates);
    written.push(base);
    if (only.includes('reopen')) await reopen(bench, base);
    if (only.includes('export')) await exportJsonl(bench, base);
    if (only.includes('find')) await find(bench, base);
    if (only.includes('scale')) {
      const big = await writeJournal(bench, config.scaleUpdates);
      written.push(big);
      await scale(bench, base, big);
    }
  } finally {
    for (const j of written) await call(bench.page, 'deleteDatabase', j.databaseName);
    judgeDisk(written);
  }
}

async function main(): Promise<void> {
  log(`${quick ? 'quick' : 'full'} run, ${config.runs} run(s) per figure; sections: ${only.join(', ')}`);
  const info = machine(ROOT, '');
  const buildDir = join(ROOT, '.bench/build');
  const sizes = await buildBench(ROOT, buildDir);
  log(`built the library bundles and the benchmark page (${elapsed()})`);
  const server = await serveStatic(buildDir);
  let reference: Bridge | undefined;
  let fast: Bridge | undefined;
  let browser: Browser | undefined;
  try {
    reference = await startBridgeProcess({ allowOrigin: [server.origin] });
    // The same bridge in front of the fast agent (agent/bench/fast-agent.ts): the true ceiling's source.
    fast = await startBridgeProcess({
      allowOrigin: [server.origin],
      agentCommand: [process.execPath, '--import', 'tsx', join(ROOT, 'agent/bench/fast-agent.ts')],
    });
    const { chromium } = ensureBrowsers(['chromium']);
    browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      args: chromiumArgs,
      // Network and issue monitoring make Chromium report every WebSocket frame to the tool, and
      // attaching to workers does the same there: off, or the benchmark measures its instrumentation.
      networkEnabled: false,
      issuesEnabled: false,
      targetFilter: (target) => !['worker', 'shared_worker', 'service_worker'].includes(target.type()),
      protocolTimeout: 600_000,
      defaultViewport: { width: 1024, height: 768 },
    });
    info.versions.browser = await browser.version();
    const page = await browser.newPage();
    const cpu = cpuSampler(browser.process()?.pid);
    await page.exposeFunction('siloBenchCpu', (phase: 'start' | 'end') => cpu.mark(phase));
    page.on('pageerror', (e) => log(`page error: ${e instanceof Error ? e.message : String(e)}`));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warn') log(`page ${m.type()}: ${m.text()}`);
    });
    await page.goto(`${server.origin}/index.html`);
    await page.waitForFunction(() => 'siloBench' in window, { timeout: 30_000 });
    const bench: Bench = {
      page,
      browser,
      config,
      quick,
      bridges: { reference, fast },
      cpu,
      origin: server.origin,
      buildDir,
      sizes,
    };

    if (only.includes('throughput')) await throughput(bench);
    if (only.includes('main-thread')) await mainThread(bench);
    if (only.includes('streaming')) await streaming(bench);
    await journals(bench);
    if (only.includes('latency')) await latency(bench);
    if (only.includes('size')) await size(bench, await composition(ROOT));
  } finally {
    await browser?.close().catch(() => {});
    await reference?.stop();
    await fast?.stop();
    await server.close();
  }

  const result = {
    schema: 2,
    date: new Date().toISOString(),
    quick,
    config,
    ...info,
    machine: { ...info.machine, loadAverageAtEnd: os.loadavg() },
    durationSeconds: runSeconds(),
    figures,
    targets,
    notes,
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  const load = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' ');
  process.stdout.write(
    `\nSilo benchmark — ${info.machine.cores} × ${info.machine.cpu}, ${info.versions.browser}, Node ${process.version}` +
      ` (load average ${load(info.machine.loadAverageAtStart)} at the start, ${load(os.loadavg())} at the end), ${result.durationSeconds} s, commit ${info.versions.commit}\n\n${report(config)}\nJSON: ${out}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
