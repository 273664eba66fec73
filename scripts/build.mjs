// `npm run build`: Vite library builds of the page entry, the components entry and the worker entry,
// type declarations, custom-elements.json, and a size report (gzip and brotli) of each bundle.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { build } from 'vite';

const entries = [
  { name: 'silo', entry: 'src/index.ts' },
  { name: 'components', entry: 'components/index.ts' },
  { name: 'worker', entry: 'worker/index.ts' },
];

/** Points the page API's default worker at the built sibling bundle instead of the source file. */
const builtWorkerPath = {
  name: 'silo-built-worker-path',
  transform(code, id) {
    // Quote-agnostic: the TypeScript transform may already have turned '…' into "…".
    if (!id.endsWith('src/default-worker.ts')) return undefined;
    return { code: code.replace(/(['"])\.\.\/worker\/index\.ts\1/, "'./worker.js'"), map: null };
  },
};

rmSync('dist', { recursive: true, force: true });
for (const { name, entry } of entries) {
  await build({
    configFile: false,
    logLevel: 'warn',
    plugins: [builtWorkerPath],
    build: {
      target: 'es2022',
      outDir: 'dist',
      emptyOutDir: false,
      sourcemap: true,
      minify: true,
      lib: { entry, formats: ['es'], fileName: () => `${name}.js` },
      rollupOptions: { output: { codeSplitting: false } },
    },
  });
}

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
