/**
 * 5. Size: gzip and brotli of the minified page entry, components entry and worker bundle; the first
 * paint (the page and components entries and what they import statically) and the total (with the
 * chunks they load with `import()`); and target 5 of #32, the first rows: the library files a fresh
 * page fetches until `<silo-transcript>` has drawn its first agent message with Markdown
 * (bench/page/first-rows.ts, resource timing), weighed in gzip.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Composition, HARNESS } from '../build.ts';
import type { Bench } from '../harness.ts';
import { figures, judge, log, notes } from '../results.ts';
import { formatNumber } from '../stats.ts';

const gzipSize = (b: Uint8Array) => gzipSync(b, { level: 9 }).length;

/** gzip bytes of the union of `lists` of built files (a file both entries load counts once). */
function unionGzip(buildDir: string, ...lists: string[][]): { files: string[]; gzip: number } {
  const files = [...new Set(lists.flat())];
  return { files, gzip: files.reduce((n, f) => n + gzipSize(readFileSync(join(buildDir, f))), 0) };
}

/** The library files a fresh page loads to draw the first agent message with Markdown. */
async function firstRows({ browser, origin, buildDir }: Bench) {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/first-rows.html`);
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

export async function size(bench: Bench, parts: Composition[]): Promise<void> {
  const { sizes, buildDir } = bench;
  const by = (n: string) => sizes.find((s) => s.name === n)!;
  const firstPaint = unionGzip(buildDir, by('silo').firstPaint.files, by('components').firstPaint.files);
  const total = unionGzip(buildDir, by('silo').total.files, by('components').total.files);
  const worker = by('worker').total.gzip;
  const rows = await firstRows(bench);
  const lazy = rows.files.filter((f) => !firstPaint.files.includes(f.file));
  const highlighter = rows.files.some((f) => /highlight/i.test(f.file));
  // <silo-elicitation> loads at idle, after a transcript's first rows (components/shared/first-rows.ts).
  const elicitation = rows.files.filter((f) => /elicitation/i.test(f.file));
  log(
    `first rows: ${rows.files.length} files, ${formatNumber(rows.gzip / 1024, 1)} KB gzip: ${rows.files.map((f) => `${f.file} ${formatNumber(f.gzip / 1024, 1)}`).join(', ')}`,
  );
  figures.size = {
    bundles: sizes,
    pageAndComponentsFirstPaintGzip: firstPaint.gzip,
    pageAndComponentsFirstPaintFiles: firstPaint.files,
    pageAndComponentsTotalGzip: total.gzip,
    pageAndComponentsTotalFiles: total.files,
    workerGzip: worker,
    firstPaintOverTarget: firstPaint.gzip / (35 * 1024),
    workerOverTarget: worker / (60 * 1024),
    firstRows: { gzip: rows.gzip, files: rows.files, drawnMs: rows.ms, highlighterLoaded: highlighter },
    composition: parts,
  };
  judge({
    section: 'size',
    name: 'first paint: page + components, gzip',
    value: `${formatNumber(firstPaint.gzip / 1024, 1)} KB (total with lazy chunks ${formatNumber(total.gzip / 1024, 1)} KB)`,
    measured: firstPaint.gzip / 1024,
    op: '≤',
    limit: 35,
    unit: 'KB',
    digits: 1,
  });
  judge({
    section: 'size',
    id: 5,
    name: 'first rows: first paint + chunks to draw the first agent message with Markdown, gzip',
    value: `${formatNumber(rows.gzip / 1024, 1)} KB: first paint ${formatNumber(firstPaint.gzip / 1024, 1)} + ${lazy.map((f) => `${f.file} ${formatNumber(f.gzip / 1024, 1)}`).join(' + ')}${highlighter ? ' (the highlighter loaded!)' : '; highlighter not loaded'}`,
    measured: rows.gzip / 1024,
    op: '≤',
    limit: 60,
    unit: 'KB',
    digits: 1,
    why: 'the rows chunk (virtualizer, row templates and styles) and the Markdown chunk (marked + the sanitizer) load on the first message, on top of the first paint',
  });
  judge({
    section: 'size',
    name: 'first rows: files of <silo-elicitation> loaded before the first agent message was drawn',
    value: elicitation.length ? elicitation.map((f) => f.file).join(', ') : 'none',
    measured: elicitation.length,
    op: '=',
    limit: 0,
    unit: '',
    why: 'the idle load of <silo-elicitation> waits for a transcript’s first rows (components/shared/first-rows.ts)',
  });
  judge({
    section: 'size',
    name: 'worker, gzip',
    value: `${formatNumber(worker / 1024, 1)} KB`,
    measured: worker / 1024,
    op: '≤',
    limit: 60,
    unit: 'KB',
    digits: 1,
  });
  if (firstPaint.files.length === total.files.length) {
    notes.push(
      `First paint = total: the page and components entries are single files (${firstPaint.files.join(', ')}), so everything they hold loads before <silo-chat> can paint.`,
    );
  }
}
