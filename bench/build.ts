/**
 * Builds what the benchmark page loads into `.bench/build/`: Silo's three library bundles exactly as
 * `npm run build` makes them (Vite, minified — these are also the bundles whose size is reported), and
 * the harness (the bench page, the raw-limit worker, the journal generator) with esbuild. The harness
 * imports Silo's page and components entries from the built bundles, never from source.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { type Plugin as EsbuildPlugin, build as esbuild, transform } from 'esbuild';
import { buildLibrary } from '../scripts/build.mjs';

/** The library bundles built by scripts/build.mjs `buildLibrary`, with labels for the report. */
export const LIBRARY = [
  { name: 'silo', entry: 'src/index.ts', label: 'page entry (silo.js)' },
  { name: 'components', entry: 'components/index.ts', label: 'components entry (components.js)' },
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
}

const gzip = (b: Uint8Array) => gzipSync(b, { level: 9 }).length;
const brotli = (b: Uint8Array) =>
  brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

/** Resolves the harness's imports of Silo's entries to the built bundles next to it. */
const builtEntries: EsbuildPlugin = {
  name: 'silo-built-entries',
  setup(b) {
    b.onResolve({ filter: /\/(src|components)\/index\.ts$/ }, (args) => ({
      path: args.path.includes('components/') ? './components.js' : './silo.js',
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
  const sizes: BundleSize[] = [];
  for (const { name, label } of LIBRARY) {
    // Vite's library mode does not minify whitespace in ES format; minify fully, as an app would.
    const file = join(outDir, `${name}.js`);
    const built = readFileSync(file);
    const { code } = await transform(built.toString('utf8'), {
      minify: true,
      format: 'esm',
      target: 'es2022',
    });
    writeFileSync(file, code);
    const bytes = Buffer.from(code);
    sizes.push({
      name,
      label,
      raw: bytes.length,
      gzip: gzip(bytes),
      brotli: brotli(bytes),
      libraryGzip: gzip(built),
    });
  }
  return sizes;
}
