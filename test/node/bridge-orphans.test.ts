// Agent processes never outlive their connection: a child in the agent's group that ignores SIGTERM
// and a `setsid -f` daemon that left the group and the tree at once (agent/test/orphan-agent.mjs)
// are both ended when the socket closes, and when the bridge gets SIGTERM — SIGKILL after the grace
// period, though the agent (the group's leader) exited at the first SIGTERM.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { WebSocket } from 'ws';
import { bridgeProtocols } from '../../bridge/protocol.ts';
import { processAlive, ROOT, startBridgeProcess } from '../support/bridge-process.mjs';
import { pollUntil } from '../support/poll.ts';

const ORIGIN = 'http://localhost:5173';

/** The pids the orphan agent wrote, once both are there. */
async function orphans(file: string): Promise<{ group: number; setsid: number }> {
  const read = () => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  await pollUntil(
    () => /group \d+/.test(read()) && /setsid \d+/.test(read()),
    'the agent started both children',
  );
  const pid = (tag: string) => Number(new RegExp(`${tag} (\\d+)`).exec(read())![1]);
  return { group: pid('group'), setsid: pid('setsid') };
}

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

describe('agent processes do not outlive their connection', { timeout: 60_000 }, () => {
  const start = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'silo-orphans-'));
    const file = join(dir, 'pids');
    const bridge = await startBridgeProcess({
      allowOrigin: [ORIGIN],
      agentCommand: [process.execPath, join(ROOT, 'agent/test/orphan-agent.mjs'), file],
    });
    const ws = new WebSocket(bridge.url, bridgeProtocols(bridge.token), { origin: ORIGIN });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const pids = await orphans(file);
    assert.ok(processAlive(pids.group) && processAlive(pids.setsid), 'both children run');
    assert.notEqual(parentOf(pids.setsid), bridge.agentPids()[0], 'the daemon left the agent’s tree');
    assert.match(readFileSync(`/proc/${pids.setsid}/environ`, 'latin1'), /\0SILO_CONNECTION=[\w-]+\0/);
    return { bridge, ws, pids, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  };

  test('closing the socket ends the SIGTERM-ignoring child and the setsid daemon', async () => {
    const { bridge, ws, pids, cleanup } = await start();
    try {
      ws.close();
      await pollUntil(
        () => !processAlive(pids.group) && !processAlive(pids.setsid),
        () => `both ended (group ${processAlive(pids.group)}, setsid ${processAlive(pids.setsid)})`,
        10_000,
      );
      assert.ok(bridge.log.some((l) => /socket closed/.test(l)));
    } finally {
      for (const pid of Object.values(pids)) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
      await bridge.stop();
      cleanup();
    }
  });

  test('SIGTERM to the bridge ends them before the bridge exits', async () => {
    const { bridge, pids, cleanup } = await start();
    try {
      const exit = await bridge.stop();
      assert.equal(exit.code, 0);
      assert.deepEqual(
        { group: processAlive(pids.group), setsid: processAlive(pids.setsid) },
        { group: false, setsid: false },
        'nothing left running once the bridge has exited',
      );
    } finally {
      for (const pid of Object.values(pids)) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
      cleanup();
    }
  });
});
