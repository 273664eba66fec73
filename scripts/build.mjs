// `npm run build` (also `prepack`): what the package ships, all under dist/:
//   dist/silo.js, dist/components.js   bundler-facing entries: they import lit, comlink, idb, marked,
//                                      @lit-labs/virtualizer… by name, so an app bundles one copy of each
//   dist/transcript.js                 silo-acp/components/transcript: <silo-transcript> alone, sharing
//                                      components.js's chunks
//   dist/export.js, dist/elicitation.js  the page API's sub-entries (silo-acp/export, silo-acp/elicitation),
//                                      out of silo.js so that a first paint does not load them
//   dist/worker.js                     the worker, self-contained (it runs in its own global)
//   dist/standalone/*.js               the same, self-contained but for the page API's modules, for
//                                      pages without a build step
//   dist/node/                         silo-bridge and the reference agent, compiled to plain JavaScript
//   dist/types/                        type declarations, with dist/types/frameworks/ (silo-acp/react,
//                                      silo-acp/vue, silo-acp/svelte) generated from the manifest
// plus custom-elements.json and a size report (gzip and brotli) of each bundle.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import minifyTemplates from '@lit-labs/rollup-plugin-minify-html-literals';
import { build } from 'vite';
import { writeFrameworkTypes } from './framework-types.mjs';

/**
 * The library bundles, built in this order. The `pageApi` ones are the page API's public entries; every
 * bundle built after one (the worker apart, which is self-contained) takes that entry's source modules
 * from its file (`./silo.js`, `./export.js`, `./elicitation.js`) instead of carrying a second copy:
 * the components import `src/index.ts`, `src/export.ts` and `src/elicitation/index.ts`, and the
 * sub-entries take `SiloError`, `TranscriptModel` and the default elicitation messages from silo.js.
 * Such a module must export under the bundle's public names what the later bundle imports of it:
 * the build fails otherwise.
 */
export const entries = [
  { name: 'silo', entry: 'src/index.ts', pageApi: true },
  { name: 'export', entry: 'src/export.ts', pageApi: true },
  { name: 'elicitation', entry: 'src/elicitation/index.ts', pageApi: true },
  // With the transcript entry (`silo-acp/components/transcript`: `<silo-transcript>` alone) in the
  // same build: the two share their chunks, so a page importing both holds one copy of each element.
  { name: 'components', entry: 'components/index.ts', also: { transcript: 'components/transcript.ts' } },
  { name: 'worker', entry: 'worker/index.ts' },
];

/**
 * Points the page API's default worker at the built sibling bundle instead of the source file, written
 * literally as `new Worker(new URL('./worker.js', import.meta.url), …)`: the pattern bundlers (Vite,
 * webpack, Parcel, Rollup with `@web/rollup-plugin-import-meta-assets`) detect to emit the worker. This
 * runs after Vite's own worker plugin, so the library build itself leaves it alone. Where the worker
 * should be, for the error if it cannot start (src/worker-start.ts): beside this file, unless webpack
 * built the page — it evaluates `typeof __webpack_require__` at build time and drops the other branch,
 * so its bundle does not carry the `file:` path it would write for `import.meta.url`.
 */
const builtWorkerPath = {
  name: 'silo-built-worker-path',
  enforce: 'post',
  transform(_code, id) {
    if (!id.endsWith('src/default-worker.ts')) return undefined;
    return {
      code: `export function startDefaultWorker() {
  return {
    worker: new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'silo' }),
    place:
      typeof __webpack_require__ === 'function'
        ? { bundler: 'webpack' }
        : { url: String(import.meta.url).replace(/[^/]*$/, 'worker.js') },
  };
}
`,
      map: null,
    };
  },
};

/**
 * How the components' Lit `html` and `css` templates are minified (the bundle minifier leaves template
 * literals as written): indentation, line breaks and comments go; a run of whitespace becomes one
 * space, never none, since between inline elements it is a visible space (`conservativeCollapse`).
 * A template the minifier cannot parse fails the build. `SILO_MINIFY_TEMPLATES=1` runs the browser
 * tests on templates minified the same way (web-test-runner.config.mjs).
 */
export const templateMinifying = () => ({
  include: ['components/**'],
  failOnError: true,
  options: { minifyOptions: { conservativeCollapse: true } },
});

/** The package's runtime dependencies, which the bundler-facing entries import by name. */
const dependencies = Object.keys(
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).dependencies,
);
const isDependency = (id) => dependencies.some((d) => id === d || id.startsWith(`${d}/`));

/**
 * Builds the library bundles ({@link entries}) into `outDir` (Vite library mode, minified):
 * self-contained by default but for the page API's modules, taken from their sibling bundle (the
 * no-build set, which the benchmark also builds), or with `external` the page API's and the
 * components' entries importing the package's dependencies by name (the worker stays
 * self-contained). Throws if a bundle imports a name its sibling does not export.
 * @param {{ root?: string, outDir?: string, sourcemap?: boolean, external?: boolean }} [options]
 */
export async function buildLibrary({
  root = process.cwd(),
  outDir = 'dist',
  sourcemap = true,
  external = false,
} = {}) {
  /** Source module (absolute path) → the page API bundle that holds it, and that bundle's exports. */
  const siblings = new Map();
  for (const { name, entry, also = {}, pageApi } of entries) {
    const selfContained = name === 'worker';
    const byName = external && !selfContained;
    const sibling = (id) => (selfContained ? undefined : siblings.get(id)?.file);
    const result = await build({
      configFile: false,
      root,
      logLevel: 'warn',
      plugins: [builtWorkerPath, ...(name === 'components' ? [minifyTemplates(templateMinifying())] : [])],
      build: {
        target: 'es2022',
        outDir,
        emptyOutDir: false,
        sourcemap,
        minify: true,
        lib: {
          entry: Object.fromEntries(
            Object.entries({ [name]: entry, ...also }).map(([n, e]) => [n, join(root, e)]),
          ),
          formats: ['es'],
          fileName: (_format, entryName) => `${entryName}.js`,
        },
        rollupOptions: {
          // The components entry splits what its first paint does not need (`import()` in
          // components/elicitation/silo-elicitation.chunk.ts…) into chunks beside it; the page API's entries and the worker stay
          // one file each.
          output: {
            codeSplitting: name === 'components',
            chunkFileNames: 'components-[name]-[hash].js',
            paths: (id) => sibling(id) ?? id,
          },
          external: (id) => sibling(id) !== undefined || (byName && isDependency(id)),
        },
      },
    });
    const chunks = [result]
      .flat()
      .flatMap((r) => r.output)
      .filter((o) => o.type === 'chunk');
    for (const chunk of chunks) {
      for (const [, list, from] of chunk.code.matchAll(
        /\bimport\s*\{([^}]*)\}\s*from\s*["'](\.\/[\w-]+\.js)["']/g,
      )) {
        const exported = [...siblings.values()].find((s) => s.file === from)?.exports;
        const names = list.split(',').map((n) => n.trim().split(/\s+as\s+/)[0]);
        const missing = exported && names.filter((n) => n && !exported.has(n));
        if (missing?.length)
          throw new Error(
            `${chunk.fileName} imports ${missing.join(', ')} from ${from}, which does not export it`,
          );
      }
    }
    if (pageApi) {
      const main = chunks.find((c) => c.isEntry);
      const exports = new Set(main.exports);
      for (const id of Object.keys(main.modules))
        if (id.startsWith(join(root, 'src/'))) siblings.set(id, { file: `./${name}.js`, exports });
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();

/**
 * Sorts the manifest's modules by path: the analyzer writes them in the order its file walk met them,
 * which differs from run to run, so the committed file would change with no change in content.
 */
function sortManifest(file) {
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  manifest.modules.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

async function main() {
  rmSync('dist', { recursive: true, force: true });
  await buildLibrary({ external: true });
  await buildLibrary({ outDir: 'dist/standalone' });
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.dist-node.json'], {
    stdio: 'inherit',
  });

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
      '--exclude',
      'components/transcript.ts',
      // The elements' base class (its emit() is no event of theirs; each documents its own).
      '--exclude',
      'components/shared/silo-element.ts',
    ],
    { stdio: 'inherit' },
  );
  sortManifest('custom-elements.json');
  writeFrameworkTypes('custom-elements.json', 'dist/types/frameworks');

  console.log('\nbundle                       raw        gzip      brotli');
  const names = entries.flatMap(({ name, also = {} }) => [name, ...Object.keys(also)]);
  for (const file of names.flatMap((name) => [`${name}.js`, `standalone/${name}.js`])) {
    const bytes = readFileSync(`dist/${file}`);
    const kb = (n) => `${(n / 1024).toFixed(1)} KB`.padStart(10);
    console.log(
      `${file.padEnd(25)}${kb(bytes.length)}${kb(gzipSync(bytes, { level: 9 }).length)}${kb(brotliCompressSync(bytes).length)}`,
    );
  }
}
