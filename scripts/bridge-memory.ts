/**
 * Re-runnable measurement of the bridge's memory under a long flood: the real bridge and reference
 * agent (`/scenario flood N`), and a Node WebSocket client that reads at most `rate` updates a second
 * (a browser journaling the flood is about that fast), pausing the socket when it is ahead. Prints the
 * bridge's peak RSS (VmHWM) and RSS at the end, and whether every update arrived in order.
 *
 *   npm run measure:bridge-memory -- [--updates 1000000] [--rate 4000] [--max-buffered-bytes N]
 *
 * Linux only (/proc). Exits 1 if an update was lost or out of order. 1,000,000 updates at 4,000/s take
 * a little over 4 minutes.
 */
import { WebSocket } from 'ws';
import { bridgeProtocols } from '../bridge/protocol.ts';
import { procStatusKiB, startBridgeProcess } from '../test/support/bridge-process.mjs';

const ORIGIN = 'http://localhost:5173';
const argv = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = argv.indexOf(name);
  const n = i >= 0 ? Number(argv[i + 1]) : fallback;
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${name} needs a positive integer`);
  return n;
};
const updatesWanted = flag('--updates', 1_000_000);
const rate = flag('--rate', 4_000);
const buffered = argv.includes('--max-buffered-bytes') ? flag('--max-buffered-bytes', 1) : undefined;

const bridge = await startBridgeProcess({
  allowOrigin: [ORIGIN],
  ...(buffered ? { bridgeArgs: ['--max-buffered-bytes', String(buffered)] } : {}),
});
const mib = (kib: number) => `${Math.round(kib / 1024)} MiB`;
try {
  const client = new WebSocket(bridge.url, bridgeProtocols(bridge.token), { origin: ORIGIN });
  await new Promise((r, j) => {
    client.once('open', r);
    client.once('error', j);
  });
  const replies = new Map<number, { result?: { sessionId?: string; stopReason?: string } }>();
  const waiters = new Map<number, () => void>();
  let updates = 0;
  let outOfOrder = 0;
  let started = 0;
  let paused = false;
  client.on('message', (data) => {
    const m = JSON.parse(String(data));
    if (m.method !== 'session/update') {
      replies.set(m.id, m);
      waiters.get(m.id)?.();
      return;
    }
    if (m.params.update.sessionUpdate !== 'agent_message_chunk') return;
    if (m.params.update.content.text !== `${updates} `) outOfOrder++;
    updates++;
    // Read no faster than `rate`: pause the socket until the clock catches up.
    const ahead = updates / rate - (performance.now() - started) / 1000;
    if (ahead > 0.05 && !paused) {
      paused = true;
      client.pause();
      setTimeout(() => {
        paused = false;
        client.resume();
      }, ahead * 1000);
    }
  });
  const request = (id: number, method: string, params: object) =>
    new Promise<void>((resolve) => {
      waiters.set(id, resolve);
      client.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  await request(0, 'initialize', { protocolVersion: 1, clientCapabilities: {} });
  await request(1, 'session/new', { cwd: '/tmp', mcpServers: [] });
  const sessionId = replies.get(1)?.result?.sessionId;
  const before = procStatusKiB(bridge.pid, 'VmRSS');
  started = performance.now();
  await request(2, 'session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text: `/scenario flood ${updatesWanted}` }],
  });
  const seconds = (performance.now() - started) / 1000;
  const lines = [
    `bridge RSS before the flood: ${mib(before)}`,
    `bridge peak RSS after ${updatesWanted} updates read at ${rate} updates/s: ${mib(procStatusKiB(bridge.pid, 'VmHWM'))}`,
    `bridge RSS at the end: ${mib(procStatusKiB(bridge.pid, 'VmRSS'))}`,
    `updates received: ${updates} of ${updatesWanted}, out of order: ${outOfOrder}, in ${seconds.toFixed(0)} s (${Math.round(updates / seconds)} updates/s)`,
    `stop reason: ${replies.get(2)?.result?.stopReason}`,
  ];
  console.log(lines.join('\n'));
  client.close();
  process.exitCode = updates === updatesWanted && outOfOrder === 0 ? 0 : 1;
} finally {
  await bridge.stop();
}
