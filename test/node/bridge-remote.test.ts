// Remote use of the bridge (--allow-non-loopback with --allow-host) and how the token is passed.
// The remote test runs in a network namespace this test creates (`unshare -n`, as root), where a
// non-loopback address exists without touching the machine's network (test/support/remote-probe.ts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { WebSocket } from 'ws';
import { BridgeUsageError, parseBridgeArgs } from '../../bridge/options.ts';
import { bridgeProtocols } from '../../bridge/protocol.ts';
import { USAGE } from '../../bridge/usage.ts';
import { ROOT, startBridgeProcess } from '../support/bridge-process.mjs';
import { pollUntil } from '../support/poll.ts';

const TOKEN = 'Tq3v9yH2mK8xZpL4wN6rB1cF7dJ0sA5eG-uY_iO3hVk';
const AGENT = ['--', 'agent'];
const ORIGIN = 'http://localhost:5173';

describe('remote use: --allow-non-loopback with --allow-host', { timeout: 120_000 }, () => {
  test('a client reaching the bridge by a non-loopback address is served only when that name is allowed', () => {
    const probe = spawnSync(
      'unshare',
      [
        '-n',
        '--',
        'sh',
        '-c',
        `ip link set lo up && ip addr add 10.77.0.1/32 dev lo && exec "${process.execPath}" --import tsx test/support/remote-probe.ts`,
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 100_000 },
    );
    assert.equal(probe.status, 0, probe.stderr);
    const outcome = JSON.parse(probe.stdout.trim().split('\n').pop()!);
    assert.deepEqual(outcome, {
      byAddress: 101,
      byName: 101,
      otherName: 403,
      wrongToken: 401,
      spawned: 2,
      withoutAllowHost: 403,
    });
  });

  test('--allow-host is normalized, needs --allow-non-loopback, and refuses junk', () => {
    const o = parseBridgeArgs(
      [
        '--host',
        '0.0.0.0',
        '--allow-non-loopback',
        '--allow-host',
        'Silo.LAN',
        '--allow-host',
        '[FE80::0:1]',
        ...AGENT,
      ],
      {},
    );
    assert.deepEqual(o.allowHosts, ['silo.lan', '[fe80::1]']);
    assert.throws(() => parseBridgeArgs(['--allow-host', 'silo.lan', ...AGENT], {}), /--allow-non-loopback/);
    assert.throws(
      () => parseBridgeArgs(['--allow-non-loopback', '--allow-host', 'a b', ...AGENT], {}),
      BridgeUsageError,
    );
  });

  test('a wildcard --allow-host is refused with a clear error (it would match only a literal *)', () => {
    for (const name of ['*', '*.lan', 'silo.*']) {
      assert.throws(
        () =>
          parseBridgeArgs(['--host', '0.0.0.0', '--allow-non-loopback', '--allow-host', name, ...AGENT], {}),
        (e: Error) =>
          e instanceof BridgeUsageError &&
          /wildcards are not supported; give each exact name/.test(e.message),
        name,
      );
    }
  });
});

describe('the token: environment, file, command line', { timeout: 60_000 }, () => {
  test('--help warns that --token is visible in ps and points to the alternatives', () => {
    assert.match(USAGE, /--token T .*every local user sees it in ps/s);
    assert.match(USAGE, /SILO_BRIDGE_TOKEN/);
    assert.match(USAGE, /--token-file F/);
    assert.throws(
      () => parseBridgeArgs(['--help'], {}),
      (e: Error) => e.message === USAGE,
    );
  });

  test('the token comes from SILO_BRIDGE_TOKEN or --token-file; a missing or weak file is refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'silo-token-'));
    try {
      assert.equal(parseBridgeArgs(AGENT, { SILO_BRIDGE_TOKEN: TOKEN }).token, TOKEN);
      writeFileSync(join(dir, 't'), `${TOKEN}\n`, { mode: 0o600 });
      assert.equal(parseBridgeArgs(['--token-file', join(dir, 't'), ...AGENT], {}).token, TOKEN);
      assert.throws(
        () => parseBridgeArgs(['--token-file', join(dir, 'missing'), ...AGENT], {}),
        /--token-file/,
      );
      writeFileSync(join(dir, 'weak'), 'short\n', { mode: 0o600 });
      assert.throws(() => parseBridgeArgs(['--token-file', join(dir, 'weak'), ...AGENT], {}), /at least 32/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a token file other users can read or write, an empty token file or an empty SILO_BRIDGE_TOKEN is refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'silo-token-'));
    const file = join(dir, 't');
    try {
      writeFileSync(file, `${TOKEN}\n`);
      for (const mode of [0o644, 0o640, 0o604, 0o620, 0o602]) {
        chmodSync(file, mode);
        assert.throws(
          () => parseBridgeArgs(['--token-file', file, ...AGENT], {}),
          (e: Error) =>
            e instanceof BridgeUsageError &&
            e.message ===
              `--token-file ${file} is accessible to other users (mode ${mode.toString(8)}): run chmod 600 ${file}`,
          mode.toString(8),
        );
      }
      chmodSync(file, 0o400);
      assert.equal(parseBridgeArgs(['--token-file', file, ...AGENT], {}).token, TOKEN, 'owner-only is fine');
      const empty = join(dir, 'empty');
      for (const text of ['', '\n', '   \nsecond line\n']) {
        writeFileSync(empty, text, { mode: 0o600 });
        assert.throws(
          () => parseBridgeArgs(['--token-file', empty, ...AGENT], {}),
          /--token-file .* is empty/,
          JSON.stringify(text),
        );
      }
      assert.throws(
        () => parseBridgeArgs(AGENT, { SILO_BRIDGE_TOKEN: '' }),
        /SILO_BRIDGE_TOKEN is set but empty/,
      );
      assert.throws(() => parseBridgeArgs(['--token'], {}), /--token needs a token/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('agents, and what they start, do not inherit SILO_BRIDGE_TOKEN', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'silo-token-env-'));
    const file = join(dir, 'env');
    // The agent reports its environment and that of a process it starts, then waits.
    const agent = [
      'sh',
      '-c',
      `env > "$1.agent"; sh -c 'env > "$0"' "$1.child"; exec sleep 100000`,
      'sh',
      file,
    ];
    const bridge = await startBridgeProcess({
      agentCommand: agent,
      allowOrigin: [ORIGIN],
      env: { SILO_BRIDGE_TOKEN: TOKEN },
    });
    const ws = new WebSocket(bridge.url, bridgeProtocols(TOKEN), { origin: ORIGIN });
    ws.on('error', () => {});
    try {
      assert.equal(bridge.token, TOKEN, 'the bridge took the token from its environment');
      await pollUntil(
        () => existsSync(`${file}.child`) && readFileSync(`${file}.child`, 'utf8').includes('PATH='),
        'the agent reported its environment',
      );
      for (const who of ['agent', 'child']) {
        const env = readFileSync(`${file}.${who}`, 'utf8');
        assert.match(env, /^SILO_CONNECTION=/m, `${who}: the environment was reported`);
        assert.doesNotMatch(env, /SILO_BRIDGE_TOKEN/, `${who}: no SILO_BRIDGE_TOKEN`);
        assert.ok(!env.includes(TOKEN), `${who}: the token appears nowhere`);
      }
    } finally {
      ws.terminate();
      await bridge.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('with --token-file the token appears nowhere in the bridge’s command line; --token logs a warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'silo-token-'));
    writeFileSync(join(dir, 't'), `${TOKEN}\n`, { mode: 0o600 });
    const fromFile = await startBridgeProcess({ bridgeArgs: ['--token-file', join(dir, 't')] });
    try {
      assert.equal(fromFile.token, TOKEN);
      assert.ok(!readFileSync(`/proc/${fromFile.pid}/cmdline`, 'utf8').includes(TOKEN), 'not in ps');
      assert.ok(!fromFile.log.some((l) => /warning: --token/.test(l)));
    } finally {
      await fromFile.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    const fromArg = await startBridgeProcess({ token: TOKEN });
    try {
      assert.ok(fromArg.log.some((l) => /warning: --token is visible to every local user/.test(l)));
    } finally {
      await fromArg.stop();
    }
  });
});
