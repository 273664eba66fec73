// Unit tests of the bridge's bound on sockets not yet upgraded (bridge/admission.ts), decided by
// Admission alone with the clock in the test's hands: which socket gives way to a newcomer, that a
// burst is not cut down before it is read, and the upgrade deadline (with a real server: applied only
// once what the socket sent in time is read). (The flood itself, against the real bridge at a low
// descriptor limit: test/node/attacks.test.ts.)
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { describe, mock, test } from 'node:test';
import { Admission, EVICTION_AGE_MS, HANDSHAKE_DEADLINE_MS } from '../../bridge/admission.ts';

/** What admission sees of a socket: its address, `destroy()`, and its `close` event. */
class FakeSocket extends EventEmitter {
  destroyed = false;
  constructor(
    readonly name: string,
    readonly remoteAddress: string,
  ) {
    super();
  }
  destroy() {
    this.destroyed = true;
    queueMicrotask(() => this.emit('close'));
  }
}

describe('bridge admission: sockets not yet upgraded', () => {
  const open = (a: Admission<FakeSocket>, peer: string, n: number, tag = peer) =>
    Array.from({ length: n }, (_, i) => {
      const socket = new FakeSocket(`${tag}#${i}`, peer);
      a.admit(socket);
      return socket;
    });
  const destroyed = (sockets: FakeSocket[]) => sockets.filter((s) => s.destroyed).map((s) => s.name);
  /** Runs `body` with the clock and the timers in the test's hands. */
  const withClock = (body: () => void) => {
    mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    try {
      body();
    } finally {
      mock.timers.reset();
    }
  };

  test('over the bound for its address, a newcomer makes that address’s oldest waiting socket give way', () =>
    withClock(() => {
      const a = new Admission<FakeSocket>({ perPeer: 3, total: 100 });
      const attacker = open(a, '127.0.0.2', 3);
      mock.timers.tick(EVICTION_AGE_MS);
      attacker.push(...open(a, '127.0.0.2', 2, 'later'));
      const other = open(a, '127.0.0.3', 2);
      assert.deepEqual(destroyed(attacker), ['127.0.0.2#0', '127.0.0.2#1']);
      assert.deepEqual(destroyed(other), [], 'another address is not touched');
      assert.equal(a.size, 5);
      assert.equal(a.evicted, 2);
    }));

  test('over the bound in all, the oldest of all gives way, never the newcomer', () =>
    withClock(() => {
      const a = new Admission<FakeSocket>({ perPeer: 100, total: 4 });
      const flood = [...open(a, '127.0.0.2', 2), ...open(a, '127.0.0.3', 2)];
      mock.timers.tick(EVICTION_AGE_MS);
      const [user] = open(a, '127.0.0.1', 1, 'user');
      assert.deepEqual(destroyed(flood), ['127.0.0.2#0']);
      assert.equal(user!.destroyed, false);
      const more = open(a, '127.0.0.4', 3);
      assert.deepEqual(destroyed(flood), ['127.0.0.2#0', '127.0.0.2#1', '127.0.0.3#0', '127.0.0.3#1']);
      assert.equal(user!.destroyed, false, 'the user is the oldest now, and too young to give way');
      mock.timers.tick(EVICTION_AGE_MS);
      open(a, '127.0.0.4', 1, 'last');
      assert.equal(user!.destroyed, true, 'once old enough it gives way');
      assert.deepEqual(destroyed(more), []);
    }));

  test('a burst is not cut down before it is read: young sockets give way only at twice the bound', () =>
    withClock(() => {
      const a = new Admission<FakeSocket>({ perPeer: 4, total: 100 });
      const burst = open(a, '127.0.0.1', 8);
      assert.deepEqual(destroyed(burst), [], 'eight at once (twice the bound) all wait');
      const ninth = open(a, '127.0.0.1', 1, 'ninth');
      assert.deepEqual(destroyed(burst), ['127.0.0.1#0'], 'at twice the bound, the oldest gives way');
      assert.equal(ninth[0]!.destroyed, false);
      assert.equal(a.size, 8);
    }));

  test('an upgraded or closed socket leaves the count; one still waiting at the deadline is destroyed', async () => {
    mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    try {
      const a = new Admission<FakeSocket>({ perPeer: 10, total: 10 });
      const [upgraded, closed, waiting] = open(a, '127.0.0.1', 3);
      a.upgraded(upgraded!);
      closed!.emit('close');
      assert.equal(a.size, 1);
      mock.timers.tick(HANDSHAKE_DEADLINE_MS - 1);
      await afterIo();
      assert.equal(waiting!.destroyed, false);
      mock.timers.tick(1);
      await afterIo();
      assert.deepEqual([upgraded!.destroyed, closed!.destroyed, waiting!.destroyed], [false, false, true]);
      assert.equal(a.size, 0);
      assert.equal(a.expired, 1);
    } finally {
      mock.timers.reset();
    }
  });

  test('an upgrade sent in time is not cut when the bridge reads it after the deadline (a stalled event loop)', async () => {
    // A real server wired as server.ts wires it, a 50 ms deadline, and an event loop that stalls for
    // 200 ms right after the connection: the client's upgrade is in the socket by then, unread, when
    // the deadline's timer runs (timers run before I/O in an event loop's turn).
    const deadlineMs = 50;
    const a = new Admission<Socket>({ perPeer: 10, total: 10, deadlineMs });
    const server = createServer();
    server.on('connection', (socket: Socket) => {
      a.admit(socket);
      const until = Date.now() + 4 * deadlineMs;
      while (Date.now() < until); // the stall
    });
    server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
      a.upgraded(req.socket);
      socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const client = connect(port, '127.0.0.1', () =>
        client.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n`),
      );
      let answer = '';
      client.setEncoding('utf8').on('data', (d: string) => {
        answer += d;
      });
      await new Promise<void>((r) => client.on('close', () => r()).on('error', () => undefined));
      assert.match(answer, /^HTTP\/1\.1 101/, 'the upgrade was answered, not cut at the deadline');
      assert.equal(a.expired, 0);
    } finally {
      server.close();
    }
  });
});

/** Resolves after the event loop's current turn, its I/O included (what the deadline waits for). */
const afterIo = () => new Promise<void>((r) => setImmediate(r));
