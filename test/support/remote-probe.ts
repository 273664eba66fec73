// Run by test/node/bridge-remote.test.ts inside a fresh network namespace (`unshare -n`) whose
// loopback device also carries 10.77.0.1, a non-loopback address: starts bridges bound to 0.0.0.0
// and connects to them by that address, as another machine would. Prints one JSON line of outcomes.
import { WebSocket } from 'ws';
import { bridgeProtocols } from '../../bridge/protocol.ts';
import { startBridgeProcess } from './bridge-process.mjs';

const ADDRESS = '10.77.0.1';
const ORIGIN = 'http://10.77.0.1:5173';

/** 101 when the upgrade is accepted, else the HTTP status of the refusal. */
function status(url: string, token: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, bridgeProtocols(token), { origin: ORIGIN, headers });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
    });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('error', (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}

const out: Record<string, number | string> = {};
const remote = ['--host', '0.0.0.0', '--allow-non-loopback'];
const withName = await startBridgeProcess({
  allowOrigin: [ORIGIN],
  bridgeArgs: [...remote, '--allow-host', ADDRESS, '--allow-host', 'silo.test'],
});
try {
  const url = `ws://${ADDRESS}:${withName.port}`;
  out.byAddress = await status(url, withName.token);
  out.byName = await status(url, withName.token, { Host: `silo.test:${withName.port}` });
  out.otherName = await status(url, withName.token, { Host: `evil.example:${withName.port}` });
  out.wrongToken = await status(url, `${withName.token}x`);
  out.spawned = withName.spawnedCount();
} finally {
  await withName.stop();
}
const without = await startBridgeProcess({ allowOrigin: [ORIGIN], bridgeArgs: remote });
try {
  out.withoutAllowHost = await status(`ws://${ADDRESS}:${without.port}`, without.token);
} finally {
  await without.stop();
}
process.stdout.write(`${JSON.stringify(out)}\n`);
