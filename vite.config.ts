// The demo (demo/), in two forms:
// - `vite build` (what `npm start` serves, scripts/demo-build.mjs): demo/dist/, the files a user would
//   deploy. The pages import the package by name as an app does, and here the names resolve to the
//   package's built entries (dist/silo.js, dist/components.js), so the worker is the package's own
//   dist/worker.js; embed.html and embed.js (demo/public/) are copied as written, and the no-build
//   bundle they load (dist/standalone/) is copied beside them.
// - Vite's dev server (`npm run dev`, developers only, docs/testing.md): the same pages from the
//   sources, reloaded on change.
// The library build lives in scripts/build.mjs.
import { cpSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Copies the package's no-build bundle (dist/standalone/, for embed.html) into the built demo. */
const standaloneBundle: Plugin = {
  name: 'silo-demo-standalone-bundle',
  apply: 'build',
  writeBundle(options) {
    cpSync(source('./dist/standalone'), `${options.dir}/dist/standalone`, { recursive: true });
  },
};

export default defineConfig(({ command }) => ({
  root: 'demo',
  publicDir: 'public',
  resolve: {
    alias:
      command === 'build'
        ? [
            { find: /^silo-acp\/components$/, replacement: source('./dist/components.js') },
            { find: /^silo-acp$/, replacement: source('./dist/silo.js') },
          ]
        : [
            { find: /^silo-acp\/components$/, replacement: source('./components/index.ts') },
            { find: /^silo-acp$/, replacement: source('./src/index.ts') },
          ],
  },
  plugins: [standaloneBundle],
  // The dev server reads only the code the pages import: not the repository's other files (session
  // files under .silo-agent-sessions/, keys, anything a developer keeps there).
  server: {
    host: '127.0.0.1',
    strictPort: false,
    fs: {
      strict: true,
      allow: ['src', 'worker', 'components', 'demo', 'node_modules'].map((d) => source(`./${d}`)),
    },
  },
  // Its own dependency cache, pre-bundling everything the pages and the worker import up front, so a
  // first visit does not re-optimize and reload the page.
  cacheDir: '../node_modules/.vite-demo',
  optimizeDeps: { entries: ['index.html', 'offline.html', '../worker/index.ts'] },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    rollupOptions: { input: [source('./demo/index.html'), source('./demo/offline.html')] },
  },
  worker: { format: 'es' },
}));
