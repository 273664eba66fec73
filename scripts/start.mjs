// `npm start`: the built demo page (demo/dist/) + silo-bridge running the reference agent.
//
//   npm start                                   reference agent (sessions in .silo-agent-sessions/)
//   npm start -- --agent "npx @agentclientprotocol/claude-agent-acp"   any other stdio ACP agent
//   npm start -- --bridge-port 7420             fixed bridge port (default: any free port)
//   npm start -- --port 5180                    fixed demo port (default: 5173, or the next free one)
//   npm start -- --cwd /path/to/project         the sessions' working directory (default: this folder)
//   npm start -- --no-bridge                    only the demo page: history and transcripts, offline
//   npm run dev                                 (`--dev`) Vite's dev server on the sources instead of
//                                               demo/dist/: for developers, see docs/testing.md
//
// The demo is built first when missing or stale (scripts/demo-build.mjs) and served with nothing else
// (scripts/demo-server.mjs). The bridge allows exactly the demo's origin. The page learns the bridge URL
// and token from GET /.silo-bridge.json, given only to the tab that opened a printed URL: its one-time
// #launch= key is redeemed for a per-tab secret (scripts/demo-access.mjs), so nothing is copied by
// hand. Enter in the terminal prints a fresh URL (another tab, another browser). Every response carries
// the demo's Content-Security-Policy (scripts/demo-guard.mjs). Ctrl-C stops the bridge (and every
// agent) and the server.
//
// Tests and scripts import startDemo() instead of spawning this file.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBundle, ensureDemoBuild } from './demo-build.mjs';
import { bridgeConfigBody } from './demo-guard.mjs';
import { serveDemo } from './demo-server.mjs';

export { ensureBundle, ensureDemoBuild };

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

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

/**
 * Starts the demo: its web server (demo/dist/, built first when missing or stale; with `dev`, Vite on
 * the sources) and silo-bridge allowing exactly the demo's origin.
 *
 * Options: `port` (demo port; default 5173 or the next free one, `0` for any), `bridgePort` (default
 * any free port), `agentCommand` (an array; default the reference agent), `agentArgs` (extra flags for
 * the reference agent), `sessionsDir` (the reference agent's session files), `cwd` (handed to the page
 * as the sessions' working directory), `log` (a function for the [silo] lines; default console.log),
 * `onBridgeExit` (called with the exit code when the bridge exits on its own), `bridgeLog` (called with
 * each line the bridge logs, instead of the terminal's stderr), `noBridge` (serve the demo only;
 * `bridge` is then undefined), `dev` (Vite's dev server: developers only).
 *
 * Resolves once both are up, to `{ url, origin, bridge, launchUrl(), stopBridge(), stop() }`: `url` is
 * the page to open (its one-time launch key lets one tab in), `launchUrl()` mints another such URL,
 * `bridge` is the bridge's announcement; `stopBridge()` ends the bridge and its agents and keeps the
 * demo served (the page then works offline); `stop()` ends everything. Rejects when a build fails, the
 * port cannot be had, or the bridge exits before announcing itself.
 */
export async function startDemo(options = {}) {
  const log = options.log ?? console.log;
  const agentCommand = options.agentCommand ?? referenceAgent(options.agentArgs ?? []);
  const cwd = options.cwd ?? process.cwd();
  let bridgeInfo;
  if (options.dev) ensureBundle(log);
  else ensureDemoBuild(log);
  const site = await serveDemo({
    port: options.port,
    dev: options.dev === true,
    bridgeConfig: () =>
      bridgeInfo && bridgeConfigBody(bridgeInfo, { cwd, agentCommand, reference: !options.agentCommand }),
  });
  const demoOrigin = site.origin;
  if (options.dev) log('[silo] developer mode: Vite serves the sources (loopback; see docs/testing.md)');

  if (options.noBridge) {
    // Without a bridge the page holds no secret: any tab of the demo shows the journal.
    const url = `${demoOrigin}/`;
    log('[silo] no bridge: the demo shows the history and transcripts journaled in this browser');
    log(`[silo] open ${url}`);
    return {
      url,
      origin: demoOrigin,
      bridge: undefined,
      launchUrl: () => url,
      stopBridge: async () => {},
      stop: site.close,
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
      stdio: ['ignore', 'pipe', options.bridgeLog ? 'pipe' : 'inherit'],
      env: options.sessionsDir
        ? { ...process.env, SILO_AGENT_SESSIONS_DIR: options.sessionsDir }
        : process.env,
    },
  );
  if (options.bridgeLog) createInterface({ input: bridge.stderr }).on('line', options.bridgeLog);
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
    await site.close();
    throw e;
  }
  const url = site.launchUrl();
  log(`[silo] agent: ${agentCommand.join(' ')}`);
  log(`[silo] bridge: ${info.connection} (allows ${demoOrigin} only)`);
  log(`[silo] open ${url}`);
  return {
    url,
    origin: demoOrigin,
    bridge: info,
    launchUrl: () => site.launchUrl(),
    stopBridge,
    async stop() {
      await stopBridge();
      await site.close();
    },
  };
}

async function main() {
  const args = process.argv.slice(2);
  const option = (name) => {
    const i = args.indexOf(name);
    return i === -1 ? undefined : args[i + 1];
  };
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
    dev: args.includes('--dev'),
    onBridgeExit: (code) => {
      console.error(`[silo] the bridge exited (${code}); stopping`);
      void stop(1);
    },
  });
  // Enter prints a fresh one-time URL: a second tab, another browser, a browser restarted.
  if (demo.bridge && process.stdin.isTTY) {
    console.log('[silo] each URL opens one tab: press Enter here for another');
    createInterface({ input: process.stdin }).on('line', () =>
      console.log(`[silo] open ${demo.launchUrl()}`),
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e) => {
    console.error(`[silo] ${e.message}`);
    process.exit(1);
  });
}
