/**
 * 5. Size: gzip and brotli of the minified page entry, components entry and worker bundle; the first
 * paint (the page and components entries and what they import statically) and the total (with the
 * chunks they load with `import()`); and target 5 of #32, the first rows: the library files a fresh
 * page fetches until `<silo-transcript>` has drawn its first agent message with Markdown
 * (bench/page/first-rows-draw.ts, resource timing), weighed in gzip — once with the components entry
 * (every element) and once with the transcript entry (`<silo-transcript>` alone).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Composition, HARNESS } from '../build.ts';
import type { Bench } from '../harness.ts';
import { figures, judge, log } from '../results.ts';
import { formatNumber } from '../stats.ts';

const gzipSize = (b: Uint8Array) => gzipSync(b, { level: 9 }).length;

/** gzip bytes of the union of `lists` of built files (a file both entries load counts once). */
function unionGzip(buildDir: string, ...lists: string[][]): { files: string[]; gzip: number } {
  const files = [...new Set(lists.flat())];
  return { files, gzip: files.reduce((n, f) => n + gzipSize(readFileSync(join(buildDir, f))), 0) };
}

/** The elements entries whose first rows are weighed: every element, and `<silo-transcript>` alone. */
const ELEMENTS = [
  { entry: 'components', page: '', label: 'silo-acp/components, every element' },
  {
    entry: 'transcript',
    page: '?entry=transcript',
    label: 'silo-acp/components/transcript, <silo-transcript> alone',
  },
] as const;

/** The library files a fresh page with `entry` loads to draw the first agent message with Markdown. */
async function firstRows({ browser, origin, buildDir }: Bench, query: string) {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/first-rows.html${query}`);
    await page.waitForFunction(() => window.firstRows !== undefined, { timeout: 60_000 });
    const r = await page.evaluate(() => window.firstRows!);
    if ('error' in r) throw new Error(`first rows: ${r.error}`);
    const files = r.files.filter((f) => !HARNESS.has(f));
    const each = files.map((f) => ({ file: f, gzip: gzipSize(readFileSync(join(buildDir, f))) }));
    return { files: each, gzip: each.reduce((n, f) => n + f.gzip, 0), ms: r.ms };
  } finally {
    await page.close();
  }
}

/** The built bundle `name` of the bench's library build. */
const bundle = (bench: Bench, name: string) => bench.sizes.find((s) => s.name === name)!;

/** The first paint (page entry + `entry`) and the first rows of a page that imports `entry`. */
async function entryFigures(bench: Bench, { entry, page, label }: (typeof ELEMENTS)[number]) {
  const firstPaint = unionGzip(
    bench.buildDir,
    bundle(bench, 'silo').firstPaint.files,
    bundle(bench, entry).firstPaint.files,
  );
  const rows = await firstRows(bench, page);
  const lazy = rows.files.filter((f) => !firstPaint.files.includes(f.file));
  const highlighter = rows.files.some((f) => /highlight/i.test(f.file));
  // <silo-elicitation> loads at idle, after a transcript's first rows (components/shared/first-rows.ts).
  const elicitation = rows.files.filter((f) => /elicitation/i.test(f.file));
  log(
    `first rows (${label}): ${rows.files.length} files, ${formatNumber(rows.gzip / 1024, 1)} KB gzip: ${rows.files.map((f) => `${f.file} ${formatNumber(f.gzip / 1024, 1)}`).join(', ')}`,
  );
  return { label, firstPaint, rows, lazy, highlighter, elicitation };
}

/** The first rows' figures written to the JSON. */
const rowsFigures = (f: Awaited<ReturnType<typeof entryFigures>>) => ({
  gzip: f.rows.gzip,
  files: f.rows.files,
  drawnMs: f.rows.ms,
  highlighterLoaded: f.highlighter,
});

export async function size(bench: Bench, parts: Composition[]): Promise<void> {
  const { sizes, buildDir } = bench;
  const total = unionGzip(
    buildDir,
    bundle(bench, 'silo').total.files,
    bundle(bench, 'components').total.files,
  );
  const worker = bundle(bench, 'worker').total.gzip;
  const [all, transcript] = [await entryFigures(bench, ELEMENTS[0]), await entryFigures(bench, ELEMENTS[1])];
  const kb = (n: number) => formatNumber(n / 1024, 1);
  figures.size = {
    bundles: sizes,
    pageAndComponentsFirstPaintGzip: all.firstPaint.gzip,
    pageAndComponentsFirstPaintFiles: all.firstPaint.files,
    pageAndComponentsTotalGzip: total.gzip,
    pageAndComponentsTotalFiles: total.files,
    workerGzip: worker,
    firstPaintOverTarget: all.firstPaint.gzip / (35 * 1024),
    workerOverTarget: worker / (60 * 1024),
    firstRows: rowsFigures(all),
    transcriptAlone: {
      firstPaintGzip: transcript.firstPaint.gzip,
      firstPaintFiles: transcript.firstPaint.files,
      firstRows: rowsFigures(transcript),
    },
    composition: parts,
  };
  for (const f of [all, transcript]) {
    const alone = f === transcript;
    judge({
      section: 'size',
      name: alone
        ? 'first paint: page + transcript entry (<silo-transcript> alone), gzip'
        : 'first paint: page + components, gzip',
      value: alone
        ? `${kb(f.firstPaint.gzip)} KB`
        : `${kb(f.firstPaint.gzip)} KB (total with lazy chunks ${kb(total.gzip)} KB)`,
      measured: f.firstPaint.gzip / 1024,
      op: '≤',
      limit: 35,
      unit: 'KB',
      digits: 1,
      ...(alone
        ? {}
        : {
            why: '<silo-chat> (its composer, header, banners, styles and strings) is part of the components entry’s first paint',
          }),
    });
    judge({
      section: 'size',
      id: 5,
      name: `first rows (${f.label}): first paint + chunks to draw the first agent message with Markdown, gzip`,
      value: `${kb(f.rows.gzip)} KB: first paint ${kb(f.firstPaint.gzip)} + ${f.lazy.map((l) => `${l.file} ${kb(l.gzip)}`).join(' + ')}${f.highlighter ? ' (the highlighter loaded!)' : '; highlighter not loaded'}`,
      measured: f.rows.gzip / 1024,
      op: '≤',
      limit: 60,
      unit: 'KB',
      digits: 1,
      why: 'the rows chunk (virtualizer, row templates and styles) and the Markdown chunk (marked + the sanitizer) load on the first message, on top of the first paint',
    });
    judge({
      section: 'size',
      name: `first rows (${f.label}): files of <silo-elicitation> loaded before the first agent message was drawn`,
      value: f.elicitation.length ? f.elicitation.map((l) => l.file).join(', ') : 'none',
      measured: f.elicitation.length,
      op: '=',
      limit: 0,
      unit: '',
      why: 'the idle load of <silo-elicitation> waits for a transcript’s first rows (components/shared/first-rows.ts)',
    });
  }
  judge({
    section: 'size',
    name: 'worker, gzip',
    value: `${kb(worker)} KB`,
    measured: worker / 1024,
    op: '≤',
    limit: 60,
    unit: 'KB',
    digits: 1,
  });
}
