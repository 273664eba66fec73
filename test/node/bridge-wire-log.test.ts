// What the bridge records of the frames it relays (bridge/wire-log.ts): `--debug` logs every frame
// whole (it used to cut them at 2,000 characters), and `--wire-log FILE` keeps one JSON line per frame
// that reads back to exactly the frames the client sent and received, in order.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { WebSocket } from 'ws';
import { bridgeProtocols } from '../../bridge/protocol.ts';
import { readWireLog } from '../../bridge/wire-log.ts';
import { ROOT, startBridgeProcess } from '../support/bridge-process.mjs';
import { pollUntil } from '../support/poll.ts';

const ORIGIN = 'http://localhost:5173';

test('--debug logs whole frames and --wire-log keeps every frame, both ways, as JSON lines that read back', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'silo-wire-'));
  const file = join(dir, 'wire.jsonl');
  const bridge = await startBridgeProcess({
    allowOrigin: [ORIGIN],
    bridgeArgs: ['--debug', '--wire-log', file],
  });
  const ws = new WebSocket(bridge.url, bridgeProtocols(bridge.token), { origin: ORIGIN });
  try {
    const received: string[] = [];
    const sent: string[] = [];
    ws.on('message', (data) => received.push(String(data)));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const send = (message: object) => {
      const frame = JSON.stringify({ jsonrpc: '2.0', ...message });
      sent.push(frame);
      ws.send(frame);
    };
    const answered = (id: number) => received.some((f) => (JSON.parse(f) as { id?: number }).id === id);
    send({ id: 0, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
    send({ id: 1, method: 'session/new', params: { cwd: dir, mcpServers: [] } });
    await pollUntil(() => answered(1), 'session/new answered');
    const sessionId = (
      JSON.parse(received.find((f) => f.includes('"id":1'))!) as { result: { sessionId: string } }
    ).result.sessionId;
    const long = `a long prompt ${'é'.repeat(5000)} the end`;
    send({ id: 2, method: 'session/prompt', params: { sessionId, prompt: [{ type: 'text', text: long }] } });
    await pollUntil(() => answered(2), 'the prompt answered');
    // One 10 KB agent message chunk.
    send({
      id: 3,
      method: 'session/prompt',
      params: { sessionId, prompt: [{ type: 'text', text: '/scenario big 0.01' }] },
    });
    await pollUntil(() => answered(3), 'the big chunk sent');
    const big = received.find((f) => f.includes('x'.repeat(10_000)))!;
    assert.ok(big, 'a frame of over 10,000 characters reached the client');

    const records = readWireLog(file);
    const frames = (dir: string) => records.filter((r) => r.dir === dir).map((r) => r.frame);
    assert.deepEqual(frames('client->agent'), sent, 'what the client sent, exactly and in order');
    assert.deepEqual(frames('agent->client'), received, 'what the client received, exactly and in order');
    for (const r of records) {
      assert.equal(r.conn, 'conn 1');
      assert.ok(!Number.isNaN(Date.parse(r.t)) && r.t.endsWith('Z'), r.t);
    }
    assert.equal(statSync(file).mode & 0o777, 0o600, 'only the user may read the conversation');

    const logged = bridge.log.filter((l) => l.includes('conn 1 client->agent') && l.includes(long));
    assert.equal(logged.length, 1, '--debug logged the long prompt once');
    assert.ok(logged[0]!.endsWith(sent.find((f) => f.includes(long))!), '…whole, to its last character');
    assert.ok(bridge.log.includes(`[silo-bridge] conn 1 agent->client ${big}`), 'the big frame logged whole');
  } finally {
    ws.terminate();
    await bridge.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a wire log other users can read is refused at start; a cut-off last line is reported, not skipped', () => {
  const dir = mkdtempSync(join(tmpdir(), 'silo-wire-'));
  try {
    const open = join(dir, 'open.jsonl');
    writeFileSync(open, '', { mode: 0o644 });
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'bridge/cli.ts'), '--wire-log', open, '--', 'true'],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(r.status, 1);
    assert.match(
      r.stderr,
      /--wire-log .*open\.jsonl is accessible to other users \(mode 644\): run chmod 600 /,
    );
    const cut = join(dir, 'cut.jsonl');
    writeFileSync(
      cut,
      `${JSON.stringify({ t: 'x', conn: 'conn 1', dir: 'agent->client', frame: '{}' })}\n{"t":"x","co`,
    );
    assert.throws(() => readWireLog(cut), /cut\.jsonl:2: not a wire record/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
