// silo-bridge's command line around the agent: `--demo-agent` and the close reason of an agent that
// ended before it answered (cut to a WebSocket close reason's 123 bytes without splitting a character).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { expandDemoAgent } from '../../agent/demo-agent.ts';
import { closeReason } from '../../bridge/server.ts';

const ROOT = join(fileURLToPath(import.meta.url), '../../..');

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
