/**
 * `silo-bridge` entry point: parses the command line, starts the bridge, prints where to connect,
 * and shuts everything down on SIGINT/SIGTERM.
 */

import { expandDemoAgent } from '../agent/demo-agent.ts';
import { BridgeUsageError, parseBridgeArgs } from './options.ts';
import { ANNOUNCEMENT_PREFIX, type BridgeAnnouncement } from './protocol.ts';
import { startBridge } from './server.ts';

const log = (message: string) => process.stderr.write(`[silo-bridge] ${message}\n`);

let options: ReturnType<typeof parseBridgeArgs>;
try {
  options = parseBridgeArgs(expandDemoAgent(process.argv.slice(2)));
} catch (error) {
  if (error instanceof BridgeUsageError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  throw error;
}

if (process.argv.includes('--token')) {
  log(
    'warning: --token is visible to every local user (ps, /proc); prefer SILO_BRIDGE_TOKEN or --token-file',
  );
}

const bridge = await startBridge(options, log).catch((error: Error) => {
  log(`cannot listen on ${options.host}:${options.port}: ${error.message}`);
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
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
