// Vite serves the demo (`npm start`); the library build lives in scripts/build.mjs, which reuses
// this file's shared settings.
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'demo',
  publicDir: false,
  server: { host: '127.0.0.1', strictPort: false, fs: { allow: ['..'] } },
  build: { target: 'es2022' },
  worker: { format: 'es' },
});
