// silo-bridge's command line: --help, --version and usage errors as a CLI answers them (run as a
// process: exit codes and streams), the closest option to a mistyped one, `--demo-agent`, and the
// close reason of an agent that ended before it answered (cut to a WebSocket close reason's 123
// bytes without splitting a character).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { expandDemoAgent } from '../../agent/demo-agent.ts';
import { closeReason } from '../../bridge/socket.ts';
import { closestOption, OPTION_NAMES, USAGE } from '../../bridge/usage.ts';

const ROOT = join(fileURLToPath(import.meta.url), '../../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Runs `silo-bridge args…` from the source to its end (none of these starts a bridge). */
function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bridge/cli.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('--help and -h print the usage on stdout and exit 0, even beside other options', () => {
  for (const args of [['--help'], ['-h'], ['--port', '0', '--help', '--', 'agent']]) {
    const r = cli(...args);
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, `${USAGE}\n`);
    assert.equal(r.stderr, '');
  }
});

test('--version prints the version in package.json and exits 0', () => {
  const r = cli('--version');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, `silo-bridge ${VERSION}\n`);
});

test('a usage error exits 2 and says what is wrong on stderr; a wrong option names the closest right one', () => {
  const typo = cli('--allow-orgin', 'http://localhost:5173', '--', 'agent');
  assert.equal(typo.status, 2);
  assert.equal(typo.stdout, '');
  assert.match(typo.stderr, /unknown option --allow-orgin \(did you mean --allow-origin\?\)/);
  const missing = cli('--port', '0');
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /missing agent command after --/);
  const badValue = cli('--port', 'x', '--', 'agent');
  assert.equal(badValue.status, 2);
  assert.match(badValue.stderr, /--port needs an integer/);
});

test('closestOption suggests only options that are close, from the one list in the usage text', () => {
  assert.ok(OPTION_NAMES.includes('--allow-origin') && OPTION_NAMES.includes('-h'));
  assert.ok(OPTION_NAMES.includes('--help') && OPTION_NAMES.includes('--max-pending-per-peer'));
  assert.equal(closestOption('--allow-orgin'), '--allow-origin');
  assert.equal(closestOption('--prot'), '--port');
  assert.equal(closestOption('--tokenfile'), '--token-file');
  assert.equal(closestOption('-help'), '--help');
  assert.equal(closestOption('--allow-origin=http://x'), '--allow-origin');
  assert.equal(closestOption('--frobnicate'), undefined);
});

test('--demo-agent becomes the reference agent, run by this Node, with the words after -- as its flags', () => {
  assert.deepEqual(expandDemoAgent(['--port', '0', '--demo-agent', '--', '--sessions-dir', '/tmp/s']), [
    '--port',
    '0',
    '--',
    process.execPath,
    '--import',
    'tsx',
    join(ROOT, 'agent/cli.ts'),
    '--sessions-dir',
    '/tmp/s',
  ]);
  assert.deepEqual(expandDemoAgent(['--demo-agent']), [
    '--',
    process.execPath,
    '--import',
    'tsx',
    join(ROOT, 'agent/cli.ts'),
  ]);
});

test('without --demo-agent the command line is left alone (a --demo-agent after -- is the agent’s)', () => {
  const argv = ['--port', '0', '--', 'my-agent', '--demo-agent'];
  assert.deepEqual(expandDemoAgent(argv), argv);
});

test('a close reason is at most 123 bytes of UTF-8, cut between characters', () => {
  assert.equal(closeReason('agent exited with code 3: boom'), 'agent exited with code 3: boom');
  const long = `agent exited with code 1: ${'é'.repeat(100)}`;
  const cut = closeReason(long);
  assert.equal(Buffer.byteLength(cut), 122, '26 ASCII bytes and 48 two-byte characters');
  assert.equal(cut, `agent exited with code 1: ${'é'.repeat(48)}`);
});
