/**
 * `silo-bridge` entry point: answers `--help` and `--version`, parses the command line, starts the
 * bridge, prints where to connect, and shuts everything down on SIGINT, SIGTERM and SIGHUP (the
 * terminal closed). Exit codes: 0 after a shutdown, `--help` or `--version`; 2 for a usage error;
 * 1 when the bridge cannot start.
 */

import { expandDemoAgent } from '../agent/demo-agent.ts';
import { BridgeUsageError, parseBridgeArgs } from './options.ts';
import { ANNOUNCEMENT_PREFIX, type BridgeAnnouncement } from './protocol.ts';
import { startBridge } from './server.ts';
import { infoRequest, packageVersion, USAGE } from './usage.ts';

// Once the terminal is gone (SIGHUP), writing to it fails: that must not stop the shutdown.
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});
const log = (message: string) => process.stderr.write(`[silo-bridge] ${message}\n`);

const argv = process.argv.slice(2);
const info = infoRequest(argv);
if (info) {
  process.stdout.write(info === 'help' ? `${USAGE}\n` : `silo-bridge ${packageVersion()}\n`);
  process.exit(0);
}

let options: ReturnType<typeof parseBridgeArgs>;
try {
  options = parseBridgeArgs(expandDemoAgent(argv));
} catch (error) {
  if (error instanceof BridgeUsageError) {
    process.stderr.write(`silo-bridge: ${error.message}\n`);
    process.exit(2);
  }
  throw error;
}

if (argv.includes('--token')) {
  log(
    'warning: --token is visible to every local user (ps, /proc); prefer SILO_BRIDGE_TOKEN or --token-file',
  );
}

const bridge = await startBridge(options, log).catch((error: Error) => {
  log(`cannot start on ${options.host}:${options.port}: ${error.message}`);
  process.exit(1);
});

const origins = bridge.origins.length > 0 ? bridge.origins.join(' ') : '(none: pass --allow-origin)';
process.stdout.write(
  `silo-bridge ready — paste into Silo: ${bridge.connection}\n` +
    `  agent: ${[options.agentCommand, ...options.agentArgs].join(' ')}\n` +
    `  allowed origins: ${origins}\n`,
);
const announcement: BridgeAnnouncement = {
  url: bridge.url,
  token: bridge.token,
  origins: bridge.origins,
  connection: bridge.connection,
  port: bridge.port,
  pid: bridge.pid,
};
process.stdout.write(`${ANNOUNCEMENT_PREFIX}${JSON.stringify(announcement)}\n`);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  log(`${signal}: ending ${bridge.agents.size} agent(s)`);
  void bridge.close().then(() => {
    log('stopped');
    process.exit(0);
  });
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal));
