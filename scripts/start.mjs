// `npm start`: the demo page (Vite, demo/) + silo-bridge running the reference agent.
//
//   npm start                                   reference agent (sessions in .silo-agent-sessions/)
//   npm start -- --agent "npx @agentclientprotocol/claude-agent-acp"   any other stdio ACP agent
//   npm start -- --bridge-port 7420             fixed bridge port (default: any free port)
//   npm start -- --port 5180                    fixed demo port (default: 5173, or the next free one)
//   npm start -- --cwd /path/to/project         the sessions' working directory (default: this folder)
//   npm start -- --no-bridge                    only the demo page: history and transcripts, offline
//
// The bridge allows exactly the demo's origin. The page learns the bridge URL and token from
// GET /.silo-bridge.json ({url, token, connection, cwd, agent, reference}), served only to a same-origin fetch
// from a browser that opened the printed URL (its ?launch= key becomes a cookie), so nothing is copied
// by hand. Every response carries the demo's Content-Security-Policy (scripts/demo-guard.mjs).
// demo/embed.html loads the package's self-contained bundle, /dist/standalone/components.js, served from the repository's
// dist/ (built with `npm run build` when it is missing or older than the sources).
// Ctrl-C stops the bridge (and every agent) and Vite.
//
// Tests and scripts import startDemo() instead of spawning this file.
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createServer } from 'vite';
import {
  bridgeConfigBody,
  bridgeConfigRefusal,
  grantLaunchCookie,
  launchKey,
  setSecurityHeaders,
} from './demo-guard.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const distDir = join(root, 'dist');

/** Splits a command line on spaces, keeping "double" or 'single' quoted parts together. */
export function splitCommand(text) {
  const parts = [];
  for (const m of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) parts.push(m[1] ?? m[2] ?? m[3]);
  return parts;
}

/** The reference agent's command line, with extra flags. */
export function referenceAgent(args = []) {
  return [process.execPath, '--import', 'tsx', join(root, 'agent/cli.ts'), ...args];
}

/** The newest modification time (ms) of the files under `dir`, or 0 when it does not exist. */
function newest(dir) {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      latest = Math.max(latest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return latest;
}

/**
 * Runs `npm run build` when the bundles embed.html loads (dist/standalone/components.js, silo.js,
 * worker.js) are missing or older than the sources they are built from.
 */
export function ensureBundle(log = console.log) {
  const bundles = ['components.js', 'silo.js', 'worker.js'].map((f) => join(distDir, 'standalone', f));
  const built = bundles.every((f) => existsSync(f))
    ? Math.min(...bundles.map((f) => statSync(f).mtimeMs))
    : 0;
  const sources = Math.max(...['src', 'worker', 'components'].map((d) => newest(join(root, d))));
  if (built > sources) return;
  log(
    `[silo] dist/ is ${built ? 'older than the sources' : 'missing'}: building the package bundle for embed.html (npm run build)…`,
  );
  const r = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm run build failed; embed.html needs dist/standalone/components.js');
}

const TYPES = { '.js': 'text/javascript', '.map': 'application/json', '.json': 'application/json' };

/**
 * Starts the demo: Vite on demo/ and silo-bridge allowing exactly the demo's origin.
 *
 * Options: `port` (demo port; default 5173 or the next free one, `0` for any), `bridgePort` (default
 * any free port), `agentCommand` (an array; default the reference agent), `agentArgs` (extra flags for
 * the reference agent), `sessionsDir` (the reference agent's session files), `cwd` (handed to the page
 * as the sessions' working directory), `log` (a function for the [silo] lines; default console.log),
 * `onBridgeExit` (called with the exit code when the bridge exits on its own), `noBridge` (serve the
 * demo only; `bridge` is then undefined).
 *
 * Resolves once both are up, to `{ url, origin, bridge, stopBridge(), stop() }`: `url` is the one page
 * to open, `bridge` the bridge's announcement; `stopBridge()` ends the bridge and its agents and keeps
 * the demo served (the page then works offline); `stop()` ends everything. Rejects when Vite cannot
 * listen, or the bridge exits before announcing itself.
 */
export async function startDemo(options = {}) {
  const log = options.log ?? console.log;
  const agentCommand = options.agentCommand ?? referenceAgent(options.agentArgs ?? []);
  const cwd = options.cwd ?? process.cwd();
  let bridgeInfo;
  let demoOrigin;
  const key = launchKey();

  /** Serves the bridge's URL and token to the demo page itself, and to nobody else; and /dist/. */
  const demoPlugin = {
    name: 'silo-demo',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        setSecurityHeaders(res, demoOrigin, bridgeInfo?.url);
        grantLaunchCookie(req, res, key, demoOrigin);
        next();
      });
      server.middlewares.use('/.silo-bridge.json', (req, res) => {
        res.setHeader('Cache-Control', 'no-store');
        if (bridgeConfigRefusal(req, demoOrigin, key)) {
          res.statusCode = 403;
          res.end('forbidden\n');
          return;
        }
        if (!bridgeInfo) {
          res.statusCode = 503;
          res.end('bridge not running\n');
          return;
        }
        res.setHeader('Content-Type', 'application/json');
        res.end(
          JSON.stringify(
            bridgeConfigBody(bridgeInfo, { cwd, agentCommand, reference: !options.agentCommand }),
          ),
        );
      });
      // embed.html is a plain page: served as written, without Vite's client or transforms.
      server.middlewares.use((req, res, next) => {
        const file = { '/embed.html': 'embed.html', '/embed.js': 'embed.js' }[(req.url ?? '').split('?')[0]];
        if (!file) return next();
        res.setHeader(
          'Content-Type',
          `${file.endsWith('.js') ? 'text/javascript' : 'text/html'}; charset=utf-8`,
        );
        res.setHeader('Cache-Control', 'no-cache');
        createReadStream(join(root, 'demo', file)).pipe(res);
      });
      // The package's own bundle, for embed.html: plain files from dist/, untouched by Vite.
      server.middlewares.use('/dist/', (req, res, next) => {
        const path = normalize(join(distDir, decodeURIComponent((req.url ?? '').split('?')[0])));
        if (!path.startsWith(distDir + sep) || !existsSync(path) || !statSync(path).isFile()) return next();
        res.setHeader('Content-Type', TYPES[extname(path)] ?? 'application/octet-stream');
        res.setHeader('Cache-Control', 'no-cache');
        createReadStream(path).pipe(res);
      });
    },
  };

  const vite = await createServer({
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'warn',
    plugins: [demoPlugin],
    // No CORS: only the demo's own pages read its responses (Vite allows localhost origins by default).
    server: { cors: false, ...(options.port !== undefined ? { port: options.port } : {}) },
  });
  await vite.listen();
  const address = vite.httpServer.address();
  demoOrigin = `http://127.0.0.1:${address.port}`;
  // The key makes the browser that opens this URL the one the bridge config is served to.
  const url = `${demoOrigin}/?launch=${key}`;

  if (options.noBridge) {
    log('[silo] no bridge: the demo shows the history and transcripts journaled in this browser');
    log(`[silo] open ${url}`);
    return {
      url,
      origin: demoOrigin,
      bridge: undefined,
      stopBridge: async () => {},
      stop: () => vite.close(),
    };
  }

  const bridge = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'bridge/cli.ts'),
      '--port',
      String(options.bridgePort ?? 0),
      '--allow-origin',
      demoOrigin,
      '--',
      ...agentCommand,
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: options.sessionsDir
        ? { ...process.env, SILO_AGENT_SESSIONS_DIR: options.sessionsDir }
        : process.env,
    },
  );
  let bridgeStopping = false;
  const bridgeExited = new Promise((resolve) => bridge.once('exit', (code) => resolve(code)));
  const announced = new Promise((resolve, reject) => {
    bridge.stdout.setEncoding('utf8');
    let out = '';
    bridge.stdout.on('data', (chunk) => {
      out += chunk;
      const lines = out.split('\n');
      out = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('SILO_BRIDGE ')) continue;
        const info = JSON.parse(line.slice('SILO_BRIDGE '.length));
        bridgeInfo = { ...info, cwd, agent: agentCommand.join(' '), reference: !options.agentCommand };
        resolve(bridgeInfo);
      }
    });
    void bridgeExited.then((code) => {
      bridgeInfo = undefined;
      reject(new Error(`the bridge exited (${code}) before it was ready`));
      if (!bridgeStopping) options.onBridgeExit?.(code);
    });
  });

  async function stopBridge() {
    bridgeStopping = true;
    if (bridge.exitCode === null && bridge.signalCode === null) bridge.kill('SIGTERM');
    await bridgeExited;
  }

  let info;
  try {
    info = await announced;
  } catch (e) {
    await vite.close();
    throw e;
  }
  log(`[silo] agent: ${agentCommand.join(' ')}`);
  log(`[silo] bridge: ${info.connection} (allows ${demoOrigin} only)`);
  log(`[silo] open ${url}`);
  return {
    url,
    origin: demoOrigin,
    bridge: info,
    stopBridge,
    async stop() {
      await stopBridge();
      await vite.close();
    },
  };
}

async function main() {
  const args = process.argv.slice(2);
  const option = (name) => {
    const i = args.indexOf(name);
    return i === -1 ? undefined : args[i + 1];
  };
  ensureBundle();
  let demo;
  let stopping = false;
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    await demo?.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  demo = await startDemo({
    agentCommand: option('--agent') ? splitCommand(option('--agent')) : undefined,
    bridgePort: option('--bridge-port'),
    port: option('--port') !== undefined ? Number(option('--port')) : undefined,
    cwd: option('--cwd'),
    noBridge: args.includes('--no-bridge'),
    onBridgeExit: (code) => {
      console.error(`[silo] the bridge exited (${code}); stopping`);
      void stop(1);
    },
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e) => {
    console.error(`[silo] ${e.message}`);
    process.exit(1);
  });
}
