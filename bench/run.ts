/**
 * `npm run bench` — Silo against the project's targets, in one run, on this machine. Builds the
 * library bundles and a benchmark page, serves them on loopback, starts the real bridge twice (with
 * the reference agent, and with the fast agent of agent/bench/fast-agent.ts), drives Debian's Chromium
 * (headless, puppeteer with network/issue monitoring off and no attachment to workers), and measures:
 *
 * 1. streaming throughput: Silo against the true ceiling (fast agent → bare worker) and against the
 *    client users would write (the ACP SDK's `client()` in the page, no journal), with worker and
 *    main-thread CPU per update from /proc (bench/cpu.ts); the agent-paced raw limit and the naive
 *    one-transaction-per-update client as extra rows,
 * 2. the main thread while `<silo-transcript>` renders a paced stream, and the main-thread time per
 *    frame at the start and at the end of one 50 KB answer streamed in 4,000 chunks,
 * 3. reopening a 100,000-update journal, offline (`service` + `session-id`) and as a live session
 *    after a reload (`session`): last screen painted vs one raw `getAll`, and the floor (reading
 *    the last journal segment only),
 * 4. agent→page latency at 100 updates/s,
 * 5. bundle sizes (gzip, brotli): first paint (entries and what they import statically) and total.
 *
 * Every figure is the median of paired runs (min and max shown); each ratio pairs runs made one
 * after the other, then takes the median; each headline figure is judged against the project's
 * target (docs/performance.md lists them). Benchmarks never fail the build: the exit code is 0 whether targets are met or not (non-zero only when the harness
 * itself breaks).
 *
 *   npm run bench                      full run (5 pairs; about 10 minutes on a loaded 2-core machine)
 *   npm run bench -- --quick           a much smaller run (smoke check)
 *   npm run bench -- --runs 7          more runs per figure
 *   npm run bench -- --only throughput,latency   some sections (throughput, main-thread, streaming, reopen, latency, size)
 *   npm run bench -- --out file.json   where to write the JSON (default .bench/latest.json for a full
 *                                      run; -quick / -partial suffixes for smaller runs)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { chromiumArgs, ensureBrowsers } from '../scripts/browsers.mjs';
import { ROOT, startBridgeProcess } from '../test/support/bridge-process.mjs';
import { type BundleSize, buildBench, type Composition, composition } from './build.ts';
import { cpuSampler } from './cpu.ts';
import type { SiloBench } from './page/main.ts';
import { serveStatic } from './serve.ts';
import { type Figure, figure, formatNumber, pairedRatios, quantile } from './stats.ts';

// ── Options ───────────────────────────────────────────────────────────────────────────────────────

const SECTIONS = ['throughput', 'main-thread', 'streaming', 'reopen', 'latency', 'size'] as const;
type Section = (typeof SECTIONS)[number];

interface Config {
  runs: number;
  /** Chunks per flood for Silo and its baselines (all but the naive client). */
  flood: number;
  /** Chunks per flood for the naive client (one transaction per update is slow; rates are compared). */
  naiveFlood: number;
  streamRate: number;
  streamCount: number;
  chunksPerMessage: number;
  reopenUpdates: number;
  latencyRate: number;
  latencyCount: number;
  /** One long answer: its size in characters, its chunks, and chunks fed per frame. */
  answerBytes: number;
  answerChunks: number;
  answerChunksPerFrame: number;
}

const FULL: Config = {
  runs: 5,
  flood: 100_000,
  naiveFlood: 5000,
  streamRate: 5000,
  streamCount: 50_000,
  chunksPerMessage: 400,
  reopenUpdates: 100_000,
  latencyRate: 100,
  latencyCount: 500,
  answerBytes: 50_000,
  answerChunks: 4000,
  answerChunksPerFrame: 20,
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
  answerBytes: 50_000,
  answerChunks: 4000,
  answerChunksPerFrame: 20,
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
        'npm run bench [-- --quick] [--runs N] [--only throughput,main-thread,streaming,reopen,latency,size] [--out file.json]',
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
  /** For a missed target: by how much (filled in by {@link judge}). */
  by?: string;
}

const figures: Record<string, Record<string, unknown>> = {};
const targets: Target[] = [];
const notes: string[] = [];

/**
 * Records a target and whether `measured` meets it (`op` `limit`); a miss says by how much, in
 * `unit` and as a multiple of the limit.
 */
function judge(
  section: Section,
  name: string,
  value: string,
  measured: number,
  op: '≥' | '<' | '≤' | '=',
  limit: number,
  unit: string,
  digits = 0,
): void {
  const met =
    op === '≥'
      ? measured >= limit
      : op === '<'
        ? measured < limit
        : op === '≤'
          ? measured <= limit
          : measured === limit;
  const target = `${op === '=' ? '' : `${op} `}${formatNumber(limit, digits)}${unit === '×' ? '×' : unit ? ` ${unit}` : ''}`;
  let by: string | undefined;
  if (!met && Number.isFinite(measured)) {
    const diff = formatNumber(Math.abs(measured - limit), digits);
    const times = limit > 0 ? ` (${formatNumber(measured / limit, 2)}× the limit)` : '';
    by = `${diff}${unit === '×' ? '×' : unit ? ` ${unit}` : ''} ${op === '≥' ? 'short' : 'over'}${times}`;
  } else if (!met) by = 'not measured';
  targets.push({ section, name, target, value, met, ...(by ? { by } : {}) });
}

/** `median (min – max)` of a figure, with a unit suffix. */
function range(f: Figure, digits: number, unit: string): string {
  const n = (x: number) => formatNumber(x, digits);
  return `${n(f.median)}${unit} (${n(f.min)} – ${n(f.max)})`;
}

// ── Harness ───────────────────────────────────────────────────────────────────────────────────────

type Bridge = Awaited<ReturnType<typeof startBridgeProcess>>;
type Cpu = ReturnType<typeof cpuSampler>;
const gzipSize = (b: Uint8Array) => gzipSync(b, { level: 9 }).length;

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

type Flood = 'ceiling' | 'silo' | 'sdk' | 'paced' | 'naive';

/** What each flood measures, for the log and the report. */
const FLOODS: Record<Flood, string> = {
  ceiling: 'true ceiling: fast agent → bare worker (WebSocket + JSON.parse)',
  silo: 'Silo: fast agent → worker, journal on',
  sdk: 'SDK client() in the page, no journal (fast agent)',
  paced: 'extra: bare worker, reference agent (agent-paced raw)',
  naive: 'extra: SDK in the page, 1 transaction/update (fast agent)',
};

async function throughput(page: Page, bridges: { fast: Bridge; reference: Bridge }, cpu: Cpu) {
  const fast = { url: bridges.fast.url, token: bridges.fast.token };
  const reference = { url: bridges.reference.url, token: bridges.reference.token };
  const rate: Record<Flood, number[]> = { ceiling: [], silo: [], sdk: [], paced: [], naive: [] };
  const workerUs: Record<Flood, number[]> = { ceiling: [], silo: [], sdk: [], paced: [], naive: [] };
  const mainUs: Record<Flood, number[]> = { ceiling: [], silo: [], sdk: [], paced: [], naive: [] };
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
      `throughput pair ${i + 1}/${config.runs}: ceiling ${formatNumber(rate.ceiling.at(-1)!)}/s, silo ${formatNumber(rate.silo.at(-1)!)}/s, sdk ${formatNumber(rate.sdk.at(-1)!)}/s; extra: paced raw ${formatNumber(rate.paced.at(-1)!)}/s, naive ${formatNumber(rate.naive.at(-1)!)}/s (${elapsed()})`,
    );
  }
  const overCeiling = figure(pairedRatios(rate.silo, rate.ceiling), '×');
  const overSdk = figure(pairedRatios(rate.silo, rate.sdk), '×');
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
    workerCpuPerUpdate: {
      silo: figure(workerUs.silo, 'µs'),
      ceiling: figure(workerUs.ceiling, 'µs'),
      siloOverCeiling: figure(pairedRatios(workerUs.silo, workerUs.ceiling), '×'),
    },
    mainThreadCpuPerUpdate: {
      silo: figure(mainUs.silo, 'µs'),
      sdk: figure(mainUs.sdk, 'µs'),
      naive: figure(mainUs.naive, 'µs'),
    },
    everyUpdateReceived: receivedAll,
    journal: { journaledChunks: journaled, complete },
  };
  const siloUs = figure(workerUs.silo, 'µs');
  const ceilingUs = figure(workerUs.ceiling, 'µs');
  const perUpdate = `; worker CPU ${formatNumber(siloUs.median, 1)} µs/update (bare worker ${formatNumber(ceilingUs.median, 1)})`;
  judge(
    'throughput',
    'Silo / true ceiling (fast agent, bare worker)',
    `${range(overCeiling, 2, '×')}${perUpdate}`,
    overCeiling.median,
    '≥',
    0.8,
    '×',
    2,
  );
  judge(
    'throughput',
    'Silo / SDK client() in the page, no journal',
    range(overSdk, 2, '×'),
    overSdk.median,
    '≥',
    1,
    '×',
    2,
  );
  judge(
    'throughput',
    'journal holds every update, in order (1 = yes)',
    `${complete ? 'yes' : 'NO'} (${formatNumber(journaled ?? 0)} chunks)`,
    complete && receivedAll ? 1 : 0,
    '=',
    1,
    '',
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
  judge(
    'main-thread',
    `long tasks > 50 ms at ${formatNumber(config.streamRate)} updates/s`,
    `${range(longTasks, 0, '')} (longest ${formatNumber(longestTask.median)} ms; bare <div> ${formatNumber((figures.mainThread.bareLongTasks as Figure).median)})`,
    longTasks.median,
    '=',
    0,
    'tasks',
  );
}

// ── 2b. One long answer streaming ─────────────────────────────────────────────────────────────────

async function streaming(page: Page) {
  const start: number[] = [];
  const end: number[] = [];
  const ratio: number[] = [];
  const whole: number[] = [];
  let frames = 0;
  for (let i = 0; i < config.runs; i++) {
    const r = await call(
      page,
      'streamAnswer',
      config.answerBytes,
      config.answerChunks,
      config.answerChunksPerFrame,
    );
    const tenth = Math.max(1, Math.floor(r.frames.length / 10));
    const a = quantile(r.frames.slice(0, tenth), 0.5);
    const b = quantile(r.frames.slice(-tenth), 0.5);
    start.push(a);
    end.push(b);
    ratio.push(b / a);
    whole.push(r.wholeRenderMs);
    frames = r.frames.length;
    if (r.rendered < r.chars / 2)
      throw new Error(`the answer was not rendered (${r.rendered} of ${r.chars} characters)`);
    const split = (xs: number[]) =>
      `render ${formatNumber(quantile(xs.slice(0, tenth), 0.5), 2)} → ${formatNumber(quantile(xs.slice(-tenth), 0.5), 2)}`;
    log(
      `streaming run ${i + 1}/${config.runs}: per frame ${formatNumber(a, 2)} ms at the start, ${formatNumber(b, 2)} ms at the end (${formatNumber(b / a, 2)}×; ${split(r.renders)} ms, layout ${split(r.layouts).slice(7)} ms); whole-answer Markdown render ${formatNumber(r.wholeRenderMs, 1)} ms (${elapsed()})`,
    );
  }
  const endOverStart = figure(ratio, '×');
  figures.streaming = {
    answerChars: config.answerBytes,
    chunks: config.answerChunks,
    chunksPerFrame: config.answerChunksPerFrame,
    frames,
    frameStart: figure(start, 'ms'),
    frameEnd: figure(end, 'ms'),
    endOverStart,
    wholeAnswerMarkdownRender: figure(whole, 'ms'),
  };
  judge(
    'streaming',
    `main-thread time per frame, end / start of one ${formatNumber(config.answerBytes / 1000)} KB answer`,
    `${range(endOverStart, 2, '×')}: ${formatNumber(figure(start, 'ms').median, 2)} → ${formatNumber(figure(end, 'ms').median, 2)} ms`,
    endOverStart.median,
    '≤',
    1.5,
    '×',
    2,
  );
}

// ── 3. Reopening a big transcript ─────────────────────────────────────────────────────────────────

async function reopen(page: Page, bridge: Bridge) {
  const marker = `silo-bench-last-row-${Date.now()}`;
  log(`writing a journal of ${formatNumber(config.reopenUpdates)} mixed updates…`);
  const gen = await call(page, 'generateJournal', config.reopenUpdates, marker);
  log(
    `journal written in ${formatNumber(gen.ms)} ms (~${formatNumber(gen.approxBytes / 2 ** 20)} MB as JSON) (${elapsed()})`,
  );
  const b = { url: bridge.url, token: bridge.token };
  const timeout = quick ? 20_000 : 120_000;
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
  try {
    for (let i = 0; i < config.runs; i++) {
      const r = await call(page, 'rawRead', gen.databaseName, gen.sessionId);
      if (r.updates !== gen.updates)
        throw new Error(`raw read found ${r.updates} updates, expected ${gen.updates}`);
      raw.push(r.ms);
      tail.push((await call(page, 'rawTailRead', gen.databaseName, gen.sessionId)).ms);
      heapBefore.push(await heapUsed(page));
      const s = await call(page, 'reopen', gen.databaseName, gen.sessionId, marker, timeout);
      heap.push(await heapUsed(page));
      await call(page, 'reopenCleanup');
      const l = await call(page, 'reopenLive', b, gen.databaseName, gen.sessionId, marker, timeout);
      await call(page, 'reopenCleanup');
      offline.push(s.atEnd ? s.ms : Number.NaN);
      live.push(l.atEnd ? l.ms : Number.NaN);
      first.push(s.firstRowsMs ?? Number.NaN);
      liveFirst.push(l.firstRowsMs ?? Number.NaN);
      dom.push(s.dom, l.dom);
      atEnd &&= s.atEnd;
      liveAtEnd &&= l.atEnd;
      outcome = l.resumeOutcome;
      rows = s.rows;
      log(
        `reopen run ${i + 1}/${config.runs}: last screen offline ${formatNumber(s.ms)} ms${s.atEnd ? '' : ' (NOT at the end)'}, live ${formatNumber(l.ms)} ms${l.atEnd ? '' : ' (NOT at the end)'}; raw getAll ${formatNumber(r.ms)} ms, last segment ${formatNumber(tail.at(-1)!, 1)} ms; ${s.dom}/${l.dom} DOM elements (${elapsed()})`,
      );
    }
  } finally {
    await call(page, 'deleteDatabase', gen.databaseName);
  }
  const ratio = figure(pairedRatios(offline, raw), '×');
  const liveRatio = figure(pairedRatios(live, raw), '×');
  const domFigure = figure(dom, 'elements');
  figures.reopen = {
    updates: gen.updates,
    approxJsonBytes: Math.round(gen.approxBytes),
    rows,
    generateMs: gen.ms,
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
  judge(
    'reopen',
    `last screen of ${formatNumber(gen.updates)} updates / raw getAll: offline source`,
    `${range(ratio, 2, '×')}: ${formatNumber(figure(offline, 'ms').median)} ms${floor}`,
    atEnd ? ratio.median : Number.NaN,
    '<',
    0.5,
    '×',
    2,
  );
  judge(
    'reopen',
    `last screen of ${formatNumber(gen.updates)} updates / raw getAll: live session after a reload`,
    `${range(liveRatio, 2, '×')}: ${formatNumber(figure(live, 'ms').median)} ms (${outcome})`,
    liveAtEnd ? liveRatio.median : Number.NaN,
    '<',
    0.5,
    '×',
    2,
  );
  judge('reopen', 'DOM elements after reopening', formatNumber(domFigure.max), domFigure.max, '<', 2000, '');
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
  judge(
    'latency',
    `p95 latency at ${config.latencyRate} updates/s`,
    `${range(p95, 0, ' ms')}; raw limit p95 ${formatNumber((figures.latency.rawP95 as Figure).median)} ms`,
    p95.median,
    '<',
    16,
    'ms',
  );
}

// ── 5. Size ───────────────────────────────────────────────────────────────────────────────────────

/** gzip bytes of the union of `lists` of built files (a file both entries load counts once). */
function unionGzip(buildDir: string, ...lists: string[][]): { files: string[]; gzip: number } {
  const files = [...new Set(lists.flat())];
  return { files, gzip: files.reduce((n, f) => n + gzipSize(readFileSync(join(buildDir, f))), 0) };
}

function size(sizes: BundleSize[], buildDir: string, parts: Composition[]) {
  const by = (n: string) => sizes.find((s) => s.name === n)!;
  const firstPaint = unionGzip(buildDir, by('silo').firstPaint.files, by('components').firstPaint.files);
  const total = unionGzip(buildDir, by('silo').total.files, by('components').total.files);
  const worker = by('worker').total.gzip;
  figures.size = {
    bundles: sizes,
    pageAndComponentsFirstPaintGzip: firstPaint.gzip,
    pageAndComponentsFirstPaintFiles: firstPaint.files,
    pageAndComponentsTotalGzip: total.gzip,
    pageAndComponentsTotalFiles: total.files,
    workerGzip: worker,
    firstPaintOverTarget: firstPaint.gzip / (35 * 1024),
    workerOverTarget: worker / (60 * 1024),
    composition: parts,
  };
  judge(
    'size',
    'first paint: page + components, gzip',
    `${formatNumber(firstPaint.gzip / 1024, 1)} KB (total with lazy chunks ${formatNumber(total.gzip / 1024, 1)} KB)`,
    firstPaint.gzip / 1024,
    '≤',
    35,
    'KB',
    1,
  );
  judge('size', 'worker, gzip', `${formatNumber(worker / 1024, 1)} KB`, worker / 1024, '≤', 60, 'KB', 1);
  if (firstPaint.files.length === total.files.length) {
    notes.push(
      `First paint = total: the page and components entries are single files (${firstPaint.files.join(', ')}), so everything they hold loads before <silo-chat> can paint.`,
    );
  }
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
  const t = figures.throughput as
    | (Record<string, Figure> & {
        workerCpuPerUpdate: Record<string, Figure>;
        mainThreadCpuPerUpdate: Record<string, Figure>;
      })
    | undefined;
  if (t) {
    const n = formatNumber(config.flood);
    rows.push(
      [`1. Streaming throughput (flood of ${n} agent_message_chunk)`, '', '', ''],
      row('  true ceiling: fast agent → bare worker, JSON.parse only', t.ceiling),
      row('  Silo: fast agent → worker, journal on', t.silo),
      row('  SDK client() in the page, no journal (fast agent)', t.sdk),
      row('  Silo / true ceiling', t.siloOverCeiling, 2),
      row('  Silo / SDK client in the page', t.siloOverSdk, 2),
      row('  worker CPU per update: Silo', t.workerCpuPerUpdate.silo, 1),
      row('  worker CPU per update: bare worker (ceiling)', t.workerCpuPerUpdate.ceiling, 1),
      row('  page main-thread CPU per update: Silo', t.mainThreadCpuPerUpdate.silo, 1),
      row('  page main-thread CPU per update: SDK client in the page', t.mainThreadCpuPerUpdate.sdk, 1),
      row('  extra: bare worker, reference agent (agent-paced raw)', t.paced),
      row(`  extra: SDK in page, 1 transaction/update (${formatNumber(config.naiveFlood)})`, t.naive),
      row('  extra: Silo / agent-paced raw', t.siloOverPaced, 2),
      row('  extra: Silo / naive', t.siloOverNaive, 1),
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
  const st = figures.streaming as Record<string, Figure> | undefined;
  if (st) {
    rows.push(
      [
        `2b. One ${formatNumber(config.answerBytes / 1000)} KB answer in ${formatNumber(config.answerChunks)} chunks, ${config.answerChunksPerFrame} a frame`,
        '',
        '',
        '',
      ],
      row('  main-thread time per frame, first tenth of the stream', st.frameStart, 2),
      row('  main-thread time per frame, last tenth of the stream', st.frameEnd, 2),
      row('  end / start', st.endOverStart, 2),
      row(
        '  one whole-answer Markdown render (what each frame cost before)',
        st.wholeAnswerMarkdownRender,
        1,
      ),
    );
  }
  const r = figures.reopen as Record<string, Figure> | undefined;
  if (r) {
    rows.push(
      [`3. Reopen a ${formatNumber(config.reopenUpdates)}-update transcript`, '', '', ''],
      row('  offline source (service + session-id): first rows painted', r.firstRowsPainted),
      row('  offline source: last screen painted', r.lastScreenPainted),
      row('  live session after a reload: first rows painted', r.liveFirstRowsPainted),
      row('  live session after a reload: last screen painted', r.liveLastScreenPainted),
      row('  raw getAll of the journal (baseline)', r.rawGetAll),
      row('  raw read of the last segment only (the floor)', r.rawLastSegment, 1),
      row('  offline last screen / raw getAll', r.lastScreenOverRawGetAll, 2),
      row('  live last screen / raw getAll', r.liveLastScreenOverRawGetAll, 2),
      row('  floor / raw getAll', r.lastSegmentOverRawGetAll, 3),
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
      row('  Silo p95 / raw limit p95 (same run; load delays both)', l.siloOverRawP95, 2),
    );
  }
  const s = figures.size as
    | {
        bundles: BundleSize[];
        pageAndComponentsFirstPaintGzip: number;
        pageAndComponentsTotalGzip: number;
        composition: Composition[];
      }
    | undefined;
  if (s) {
    const kb = (n: number) => `${formatNumber(n / 1024, 1)} KB`;
    rows.push(['5. Size (minified)', 'gzip', 'brotli', 'raw']);
    for (const b of s.bundles) rows.push([`  ${b.label}`, kb(b.gzip), kb(b.brotli), kb(b.raw)]);
    rows.push(
      [
        '  page + components: first paint (entries + static imports)',
        kb(s.pageAndComponentsFirstPaintGzip),
        '',
        '',
      ],
      ['  page + components: total (with lazy chunks)', kb(s.pageAndComponentsTotalGzip), '', ''],
    );
  }
  const tRows = [
    ['target', 'goal', 'measured: median (min – max)', 'met', 'missed by'],
    ...targets.map((x) => [
      x.name,
      x.target,
      x.value,
      x.met === null ? '–' : x.met ? 'yes' : 'NO',
      x.by ?? '',
    ]),
  ];
  const parts = (s?.composition ?? []).map(
    (c) =>
      `${c.name}, ${formatNumber(c.bytes / 1024, 1)} KB minified: ${c.groups
        .slice(0, 12)
        .map((g) => `${g.source} ${formatNumber(g.bytes / 1024, 1)}`)
        .join(', ')} KB`,
  );
  return `${table(rows)}${parts.length ? `\n\nWhat the page and components bundles hold (largest parts)\n${parts.map((p) => `- ${p}`).join('\n')}` : ''}\n\nTargets\n${table(tRows)}${notes.length ? `\n\nNotes\n${notes.map((n) => `- ${n}`).join('\n')}` : ''}\n`;
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
  let fastBridge: Bridge | undefined;
  let browser: Browser | undefined;
  try {
    bridge = await startBridgeProcess({ allowOrigin: [server.origin] });
    // The same bridge in front of the fast agent (agent/bench/fast-agent.ts): the true ceiling's source.
    fastBridge = await startBridgeProcess({
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

    if (only.includes('throughput')) await throughput(page, { fast: fastBridge, reference: bridge }, cpu);
    if (only.includes('main-thread')) await mainThread(page);
    if (only.includes('streaming')) await streaming(page);
    if (only.includes('reopen')) await reopen(page, bridge);
    if (only.includes('latency')) await latency(page, bridge);
    if (only.includes('size')) size(sizes, buildDir, await composition(ROOT));
  } finally {
    await browser?.close().catch(() => {});
    await bridge?.stop();
    await fastBridge?.stop();
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
