// `npm run build`: Vite library builds of the page entry, the components entry and the worker entry,
// type declarations, custom-elements.json, and a size report (gzip and brotli) of each bundle.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { build } from 'vite';

/** The library bundles: the page entry, the components entry and the worker. */
export const entries = [
  { name: 'silo', entry: 'src/index.ts' },
  { name: 'components', entry: 'components/index.ts', plugins: () => [pageApiFromSibling] },
  { name: 'worker', entry: 'worker/index.ts' },
];

/**
 * The components import the page API (`src/`) from the sibling `silo.js` bundle instead of carrying
 * a second copy of it: everything they use is exported by `src/index.ts`.
 */
const pageApiFromSibling = {
  name: 'silo-page-api-from-sibling',
  enforce: 'pre',
  resolveId(source, importer) {
    if (importer?.includes('/components/') && source.startsWith('../src/'))
      return { id: './silo.js', external: true };
    return undefined;
  },
};

/** Points the page API's default worker at the built sibling bundle instead of the source file. */
const builtWorkerPath = {
  name: 'silo-built-worker-path',
  transform(code, id) {
    // Quote-agnostic: the TypeScript transform may already have turned '…' into "…".
    if (!id.endsWith('src/default-worker.ts')) return undefined;
    return { code: code.replace(/(['"])\.\.\/worker\/index\.ts\1/, "'./worker.js'"), map: null };
  },
};

/**
 * Builds the three library bundles into `outDir` (Vite library mode, minified). The benchmark builds
 * the same bundles through this function.
 * @param {{ root?: string, outDir?: string, sourcemap?: boolean }} [options]
 */
export async function buildLibrary({ root = process.cwd(), outDir = 'dist', sourcemap = true } = {}) {
  for (const { name, entry, plugins } of entries) {
    await build({
      configFile: false,
      root,
      logLevel: 'warn',
      plugins: [builtWorkerPath, ...(plugins?.() ?? [])],
      build: {
        target: 'es2022',
        outDir,
        emptyOutDir: false,
        sourcemap,
        minify: true,
        lib: { entry: join(root, entry), formats: ['es'], fileName: () => `${name}.js` },
        rollupOptions: { output: { codeSplitting: false } },
      },
    });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();

async function main() {
  rmSync('dist', { recursive: true, force: true });
  await buildLibrary();

  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.types.json'], {
    stdio: 'inherit',
  });
  execFileSync(
    process.execPath,
    [
      'node_modules/@custom-elements-manifest/analyzer/cem.js',
      'analyze',
      '--litelement',
      '--globs',
      'components/**/*.ts',
      '--exclude',
      'components/index.ts',
    ],
    { stdio: 'inherit' },
  );

  console.log('\nbundle            raw        gzip      brotli');
  for (const { name } of entries) {
    const bytes = readFileSync(`dist/${name}.js`);
    const kb = (n) => `${(n / 1024).toFixed(1)} KB`.padStart(10);
    console.log(
      `${`${name}.js`.padEnd(14)}${kb(bytes.length)}${kb(gzipSync(bytes, { level: 9 }).length)}${kb(brotliCompressSync(bytes).length)}`,
    );
  }
}
