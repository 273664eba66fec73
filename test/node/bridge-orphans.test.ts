// Agent processes never outlive their connection or the bridge. The agent (agent/test/orphan-agent.mjs)
// starts three children that ignore SIGTERM: one in its process group, one in its group with an
// empty environment (`env -i`, found only through the group), and a `setsid -f` daemon that left the
// group, the tree and the session at once (found only through its environment). All are ended, with
// the agent, when the socket closes; when the bridge gets SIGTERM or SIGHUP (the terminal closed),
// before it exits; and when the bridge is SIGKILLed, by its watchdog (bridge/watchdog.ts) —
// SIGKILL after the grace period, though the agent (the group's leader) exited at the first SIGTERM.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { WebSocket } from 'ws';
import { bridgeProtocols } from '../../bridge/protocol.ts';
import { childPids, processAlive, ROOT, startBridgeProcess } from '../support/bridge-process.mjs';
import { pollUntil } from '../support/poll.ts';

const ORIGIN = 'http://localhost:5173';
const TAGS = ['group', 'envless', 'setsid'] as const;
type Pids = Record<(typeof TAGS)[number] | 'agent', number>;

/** The pids the orphan agent wrote, once all are there. */
async function orphans(file: string): Promise<Omit<Pids, 'agent'>> {
  const read = () => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  await pollUntil(
    () => TAGS.every((tag) => new RegExp(`${tag} \\d+`).test(read())),
    'the agent started its three children',
  );
  const pid = (tag: string) => Number(new RegExp(`${tag} (\\d+)`).exec(read())![1]);
  return { group: pid('group'), envless: pid('envless'), setsid: pid('setsid') };
}

function stat(pid: number): { ppid: number; pgrp: number } {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(fields[1]), pgrp: Number(fields[2]) };
}

const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'latin1');

/** Which of `pids` still run (not zombies). */
const running = (pids: Pids) => Object.entries(pids).filter(([, pid]) => processAlive(pid));

describe('agent processes do not outlive their connection or the bridge', { timeout: 90_000 }, () => {
  const start = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'silo-orphans-'));
    const file = join(dir, 'pids');
    const bridge = await startBridgeProcess({
      allowOrigin: [ORIGIN],
      agentCommand: [process.execPath, join(ROOT, 'agent/test/orphan-agent.mjs'), file],
    });
    const ws = new WebSocket(bridge.url, bridgeProtocols(bridge.token), { origin: ORIGIN });
    ws.on('error', () => {});
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const children = await orphans(file);
    const [agent] = bridge.agentPids();
    assert.ok(agent, 'the agent is the bridge’s child');
    assert.deepEqual(bridge.agentPids(), [agent], 'and the bridge’s only child (the watchdog is not one)');
    const pids: Pids = { agent, ...children };
    assert.deepEqual(running(pids).length, 4, 'all run');
    assert.equal(stat(pids.envless).pgrp, agent, 'the env -i child is in the agent’s group…');
    assert.doesNotMatch(environ(pids.envless), /SILO_CONNECTION/, '…and carries no mark');
    assert.notEqual(stat(pids.setsid).ppid, agent, 'the daemon left the agent’s tree…');
    assert.notEqual(stat(pids.setsid).pgrp, agent, '…and its group…');
    assert.match(environ(pids.setsid), /\0SILO_CONNECTION=[\w.-]+\0/, '…but carries the mark');
    const cleanup = () => {
      for (const [, pid] of running(pids)) process.kill(pid, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    };
    return { bridge, ws, pids, cleanup };
  };

  test('closing the socket ends the agent and its three children', async () => {
    const { bridge, ws, pids, cleanup } = await start();
    try {
      ws.close();
      await pollUntil(
        () => running(pids).length === 0,
        () => `all ended (still running: ${JSON.stringify(running(pids))})`,
        10_000,
      );
      assert.ok(bridge.log.some((l) => /socket closed/.test(l)));
    } finally {
      await bridge.stop();
      cleanup();
    }
  });

  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    test(`${signal} to the bridge ends them all before the bridge exits`, async () => {
      const { bridge, pids, cleanup } = await start();
      try {
        bridge.child.kill(signal);
        const exit = await bridge.exited;
        assert.deepEqual(exit, { code: 0, signal: null }, `the bridge shuts down on ${signal}`);
        assert.deepEqual(running(pids), [], 'nothing left running once the bridge has exited');
        assert.ok(bridge.log.some((l) => l.includes(`${signal}: ending 1 agent(s)`)));
      } finally {
        await bridge.stop();
        cleanup();
      }
    });
  }

  test('SIGKILL of the bridge: its watchdog ends them all', async () => {
    const { bridge, pids, cleanup } = await start();
    try {
      bridge.child.kill('SIGKILL');
      assert.equal((await bridge.exited).signal, 'SIGKILL');
      await pollUntil(
        () => running(pids).length === 0,
        () => `all ended (still running: ${JSON.stringify(running(pids))})`,
        15_000,
      );
      assert.deepEqual(childPids(bridge.pid), [], 'nothing is left of the bridge');
    } finally {
      await bridge.stop();
      cleanup();
    }
  });
});
