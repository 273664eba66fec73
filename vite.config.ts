// Vite serves the demo (`npm start`); the library build lives in scripts/build.mjs, which reuses
// this file's shared settings. The demo imports the package's public entry points by name; here they
// resolve to the sources.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: 'demo',
  publicDir: false,
  resolve: {
    alias: [
      { find: /^silo-acp\/components$/, replacement: source('./components/index.ts') },
      { find: /^silo-acp$/, replacement: source('./src/index.ts') },
    ],
  },
  server: { host: '127.0.0.1', strictPort: false, fs: { allow: ['..'] } },
  // Its own dependency cache, pre-bundling everything the pages and the worker import up front, so a
  // first visit does not re-optimize and reload the page.
  cacheDir: '../node_modules/.vite-demo',
  optimizeDeps: { entries: ['index.html', 'offline.html', '../worker/index.ts'] },
  build: { target: 'es2022' },
  worker: { format: 'es' },
});
