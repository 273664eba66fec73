// `npm start`: the demo page (Vite, demo/) + silo-bridge running the reference agent.
//
//   npm start                                   reference agent (sessions in .silo-agent-sessions/)
//   npm start -- --agent "npx @agentclientprotocol/claude-agent-acp"   any other stdio ACP agent
//   npm start -- --bridge-port 7420             fixed bridge port (default: any free port)
//
// The bridge allows exactly the demo's origin. The page learns the bridge URL and token from
// GET /.silo-bridge.json ({url, token, connection, origins}), served by Vite only to the demo's own
// origin (same-origin requests; no CORS headers), so nothing needs to be copied by hand.
// Ctrl-C stops the bridge (and every agent) and Vite.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

/** Splits a command line on spaces, keeping "double" or 'single' quoted parts together. */
function splitCommand(text) {
  const parts = [];
  for (const m of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) parts.push(m[1] ?? m[2] ?? m[3]);
  return parts;
}

function option(name) {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
}

const agentCommand = option('--agent')
  ? splitCommand(option('--agent'))
  : [process.execPath, '--import', 'tsx', join(root, 'agent/cli.ts')];
const bridgePort = option('--bridge-port') ?? '0';

let bridgeInfo;
let demoOrigin;

/** Serves the bridge's URL and token to the demo page itself, and to nobody else. */
const bridgeInfoPlugin = {
  name: 'silo-bridge-info',
  configureServer(server) {
    server.middlewares.use('/.silo-bridge.json', (req, res) => {
      const origin = req.headers.origin;
      const site = req.headers['sec-fetch-site'];
      if ((origin && origin !== demoOrigin) || (site && site !== 'same-origin' && site !== 'none')) {
        res.statusCode = 403;
        res.end('forbidden\n');
        return;
      }
      if (!bridgeInfo) {
        res.statusCode = 503;
        res.end('bridge not ready\n');
        return;
      }
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('Cache-Control', 'no-store');
      res.end(JSON.stringify(bridgeInfo));
    });
  },
};

const vite = await createServer({
  configFile: join(root, 'vite.config.ts'),
  logLevel: 'warn',
  plugins: [bridgeInfoPlugin],
});
await vite.listen();
const pageUrl = vite.resolvedUrls?.local[0];
demoOrigin = new URL(pageUrl).origin;

const bridge = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    join(root, 'bridge/cli.ts'),
    '--port',
    bridgePort,
    '--allow-origin',
    demoOrigin,
    '--',
    ...agentCommand,
  ],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
);
bridge.stdout.setEncoding('utf8');
let out = '';
bridge.stdout.on('data', (chunk) => {
  out += chunk;
  const lines = out.split('\n');
  out = lines.pop() ?? '';
  for (const line of lines) {
    if (line.startsWith('SILO_BRIDGE ')) {
      bridgeInfo = JSON.parse(line.slice('SILO_BRIDGE '.length));
      console.log(`[silo] agent: ${agentCommand.join(' ')}`);
      console.log(`[silo] bridge: ${bridgeInfo.connection} (allows ${demoOrigin} only)`);
      console.log(`[silo] open ${pageUrl}`);
    }
  }
});

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  if (bridge.exitCode === null && bridge.signalCode === null) {
    bridge.kill('SIGTERM');
    await new Promise((resolve) => bridge.once('exit', resolve));
  }
  await vite.close();
  process.exit(code);
}
bridge.once('exit', (code) => {
  if (!stopping) {
    console.error(`[silo] the bridge exited (${code}); stopping`);
    void stop(1);
  }
});
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
