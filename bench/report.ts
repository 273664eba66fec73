/**
 * The printed report: a table of every figure by section (median, min – max), what the page and
 * components bundles hold, the targets (met or missed, by how much, and what bounds a miss), notes.
 */
import type { BundleSize, Composition } from './build.ts';
import type { Config } from './options.ts';
import { figures, notes, targets } from './results.ts';
import { type HeapComposition, heapParts } from './scale/heap-profile.ts';
import { type Figure, formatNumber } from './stats.ts';

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

const MB = 2 ** 20;
type Nested = Record<string, Figure & Record<string, Figure & Record<string, Figure>>>;

function throughputRows(config: Config): string[][] {
  const t = figures.throughput as Nested | undefined;
  if (!t) return [];
  return [
    [`1. Streaming throughput (flood of ${formatNumber(config.flood)} agent_message_chunk)`, '', '', ''],
    row('  true ceiling: fast agent → bare worker, JSON.parse only', t.ceiling),
    row('  Silo: fast agent → worker, journal on', t.silo),
    row('  SDK client() in the page, no journal (fast agent)', t.sdk),
    row('  Silo / true ceiling', t.siloOverCeiling, 2),
    row('  Silo / SDK client in the page', t.siloOverSdk, 2),
    row('  worker CPU per update: Silo', t.workerCpuPerUpdate!.silo, 1),
    row('  worker CPU per update: bare worker (ceiling)', t.workerCpuPerUpdate!.ceiling, 1),
    row('  worker CPU per update: Silo / bare worker', t.workerCpuPerUpdate!.siloOverCeiling, 2),
    row('  page main-thread CPU per update: Silo', t.mainThreadCpuPerUpdate!.silo, 1),
    row('  page main-thread CPU per update: SDK client in the page', t.mainThreadCpuPerUpdate!.sdk, 1),
    row('  extra: bare worker, reference agent (agent-paced raw)', t.paced),
    row(`  extra: SDK in page, 1 transaction/update (${formatNumber(config.naiveFlood)})`, t.naive),
    row('  extra: Silo / agent-paced raw', t.siloOverPaced, 2),
    row('  extra: Silo / naive', t.siloOverNaive, 1),
  ];
}

function streamRows(config: Config): string[][] {
  const out: string[][] = [];
  const m = figures.mainThread as Record<string, Figure> | undefined;
  if (m) {
    out.push(
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
    out.push(
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
  return out;
}

function journalRows(config: Config): string[][] {
  const out: string[][] = [];
  const r = figures.reopen as Record<string, Figure> | undefined;
  if (r) {
    out.push(
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
      row('  page JS heap before opening', r.jsHeapBeforeOpen, 1, MB),
      row('  page JS heap with the last screen painted', r.jsHeapAfterRender, 1, MB),
    );
  }
  const s = figures.scale as Nested | undefined;
  if (s) {
    const l = s.lastScreen as unknown as Record<string, Record<string, Figure>>;
    const h = s.heap as unknown as Record<string, Record<string, Figure>>;
    const u = s.updates as unknown as { base: number; big: number };
    const [a, b] = [formatNumber(u.base), formatNumber(u.big)];
    out.push(
      [`3b. Scale: ${b} updates against ${a}`, '', '', ''],
      row(`  last screen, offline: ${a}`, l.base!.offline),
      row(`  last screen, offline: ${b}`, l.big!.offline),
      row(`  last screen, live after a reload: ${a}`, l.base!.live),
      row(`  last screen, live after a reload: ${b}`, l.big!.live),
      row(`  ${b} / ${a}, offline`, l.bigOverBase!.offline, 2),
      row(`  ${b} / ${a}, live`, l.bigOverBase!.live, 2),
      row(`  JS heap page + worker, ${a} open`, h.base!.total, 1, MB),
      row(`  JS heap page + worker, ${b} open`, h.big!.total, 1, MB),
      row(`  of which the page, ${b}`, h.big!.page, 1, MB),
      row(`  of which the worker, ${b}`, h.big!.workers, 1, MB),
    );
    const c = (s.heap as unknown as { baseComposition?: HeapComposition }).baseComposition;
    if (c)
      out.push(
        [`  page heap with ${a} open, by kind (heap snapshot)`, formatNumber(c.total / MB, 1), '', 'MB'],
        ...heapParts(c).map(([what, bytes]) => [`    ${what}`, formatNumber(bytes / MB, 1), '', 'MB']),
      );
  }
  const j = figures.journalSize as { journals: (Record<string, number> & { noisy: boolean })[] } | undefined;
  for (const x of j?.journals ?? []) {
    const n = `${formatNumber(x.updates!)}${x.noisy ? ' (random words)' : ''}`;
    out.push(
      [`  journal of ${n}: wire bytes per update`, formatNumber(x.wireBytesPerUpdate!), '', 'B'],
      [
        `  journal of ${n}: disk bytes per update (storage.estimate)`,
        formatNumber(x.diskBytesPerUpdate!),
        '',
        'B',
      ],
      [`  journal of ${n}: written in`, formatNumber(x.writeMs!), '', 'ms'],
    );
  }
  const e = figures.export as Record<string, Figure> | undefined;
  if (e) {
    out.push(
      [`6. Export ${formatNumber(config.reopenUpdates)} updates as JSONL`, '', '', ''],
      row('  service.exportJsonlStream, into a Blob in the page', e.export),
      row('  one getAll of the journal in the page (baseline)', e.getAll),
      row('  export / getAll', e.exportOverGetAll, 2),
    );
  }
  const f = figures.find as Record<string, Record<string, Figure>> | undefined;
  if (f) {
    out.push([
      `7. Find across ${formatNumber(config.reopenUpdates)} updates, after typing stops`,
      '',
      '',
      '',
    ]);
    for (const q of ['common', 'rare'] as const) {
      const query = (f.queries as unknown as Record<string, string>)[q];
      out.push(
        row(`  "${query}": first result`, f.firstResult![q]),
        row(`  "${query}": match painted`, f.firstResultPainted![q]),
        row(`  "${query}": search done`, f.searchDone![q]),
      );
    }
  }
  return out;
}

function latencyRows(config: Config): string[][] {
  const l = figures.latency as Record<string, Figure> | undefined;
  if (!l) return [];
  return [
    [`4. Latency agent → page at ${config.latencyRate} updates/s`, '', '', ''],
    row('  Silo p50', l.siloP50),
    row('  Silo p95', l.siloP95),
    row('  raw limit p50 (bare worker → page)', l.rawP50),
    row('  raw limit p95', l.rawP95),
    row('  Silo p95 / raw limit p95 (same run; load delays both)', l.siloOverRawP95, 2),
  ];
}

interface SizeFigures {
  bundles: BundleSize[];
  pageAndComponentsFirstPaintGzip: number;
  pageAndComponentsTotalGzip: number;
  firstRows: { gzip: number };
  transcriptAlone: { firstPaintGzip: number; firstRows: { gzip: number } };
  composition: Composition[];
}

function sizeRows(): string[][] {
  const s = figures.size as SizeFigures | undefined;
  if (!s) return [];
  const kb = (n: number) => `${formatNumber(n / 1024, 1)} KB`;
  return [
    ['5. Size (minified)', 'gzip', 'brotli', 'raw'],
    ...s.bundles.map((b) => [`  ${b.label}`, kb(b.gzip), kb(b.brotli), kb(b.raw)]),
    [
      '  page + components: first paint (entries + static imports)',
      kb(s.pageAndComponentsFirstPaintGzip),
      '',
      '',
    ],
    ['  first rows: + chunks to draw the first agent message (Markdown)', kb(s.firstRows.gzip), '', ''],
    [
      '  page + transcript entry (<silo-transcript> alone): first paint',
      kb(s.transcriptAlone.firstPaintGzip),
      '',
      '',
    ],
    ['  … its first rows', kb(s.transcriptAlone.firstRows.gzip), '', ''],
    ['  page + components: total (with lazy chunks)', kb(s.pageAndComponentsTotalGzip), '', ''],
  ];
}

export function report(config: Config): string {
  const rows: string[][] = [
    ['figure', 'median', 'min – max', 'unit'],
    ...throughputRows(config),
    ...streamRows(config),
    ...journalRows(config),
    ...latencyRows(config),
    ...sizeRows(),
  ];
  const tRows = [
    ['#32', 'target', 'goal', 'measured: median (min – max)', 'met', 'missed by'],
    ...targets.map((x) => [
      x.id ? String(x.id) : '',
      x.name,
      x.target,
      x.value,
      x.met === null ? '–' : x.met ? 'yes' : 'NO',
      x.by ?? '',
    ]),
  ];
  const missed = targets.filter((x) => x.met === false && x.why);
  const parts = ((figures.size as SizeFigures | undefined)?.composition ?? []).map(
    (c) =>
      `${c.name}, ${formatNumber(c.bytes / 1024, 1)} KB minified: ${c.groups
        .slice(0, 12)
        .map((g) => `${g.source} ${formatNumber(g.bytes / 1024, 1)}`)
        .join(', ')} KB`,
  );
  const list = (title: string, items: string[]) =>
    items.length ? `\n\n${title}\n${items.map((p) => `- ${p}`).join('\n')}` : '';
  return `${table(rows)}${list('What the page and components bundles hold (largest parts)', parts)}\n\nTargets (#32's seven numbered)\n${table(tRows)}${list(
    'What bounds each missed target',
    missed.map((x) => `${x.id ? `#${x.id} ` : ''}${x.name}: ${x.why}`),
  )}${list('Notes', notes)}\n`;
}
