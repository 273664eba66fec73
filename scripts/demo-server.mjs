// The demo's web server, on 127.0.0.1 only, in one of two forms (scripts/start.mjs picks):
// - the front door (`npm start`): a plain HTTP server that serves the built demo, demo/dist/ (sirv,
//   with the file list read once at start), and nothing else: no source file, no dev endpoint;
// - developer mode (`npm run dev`): Vite's dev server on the sources, which also serves the sources
//   and its own endpoints (its HMR socket, `/@fs/` inside the code directories) to every local user.
// Both put the same handler in front: the security headers, the Host check and the endpoints that
// hand the bridge's token to the demo page (scripts/demo-access.mjs).
import { createServer as createHttpServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';
import { DemoAccess } from './demo-access.mjs';
import { demoBuildDir } from './demo-build.mjs';
import { hostRefusal, setSecurityHeaders } from './demo-guard.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The demo port when none is asked for, or the next free one above it. */
const DEFAULT_PORT = 5173;

function plain(res, status, text) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end(`${text}\n`);
}

/** Listens on 127.0.0.1: on `port` (0: any free port), or from 5173 up to the first free one. */
async function listen(server, port) {
  for (let p = port ?? DEFAULT_PORT; ; p++) {
    try {
      await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(p, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
      return server.address().port;
    } catch (e) {
      if (e.code !== 'EADDRINUSE' || port !== undefined || p >= DEFAULT_PORT + 50) throw e;
    }
  }
}

/**
 * Starts the demo's web server. `bridgeConfig()` returns the body of `/.silo-bridge.json`, or
 * undefined while no bridge runs; its `url` joins the CSP's `connect-src`. `port`: a fixed port, `0`
 * for any, default 5173 or the next free one. `dev`: Vite's dev server on the sources instead of
 * demo/dist/ (which must have been built: scripts/demo-build.mjs).
 *
 * Resolves to `{ origin, launchUrl(ttlMs?), close() }` once listening (`launchUrl` mints a one-time
 * URL, see DemoAccess); rejects when the port cannot be had.
 */
export async function serveDemo({ bridgeConfig, port, dev = false }) {
  const site = { origin: '', access: undefined, endpoints: undefined };
  /** Every request first: headers on every answer, refusals included; then the endpoints. */
  const front = (req, res, next) => {
    setSecurityHeaders(res, site.origin, bridgeConfig()?.url, dev);
    if (!site.endpoints) return plain(res, 503, 'starting');
    if (hostRefusal(req, site.origin)) return plain(res, 403, `open ${site.origin}/`);
    site.endpoints(req, res, next);
  };
  const server = dev ? await devServer(front, port) : await builtServer(front, port);
  site.origin = `http://127.0.0.1:${server.port}`;
  site.access = new DemoAccess(site.origin);
  site.endpoints = site.access.middleware(bridgeConfig);
  return {
    origin: site.origin,
    launchUrl: (ttlMs) => site.access.launchUrl(ttlMs),
    close: server.close,
  };
}

async function builtServer(front, port) {
  const files = sirv(demoBuildDir, {
    etag: true,
    setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache'),
  });
  const server = createHttpServer((req, res) =>
    front(req, res, () => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'method not allowed');
      files(req, res, () => plain(res, 404, 'not found'));
    }),
  );
  return {
    port: await listen(server, port),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function devServer(front, port) {
  const { createServer } = await import('vite');
  const standalone = sirv(join(root, 'dist/standalone'), { dev: true });
  const plugin = {
    name: 'silo-demo',
    configureServer(server) {
      // Before Vite's own middlewares.
      server.middlewares.use(front);
      // Vite would run the user's $EDITOR on any file a request names.
      server.middlewares.use('/__open-in-editor', (_req, res) => plain(res, 404, 'not found'));
      // The package's own bundle, for embed.html: plain files from dist/standalone/.
      server.middlewares.use('/dist/standalone', (req, res) =>
        standalone(req, res, () => plain(res, 404, 'not found')),
      );
    },
  };
  const vite = await createServer({
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'warn',
    plugins: [plugin],
    // No CORS: only the demo's own pages read its responses.
    server: { cors: false, port: port ?? DEFAULT_PORT, strictPort: port !== undefined },
  });
  await vite.listen();
  return { port: vite.httpServer.address().port, close: () => vite.close() };
}
