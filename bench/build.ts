/**
 * Builds what the benchmark page loads into `.bench/build/`: Silo's library bundles exactly as
 * `npm run build` makes them (Vite, minified — these are also the bundles whose size is reported), and
 * the harness (the bench page, the raw-limit worker, the journal generator) with esbuild. The harness
 * imports Silo's page and components entries from the built bundles, never from source.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { type Plugin as EsbuildPlugin, build as esbuild, transform } from 'esbuild';
import { buildLibrary } from '../scripts/build.mjs';

/** The library bundles built by scripts/build.mjs `buildLibrary`, with labels for the report. */
export const LIBRARY = [
  { name: 'silo', entry: 'src/index.ts', label: 'page entry (silo.js)' },
  // The page API's sub-entries: loaded with `import()` by the components, so in their total only.
  { name: 'export', entry: 'src/export.ts', label: 'export entry (export.js)' },
  { name: 'elicitation', entry: 'src/elicitation/index.ts', label: 'elicitation entry (elicitation.js)' },
  { name: 'components', entry: 'components/index.ts', label: 'components entry (components.js)' },
  // `<silo-transcript>` alone: shares the components entry's chunks (built with it).
  { name: 'transcript', entry: 'components/transcript.ts', label: 'transcript entry (transcript.js)' },
  { name: 'worker', entry: 'worker/index.ts', label: 'worker bundle (worker.js)' },
] as const;

export interface BundleSize {
  name: string;
  label: string;
  /** Minified (what an app ships after its own minifier); the figures the targets use. */
  raw: number;
  gzip: number;
  brotli: number;
  /** As Vite's library mode writes it to dist/ (ES format keeps whitespace), gzip. */
  libraryGzip: number;
  /**
   * The entry and every chunk it imports statically (what loads before its first paint): files,
   * and the sum of their gzip sizes. Equal to the entry alone while the build makes one file per entry.
   */
  firstPaint: { files: string[]; gzip: number };
  /** The entry and every chunk it can load, statically or with `import()`: files, and gzip sum. */
  total: { files: string[]; gzip: number };
}

/** Minified bytes of one bundle by where they came from (package or source folder), largest first. */
export interface Composition {
  name: string;
  bytes: number;
  groups: { source: string; bytes: number }[];
}

const gzip = (b: Uint8Array) => gzipSync(b, { level: 9 }).length;
const brotli = (b: Uint8Array) =>
  brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

/** Resolves the harness's imports of Silo's entries to the built bundles next to it. */
const builtEntries: EsbuildPlugin = {
  name: 'silo-built-entries',
  setup(b) {
    b.onResolve({ filter: /\/((src|components)\/index|components\/transcript)\.ts$/ }, (args) => ({
      path: `./${LIBRARY.find((l) => args.path.endsWith(l.entry))!.name}.js`,
      external: true,
    }));
  },
};

export async function buildBench(root: string, outDir: string): Promise<BundleSize[]> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await buildLibrary({ root, outDir, sourcemap: false });
  await esbuild({
    absWorkingDir: root,
    entryPoints: {
      'bench-page': 'bench/page/main.ts',
      'raw-worker': 'bench/page/raw-worker.ts',
      'journal-worker': 'bench/page/journal-worker.ts',
      'first-rows': 'bench/page/first-rows.ts',
      'first-rows-transcript': 'bench/page/first-rows-transcript.ts',
    },
    outdir: outDir,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    logLevel: 'warning',
    plugins: [builtEntries],
  });
  copyFileSync(join(root, 'bench/page/index.html'), join(outDir, 'index.html'));
  copyFileSync(join(root, 'bench/page/first-rows.html'), join(outDir, 'first-rows.html'));
  // Vite's library mode does not minify whitespace in ES format; minify fully, as an app would.
  for (const file of readdirSync(outDir).filter((f) => f.endsWith('.js') && isLibraryFile(f))) {
    const path = join(outDir, file);
    const { code } = await transform(readFileSync(path, 'utf8'), {
      minify: true,
      format: 'esm',
      target: 'es2022',
    });
    libraryBuilt.set(file, readFileSync(path));
    writeFileSync(path, code);
  }
  const sizes: BundleSize[] = [];
  for (const { name, label } of LIBRARY) {
    const bytes = readFileSync(join(outDir, `${name}.js`));
    const firstPaint = reachable(outDir, `${name}.js`, false);
    const total = reachable(outDir, `${name}.js`, true);
    const sum = (files: string[]) => files.reduce((n, f) => n + gzip(readFileSync(join(outDir, f))), 0);
    sizes.push({
      name,
      label,
      raw: bytes.length,
      gzip: gzip(bytes),
      brotli: brotli(bytes),
      libraryGzip: gzip(libraryBuilt.get(`${name}.js`) ?? bytes),
      firstPaint: { files: firstPaint, gzip: sum(firstPaint) },
      total: { files: total, gzip: sum(total) },
    });
  }
  libraryBuilt.clear();
  return sizes;
}

/** The library's own output files (entries and their chunks), not the harness's. */
export const HARNESS = new Set([
  'bench-page.js',
  'raw-worker.js',
  'journal-worker.js',
  'first-rows.js',
  'first-rows-transcript.js',
]);
const isLibraryFile = (file: string) => !HARNESS.has(file);
const libraryBuilt = new Map<string, Buffer>();

/**
 * Files an entry loads: itself and the local chunks it imports statically (`import … from './x.js'`,
 * `export … from`, bare `import './x.js'`), and with `dynamic` also those it loads with `import()`,
 * transitively. Imports of files that are not in `outDir` (a worker URL, packages) are ignored.
 */
export function reachable(outDir: string, entry: string, dynamic: boolean): string[] {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  const statics = /(?:\bimport|\bexport)\s*(?:[\w${}\s,*]+?\s*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;
  const dynamics = /\bimport\s*\(\s*["'](\.{1,2}\/[^"']+\.js)["']\s*\)/g;
  while (queue.length) {
    const file = queue.shift()!;
    const code = readFileSync(join(outDir, file), 'utf8');
    const found = [...code.matchAll(statics)].map((m) => m[1]!);
    if (dynamic) found.push(...[...code.matchAll(dynamics)].map((m) => m[1]!));
    for (const spec of found) {
      const target = relative(outDir, join(outDir, dirname(file), spec));
      if (seen.has(target) || !existsSync(join(outDir, target))) continue;
      seen.add(target);
      queue.push(target);
    }
  }
  return [...seen];
}

/**
 * The components' imports of the page API (`../src/…`: its main entry and its sub-entries) stay out of
 * the components bundle (counted as silo.js here; the sub-entries are loaded with `import()`).
 */
const pageApiExternal: EsbuildPlugin = {
  name: 'silo-page-api-external',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/src\// }, (args) =>
      args.importer.includes('/components/') ? { path: './silo.js', external: true } : undefined,
    );
  },
};

/**
 * What the page and components entries are made of: each bundled again with esbuild (minified, with
 * a metafile; the components split at `import()` as the library build splits them) and its output
 * bytes grouped by package (`node_modules/<pkg>`) or source file (`components/…` by file, `src/…` by
 * folder). For the components, the entry with the chunks it imports statically (the first paint) and
 * the chunks it loads with `import()` are listed apart. Minified bytes, not gzip (gzip does not add up
 * by part).
 */
export async function composition(root: string): Promise<Composition[]> {
  const out: Composition[] = [];
  for (const { name, entry } of LIBRARY.filter((l) => l.name === 'silo' || l.name === 'components')) {
    const split = name === 'components';
    const result = await esbuild({
      absWorkingDir: root,
      entryPoints: [entry],
      bundle: true,
      format: 'esm',
      target: 'es2022',
      minify: true,
      write: false,
      metafile: true,
      splitting: split,
      outdir: 'out',
      logLevel: 'silent',
      loader: { '.css': 'text' },
      // As scripts/build.mjs does: the components take the page API from the sibling silo.js.
      plugins: split ? [pageApiExternal] : [],
    });
    const outputs = result.metafile.outputs;
    // The entry's own output (with splitting, each `import()` target is an entry point of its own too).
    const entryOut = Object.keys(outputs).find((k) => outputs[k]!.entryPoint === entry)!;
    const first = new Set([entryOut]);
    for (const queue = [entryOut]; queue.length; ) {
      for (const i of outputs[queue.shift()!]!.imports) {
        if (i.kind !== 'import-statement' || i.external || first.has(i.path)) continue;
        first.add(i.path);
        queue.push(i.path);
      }
    }
    const parts: [string, string[]][] = split
      ? [
          [`${name}.js and its static chunks (first paint)`, [...first]],
          [`${name}: chunks loaded with import()`, Object.keys(outputs).filter((k) => !first.has(k))],
        ]
      : [[`${name}.js`, [entryOut]]];
    for (const [label, files] of parts) {
      const groups = new Map<string, number>();
      for (const file of files) {
        for (const [input, { bytesInOutput }] of Object.entries(outputs[file]!.inputs)) {
          const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
          const source =
            pkg ??
            (input.startsWith('components/') ? input : input.split('/').slice(0, -1).join('/') || input);
          groups.set(source, (groups.get(source) ?? 0) + bytesInOutput);
        }
      }
      const sorted = [...groups]
        .filter(([, bytes]) => bytes > 0)
        .map(([source, bytes]) => ({ source, bytes }))
        .sort((a, b) => b.bytes - a.bytes);
      out.push({ name: label, bytes: sorted.reduce((n, g) => n + g.bytes, 0), groups: sorted });
    }
  }
  return out;
}
