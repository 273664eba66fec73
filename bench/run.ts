/**
 * `npm run bench` — Silo against the limits of the platform and against the straightforward client,
 * in one run, on this machine. Builds the library bundles and a benchmark page, serves them on
 * loopback, starts the real bridge with the reference agent, drives Debian's Chromium (headless,
 * puppeteer with network/issue monitoring off and no attachment to workers), and measures:
 *
 * 1. streaming throughput (Silo vs the raw limit vs the naive client),
 * 2. the main thread while `<silo-transcript>` renders a paced stream,
 * 3. reopening a 100,000-update journal (last screen painted vs one raw `getAll`),
 * 4. agent→page latency at 100 updates/s,
 * 5. bundle sizes (gzip, brotli).
 *
 * Every timing is the median of several runs (min and max shown) and headline figures are ratios
 * against a baseline measured in the same run. Benchmarks never fail the build: the exit code is 0
 * whether targets are met or not (non-zero only when the harness itself breaks).
 *
 *   npm run bench                      full run (under 5 minutes on a 2-core machine)
 *   npm run bench -- --quick           a much smaller run (smoke check)
 *   npm run bench -- --runs 5          more runs per figure
 *   npm run bench -- --only throughput,latency   some sections (throughput, main-thread, reopen, latency, size)
 *   npm run bench -- --out file.json   where to write the JSON (default .bench/latest.json for a full
 *                                      run; -quick / -partial suffixes for smaller runs)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { chromiumArgs, ensureBrowsers } from '../scripts/browsers.mjs';
import { ROOT, startBridgeProcess } from '../test/support/bridge-process.mjs';
import { type BundleSize, buildBench } from './build.ts';
import type { SiloBench } from './page/main.ts';
import { serveStatic } from './serve.ts';
import { type Figure, figure, formatNumber, pairedRatios, quantile } from './stats.ts';

// ── Options ───────────────────────────────────────────────────────────────────────────────────────

const SECTIONS = ['throughput', 'main-thread', 'reopen', 'latency', 'size'] as const;
type Section = (typeof SECTIONS)[number];

interface Config {
  runs: number;
  /** Chunks per flood for Silo and the raw limit. */
  flood: number;
  /** Chunks per flood for the naive client (one transaction per update is slow; rates are compared). */
  naiveFlood: number;
  streamRate: number;
  streamCount: number;
  chunksPerMessage: number;
  reopenUpdates: number;
  latencyRate: number;
  latencyCount: number;
}

const FULL: Config = {
  runs: 3,
  flood: 100_000,
  naiveFlood: 5000,
  streamRate: 5000,
  streamCount: 50_000,
  chunksPerMessage: 400,
  reopenUpdates: 100_000,
  latencyRate: 100,
  latencyCount: 500,
};

const QUICK: Config = {
  runs: 2,
  flood: 20_000,
  naiveFlood: 1000,
  streamRate: 5000,
  streamCount: 10_000,
  chunksPerMessage: 400,
  reopenUpdates: 10_000,
  latencyRate: 100,
  latencyCount: 200,
};

function parseArgs(argv: string[]) {
  let quick = false;
  let runs: number | undefined;
  let out: string | undefined;
  let only: Section[] = [...SECTIONS];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--quick') quick = true;
    else if (a === '--runs') runs = Math.max(1, Number(argv[++i]));
    else if (a === '--out') out = resolve(argv[++i] ?? '.bench/latest.json');
    else if (a === '--only') {
      only = (argv[++i] ?? '')
        .split(',')
        .filter((s): s is Section => (SECTIONS as readonly string[]).includes(s));
    } else if (a === '--help' || a === '-h') {
      console.log(
        'npm run bench [-- --quick] [--runs N] [--only throughput,main-thread,reopen,latency,size] [--out file.json]',
      );
      process.exit(0);
    } else throw new Error(`unknown option ${a} (try --help)`);
  }
  const config = { ...(quick ? QUICK : FULL), ...(runs ? { runs } : {}) };
  // A full run of every section is "the latest figures"; smaller runs never overwrite them.
  const partial = only.length < SECTIONS.length;
  out ??= join(ROOT, `.bench/latest${quick ? '-quick' : ''}${partial ? '-partial' : ''}.json`);
  return { quick, config, out, only };
}

const { quick, config, out, only } = parseArgs(process.argv.slice(2));
const log = (s: string) => process.stderr.write(`[bench] ${s}\n`);
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

// ── Results ───────────────────────────────────────────────────────────────────────────────────────

interface Target {
  section: Section;
  name: string;
  target: string;
  value: string;
  met: boolean | null;
}

const figures: Record<string, Record<string, unknown>> = {};
const targets: Target[] = [];
const notes: string[] = [];

// ── Harness ───────────────────────────────────────────────────────────────────────────────────────

type Bridge = Awaited<ReturnType<typeof startBridgeProcess>>;

/** Calls `window.siloBench[name](...args)` in the page. */
function call<K extends keyof SiloBench>(
  page: Page,
  name: K,
  ...args: SiloBench[K] extends (...a: infer A) => unknown ? A : never
): Promise<SiloBench[K] extends (...a: never[]) => infer R ? Awaited<R> : never> {
  return page.evaluate(
    (n, a) => (window.siloBench[n as keyof SiloBench] as (...x: unknown[]) => unknown)(...a),
    name,
    args as unknown[],
  ) as never;
}

async function heapUsed(page: Page): Promise<number> {
  const cdp = await page.createCDPSession();
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    return usedSize;
  } finally {
    await cdp.detach();
  }
}

// ── 1. Streaming throughput ───────────────────────────────────────────────────────────────────────

async function throughput(page: Page, bridge: Bridge) {
  const b = { url: bridge.url, token: bridge.token };
  const silo: number[] = [];
  const raw: number[] = [];
  const naive: number[] = [];
  let complete = true;
  let journaled: number | undefined;
  let receivedAll = true;
  for (let i = 0; i < config.runs; i++) {
    const last = i === config.runs - 1;
    const r = await call(page, 'rawFlood', b, config.flood);
    raw.push((r.received / r.ms) * 1000);
    receivedAll &&= r.received === config.flood;
    const s = await call(page, 'siloFlood', b, config.flood, last);
    silo.push((s.received / s.ms) * 1000);
    receivedAll &&= s.received === config.flood;
    if (last) {
      journaled = s.journaled;
      complete = s.journalComplete === true;
    }
    const n = await call(page, 'naiveFlood', b, config.naiveFlood);
    naive.push((n.received / n.ms) * 1000);
    receivedAll &&= n.received === config.naiveFlood;
    log(
      `throughput run ${i + 1}/${config.runs}: raw ${formatNumber(raw.at(-1)!)}/s, silo ${formatNumber(silo.at(-1)!)}/s, naive ${formatNumber(naive.at(-1)!)}/s (${elapsed()})`,
    );
  }
  const overRaw = figure(pairedRatios(silo, raw), '×');
  const overNaive = figure(pairedRatios(silo, naive), '×');
  figures.throughput = {
    chunks: { silo: config.flood, raw: config.flood, naive: config.naiveFlood },
    silo: figure(silo, 'updates/s'),
    raw: figure(raw, 'updates/s'),
    naive: figure(naive, 'updates/s'),
    siloOverRaw: overRaw,
    siloOverNaive: overNaive,
    everyUpdateReceived: receivedAll,
    journal: { journaledChunks: journaled, complete },
  };
  targets.push(
    {
      section: 'throughput',
      name: 'Silo / raw limit',
      target: '≥ 0.5×',
      value: `${formatNumber(overRaw.median, 2)}×`,
      met: overRaw.median >= 0.5,
    },
    {
      section: 'throughput',
      name: 'Silo / naive client',
      target: '≥ 5×',
      value: `${formatNumber(overNaive.median, 1)}×`,
      met: overNaive.median >= 5,
    },
    {
      section: 'throughput',
      name: 'journal holds every update, in order',
      target: 'yes',
      value: complete
        ? `yes (${formatNumber(journaled ?? 0)} chunks)`
        : `NO (${formatNumber(journaled ?? 0)} chunks)`,
      met: complete,
    },
  );
}

// ── 2. Main thread while streaming ────────────────────────────────────────────────────────────────

async function mainThread(page: Page) {
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
  targets.push({
    section: 'main-thread',
    name: `long tasks > 50 ms at ${formatNumber(config.streamRate)} updates/s`,
    target: '0',
    value: `${formatNumber(longTasks.median)} (longest ${formatNumber(longestTask.median)} ms)`,
    met: longTasks.median === 0,
  });
}

// ── 3. Reopening a big transcript ─────────────────────────────────────────────────────────────────

async function reopen(page: Page) {
  const marker = `silo-bench-last-row-${Date.now()}`;
  log(`writing a journal of ${formatNumber(config.reopenUpdates)} mixed updates…`);
  const gen = await call(page, 'generateJournal', config.reopenUpdates, marker);
  log(
    `journal written in ${formatNumber(gen.ms)} ms (~${formatNumber(gen.approxBytes / 2 ** 20)} MB as JSON) (${elapsed()})`,
  );
  const raw: number[] = [];
  const silo: number[] = [];
  const first: number[] = [];
  const dom: number[] = [];
  const heap: number[] = [];
  const heapBefore: number[] = [];
  let neededScroll = false;
  let rows = 0;
  try {
    for (let i = 0; i < config.runs; i++) {
      const r = await call(page, 'rawRead', gen.databaseName, gen.sessionId);
      if (r.updates !== gen.updates)
        throw new Error(`raw read found ${r.updates} updates, expected ${gen.updates}`);
      raw.push(r.ms);
      heapBefore.push(await heapUsed(page));
      const s = await call(page, 'reopen', gen.databaseName, gen.sessionId, marker, quick ? 20_000 : 120_000);
      heap.push(await heapUsed(page));
      await call(page, 'reopenCleanup');
      silo.push(s.ms);
      first.push(s.firstRowsMs ?? Number.NaN);
      dom.push(s.dom);
      neededScroll ||= s.scrollCalls > 0;
      rows = s.rows;
      log(
        `reopen run ${i + 1}/${config.runs}: last screen ${formatNumber(s.ms)} ms vs raw getAll ${formatNumber(r.ms)} ms, ${s.dom} DOM elements${s.scrollCalls ? ` (scrollToLatest() called ${s.scrollCalls}×)` : ''} (${elapsed()})`,
      );
    }
  } finally {
    await call(page, 'deleteDatabase', gen.databaseName);
  }
  const ratio = figure(pairedRatios(silo, raw), '×');
  const domFigure = figure(dom, 'elements');
  figures.reopen = {
    updates: gen.updates,
    approxJsonBytes: Math.round(gen.approxBytes),
    rows,
    generateMs: gen.ms,
    lastScreenPainted: figure(silo, 'ms'),
    firstRowsPainted: figure(first, 'ms'),
    rawGetAll: figure(raw, 'ms'),
    lastScreenOverRawGetAll: ratio,
    domElements: domFigure,
    jsHeapAfterRender: figure(heap, 'bytes'),
    jsHeapBeforeOpen: figure(heapBefore, 'bytes'),
    openedAtTheEnd: !neededScroll,
  };
  if (neededScroll) {
    notes.push(
      '<silo-transcript> opens a journaled session (service + session-id) by painting its tail (transcriptTail) at the bottom, then folds the whole journal; the benchmark also calls scrollToLatest() on every frame until the last row is in view (a no-op once the element is there).',
    );
  }
  targets.push(
    {
      section: 'reopen',
      name: `last screen of ${formatNumber(gen.updates)} updates / raw getAll`,
      target: '< 0.5×',
      value: `${formatNumber(ratio.median, 2)}×`,
      met: ratio.median < 0.5,
    },
    {
      section: 'reopen',
      name: 'DOM elements after reopening',
      target: '< 2,000',
      value: formatNumber(domFigure.max),
      met: domFigure.max < 2000,
    },
  );
}

// ── 4. Latency ────────────────────────────────────────────────────────────────────────────────────

async function latency(page: Page, bridge: Bridge) {
  const b = { url: bridge.url, token: bridge.token };
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
  targets.push({
    section: 'latency',
    name: `p95 latency at ${config.latencyRate} updates/s`,
    target: '< 16 ms',
    value: `${formatNumber(p95.median)} ms`,
    met: p95.median < 16,
  });
}

// ── 5. Size ───────────────────────────────────────────────────────────────────────────────────────

function size(sizes: BundleSize[]) {
  const by = (n: string) => sizes.find((s) => s.name === n)!;
  const pageAndComponents = by('silo').gzip + by('components').gzip;
  const worker = by('worker').gzip;
  figures.size = {
    bundles: sizes,
    pageAndComponentsGzip: pageAndComponents,
    workerGzip: worker,
    pageAndComponentsOverTarget: pageAndComponents / (35 * 1024),
    workerOverTarget: worker / (60 * 1024),
  };
  targets.push(
    {
      section: 'size',
      name: 'page + components, gzip',
      target: '< 35 KB',
      value: `${formatNumber(pageAndComponents / 1024, 1)} KB`,
      met: pageAndComponents < 35 * 1024,
    },
    {
      section: 'size',
      name: 'worker, gzip',
      target: '< 60 KB',
      value: `${formatNumber(worker / 1024, 1)} KB`,
      met: worker < 60 * 1024,
    },
  );
}

// ── Report ────────────────────────────────────────────────────────────────────────────────────────

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows
    .map((r, i) => {
      const line = r
        .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
        .join('  ');
      return i === 0 ? `${line}\n${widths.map((w) => '─'.repeat(w)).join('  ')}` : line;
    })
    .join('\n');
}

function row(name: string, f: Figure | undefined, digits = 0, scale = 1): string[] {
  if (!f) return [name, '–', '–', ''];
  const n = (x: number) => formatNumber(x / scale, digits);
  return [
    name,
    n(f.median),
    `${n(f.min)} – ${n(f.max)}`,
    scale === 1 ? f.unit : f.unit === 'bytes' ? 'MB' : f.unit,
  ];
}

function report(): string {
  const rows: string[][] = [['figure', 'median', 'min – max', 'unit']];
  const t = figures.throughput as Record<string, Figure> | undefined;
  if (t) {
    rows.push(
      ['1. Streaming throughput (flood of agent_message_chunk)', '', '', ''],
      row(`  Silo (journal on, ${formatNumber(config.flood)} chunks)`, t.silo),
      row(`  raw limit: bare worker, JSON.parse only (${formatNumber(config.flood)})`, t.raw),
      row(`  naive: SDK in page, 1 transaction/update (${formatNumber(config.naiveFlood)})`, t.naive),
      row('  Silo / raw', t.siloOverRaw, 2),
      row('  Silo / naive', t.siloOverNaive, 1),
    );
  }
  const m = figures.mainThread as Record<string, Figure> | undefined;
  if (m) {
    rows.push(
      [
        `2. Main thread, ${formatNumber(config.streamRate)} updates/s for ${formatNumber(config.streamCount / config.streamRate)} s`,
        '',
        '',
        '',
      ],
      row('  <silo-transcript>: long tasks > 50 ms', m.longTasks),
      row('  <silo-transcript>: longest task', m.longestTask),
      row('  <silo-transcript>: blocking time (Σ over 50 ms)', m.blockingTime),
      row('  <silo-transcript>: frame interval p95', m.frameP95, 1),
      row('  bare <div> (baseline): long tasks', m.bareLongTasks),
      row('  bare <div> (baseline): longest task', m.bareLongestTask),
      row('  bare <div> (baseline): frame interval p95', m.bareFrameP95, 1),
      row('  frame p95 Silo / bare', m.frameP95OverBare, 2),
    );
  }
  const r = figures.reopen as Record<string, Figure> | undefined;
  if (r) {
    rows.push(
      [`3. Reopen a ${formatNumber(config.reopenUpdates)}-update transcript`, '', '', ''],
      row('  first rows painted', r.firstRowsPainted),
      row('  last screen painted', r.lastScreenPainted),
      row('  raw getAll of the journal (baseline)', r.rawGetAll),
      row('  last screen / raw getAll', r.lastScreenOverRawGetAll, 2),
      row('  DOM elements', r.domElements),
      row('  JS heap before opening', r.jsHeapBeforeOpen, 1, 2 ** 20),
      row('  JS heap after rendering', r.jsHeapAfterRender, 1, 2 ** 20),
    );
  }
  const l = figures.latency as Record<string, Figure> | undefined;
  if (l) {
    rows.push(
      [`4. Latency agent → page at ${config.latencyRate} updates/s`, '', '', ''],
      row('  Silo p50', l.siloP50),
      row('  Silo p95', l.siloP95),
      row('  raw limit p50 (bare worker → page)', l.rawP50),
      row('  raw limit p95', l.rawP95),
    );
  }
  const s = figures.size as { bundles: BundleSize[] } | undefined;
  if (s) {
    rows.push(['5. Size (minified)', 'gzip', 'brotli', 'raw']);
    for (const b of s.bundles) {
      rows.push([
        `  ${b.label}`,
        `${formatNumber(b.gzip / 1024, 1)} KB`,
        `${formatNumber(b.brotli / 1024, 1)} KB`,
        `${formatNumber(b.raw / 1024, 1)} KB`,
      ]);
    }
  }
  const tRows = [
    ['target', 'goal', 'measured', 'met'],
    ...targets.map((x) => [x.name, x.target, x.value, x.met === null ? '–' : x.met ? 'yes' : 'NO']),
  ];
  return `${table(rows)}\n\nTargets\n${table(tRows)}${notes.length ? `\n\nNotes\n${notes.map((n) => `- ${n}`).join('\n')}` : ''}\n`;
}

function machine(browserVersion: string) {
  const cpus = os.cpus();
  let commit: string | undefined;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    commit = undefined;
  }
  const pkg = (p: string) =>
    (JSON.parse(readFileSync(join(ROOT, 'node_modules', p, 'package.json'), 'utf8')) as { version: string })
      .version;
  return {
    machine: {
      cpu: cpus[0]?.model ?? 'unknown',
      cores: cpus.length,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      os: `${os.type()} ${os.release()} ${os.arch()}`,
      loadAverageAtStart: os.loadavg(),
    },
    versions: {
      node: process.version,
      browser: browserVersion,
      puppeteer: pkg('puppeteer-core'),
      sdk: pkg('@agentclientprotocol/sdk'),
      silo: (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
      commit,
    },
  };
}

// ── Main ──────────────────────────────────────────────────────────────────────────────────────────

async function main(): Promise<void> {
  log(`${quick ? 'quick' : 'full'} run, ${config.runs} run(s) per figure; sections: ${only.join(', ')}`);
  const info = machine('');
  const buildDir = join(ROOT, '.bench/build');
  const sizes = await buildBench(ROOT, buildDir);
  log(`built the library bundles and the benchmark page (${elapsed()})`);
  const server = await serveStatic(buildDir);
  let bridge: Bridge | undefined;
  let browser: Browser | undefined;
  try {
    bridge = await startBridgeProcess({ allowOrigin: [server.origin] });
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
    page.on('pageerror', (e) => log(`page error: ${e instanceof Error ? e.message : String(e)}`));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warn') log(`page ${m.type()}: ${m.text()}`);
    });
    await page.goto(`${server.origin}/index.html`);
    await page.waitForFunction(() => 'siloBench' in window, { timeout: 30_000 });

    if (only.includes('throughput')) await throughput(page, bridge);
    if (only.includes('main-thread')) await mainThread(page);
    if (only.includes('reopen')) await reopen(page);
    if (only.includes('latency')) await latency(page, bridge);
    if (only.includes('size')) size(sizes);
  } finally {
    await browser?.close().catch(() => {});
    await bridge?.stop();
    await server.close();
  }

  const result = {
    schema: 1,
    date: new Date().toISOString(),
    quick,
    config,
    ...info,
    machine: { ...info.machine, loadAverageAtEnd: os.loadavg() },
    durationSeconds: Math.round((performance.now() - started) / 1000),
    figures,
    targets,
    notes,
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(
    `\nSilo benchmark — ${info.machine.cores} × ${info.machine.cpu}, ${info.versions.browser}, Node ${process.version}` +
      ` (load average ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}), ${result.durationSeconds} s\n\n${report()}\nJSON: ${out}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
