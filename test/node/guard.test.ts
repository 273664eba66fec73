// Fast unit tests of the bridge's upgrade guard (bridge/guard.ts): every Host, Origin and token variant
// below is decided by checkUpgrade alone, with no process, socket or browser. Expected outcomes are
// written out; a guard that accepted any of the refused variants fails here in well under a second.
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { describe, test } from 'node:test';
import {
  checkUpgrade,
  duplicatedHeader,
  type GuardConfig,
  hostAllowed,
  MAX_TRACKED_PEERS,
  TokenFailures,
  tokenMatches,
} from '../../bridge/guard.ts';
import { isLoopbackHost } from '../../bridge/options.ts';

const PORT = 7420;
const ORIGIN = 'http://localhost:5173';
const TOKEN = 'Tq3v9yH2mK8xZpL4wN6rB1cF7dJ0sA5eG-uY_iO3hVk';

const config = (over: Partial<GuardConfig> = {}): GuardConfig => ({
  port: PORT,
  extraHosts: [],
  origins: new Set([ORIGIN]),
  allowMissingOrigin: false,
  token: TOKEN,
  maxConnections: 8,
  ...over,
});

/** An upgrade request as Node's parser hands it over: `headers` merged, `rawHeaders` as sent. */
function request(raw: [string, string][], url = '/') {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of raw) {
    const key = name.toLowerCase();
    // Node keeps the first Host and joins other repeated headers with ", ".
    if (headers[key] === undefined) headers[key] = value;
    else if (key !== 'host') headers[key] = `${headers[key]}, ${value}`;
  }
  return { url, headers, rawHeaders: raw.flat() };
}

const GOOD: [string, string][] = [
  ['Host', `127.0.0.1:${PORT}`],
  ['Origin', ORIGIN],
  ['Sec-WebSocket-Protocol', `acp, silo-token.${TOKEN}`],
];

/** The status checkUpgrade answers for `raw` (101 when it lets the upgrade through). */
function status(raw: [string, string][], over: Partial<GuardConfig> = {}, url = '/'): number {
  const state = { failures: new TokenFailures(1000), peer: '127.0.0.1', liveConnections: 0, now: 0 };
  return checkUpgrade(request(raw, url), config(over), state)?.status ?? 101;
}

/** GOOD with one header replaced (or removed when `value` is undefined). */
function withHeader(name: string, value: string | undefined): [string, string][] {
  const rest = GOOD.filter(([n]) => n !== name);
  return value === undefined ? rest : [...rest, [name, value]];
}

const withToken = (protocols: string) => withHeader('Sec-WebSocket-Protocol', protocols);

describe('bridge guard: token', () => {
  test('the exact token is accepted', () => {
    assert.equal(status(GOOD), 101);
    assert.equal(tokenMatches(TOKEN, TOKEN), true);
  });

  test('prefixes, suffixes, extensions and case changes of the token are refused (401)', () => {
    const variants = {
      'empty token': '',
      'one character': TOKEN.slice(0, 1),
      'prefix (all but the last character)': TOKEN.slice(0, -1),
      'first half': TOKEN.slice(0, TOKEN.length / 2),
      'suffix (all but the first character)': TOKEN.slice(1),
      'last half': TOKEN.slice(TOKEN.length / 2),
      'token plus one character': `${TOKEN}x`,
      'token twice': `${TOKEN}${TOKEN}`,
      'token with a leading space inside the protocol': ` ${TOKEN}x`,
      'upper-cased': TOKEN.toUpperCase(),
      'lower-cased': TOKEN.toLowerCase(),
    };
    for (const [what, candidate] of Object.entries(variants)) {
      assert.equal(tokenMatches(candidate, TOKEN), false, `tokenMatches: ${what}`);
      assert.equal(status(withToken(`acp, silo-token.${candidate}`)), 401, `upgrade: ${what}`);
    }
  });

  test('a missing token, a token without the prefix and two tokens at once are refused (401)', () => {
    assert.equal(status(withToken('acp')), 401, 'acp only');
    assert.equal(status(withHeader('Sec-WebSocket-Protocol', undefined)), 401, 'no protocols');
    assert.equal(status(withToken(`acp, ${TOKEN}`)), 401, 'token without silo-token.');
    assert.equal(status(withToken(`acp, silo-tokens.${TOKEN}`)), 401, 'another prefix');
    assert.equal(
      status(withToken(`acp, silo-token.wrong${'a'.repeat(40)}, silo-token.${TOKEN}`)),
      401,
      'wrong, right',
    );
    assert.equal(
      status(withToken(`acp, silo-token.${TOKEN}, silo-token.wrong${'a'.repeat(40)}`)),
      401,
      'right, wrong',
    );
  });

  test('the token in a second Sec-WebSocket-Protocol header counts like one header', () => {
    assert.equal(
      status([
        ...withHeader('Sec-WebSocket-Protocol', 'acp'),
        ['Sec-WebSocket-Protocol', `silo-token.${TOKEN}`],
      ]),
      101,
    );
    assert.equal(
      status([
        ...withHeader('Sec-WebSocket-Protocol', 'acp'),
        ['Sec-WebSocket-Protocol', `silo-token.${TOKEN}x`],
      ]),
      401,
    );
  });

  test('the right token without the acp subprotocol is refused (400)', () => {
    assert.equal(status(withToken(`silo-token.${TOKEN}`)), 400);
  });

  test('a peer over its failures gets 429 for wrong tokens until the window passes; the right token always passes', () => {
    const failures = new TokenFailures(2, 60_000);
    const from = (peer: string, now: number) => ({ failures, peer, liveConnections: 0, now });
    const wrong = request(withToken(`acp, silo-token.${TOKEN.slice(0, -1)}`));
    assert.equal(checkUpgrade(wrong, config(), from('127.0.0.1', 0))?.status, 401);
    assert.equal(checkUpgrade(wrong, config(), from('127.0.0.1', 1))?.status, 401);
    assert.equal(checkUpgrade(wrong, config(), from('127.0.0.1', 2))?.status, 429, 'over the limit');
    assert.equal(checkUpgrade(wrong, config(), from('127.0.0.1', 3))?.status, 429);
    // The attacker's failures are the attacker's: the same address with the right token, and another
    // address with a wrong one, are decided as if nothing had happened.
    assert.equal(checkUpgrade(request(GOOD), config(), from('127.0.0.1', 4)), undefined, 'right token');
    assert.equal(checkUpgrade(wrong, config(), from('127.0.0.2', 5))?.status, 401, 'another peer');
    // A peer that keeps failing stays over the limit; one that stops is forgiven after the window.
    assert.equal(checkUpgrade(wrong, config(), from('127.0.0.1', 60_001))?.status, 429);
    assert.equal(checkUpgrade(wrong, config(), from('127.0.0.1', 200_000))?.status, 401);
  });

  test('failures are remembered for a bounded number of peers, the least recently failing forgotten first', () => {
    const failures = new TokenFailures(1, 60_000);
    failures.record('first', 0);
    for (let i = 0; i < MAX_TRACKED_PEERS; i++) failures.record(`peer ${i}`, 1);
    assert.equal(failures.exceeded('first', 2), false, 'forgotten');
    assert.equal(failures.exceeded(`peer ${MAX_TRACKED_PEERS - 1}`, 2), true);
  });
});

describe('bridge guard: Host', () => {
  const host = (value: string | undefined, over: Partial<GuardConfig> = {}) =>
    status(withHeader('Host', value), over);

  test('loopback names with the bridge port are accepted', () => {
    for (const value of [
      `127.0.0.1:${PORT}`,
      `localhost:${PORT}`,
      `LOCALHOST:${PORT}`,
      `[::1]:${PORT}`,
      `127.0.0.2:${PORT}`,
    ]) {
      assert.equal(host(value), 101, value);
    }
  });

  test('rebinding names, other ports, missing ports and odd forms are refused (403)', () => {
    const refused = [
      `attacker.localhost:${PORT}`,
      `localhost.attacker.example:${PORT}`,
      `127.0.0.1.nip.io:${PORT}`,
      `evil.example:${PORT}`,
      `localhost.:${PORT}`,
      `[::2]:${PORT}`,
      `[::ffff:7f00:1]:${PORT}`,
      `::1:${PORT}`,
      `0.0.0.0:${PORT}`,
      `localhost:${PORT + 1}`,
      `localhost:1${PORT}`,
      'localhost',
      '127.0.0.1',
      '[::1]',
      `user@localhost:${PORT}`,
      `localhost:${PORT}/path`,
      `localhost:${PORT}?q`,
      '',
    ];
    for (const value of refused) assert.equal(host(value), 403, JSON.stringify(value));
    assert.equal(host(undefined), 403, 'no Host');
    assert.equal(hostAllowed(`attacker.localhost:${PORT}`, config()), false);
    assert.equal(isLoopbackHost('attacker.localhost'), false);
  });

  test('an extra host is accepted only by its exact name', () => {
    const over = { extraHosts: ['silo.lan'] };
    assert.equal(host(`silo.lan:${PORT}`, over), 101);
    assert.equal(host(`SILO.LAN:${PORT}`, over), 101);
    assert.equal(host(`x.silo.lan:${PORT}`, over), 403);
    assert.equal(host(`silo.lan.evil.example:${PORT}`, over), 403);
    assert.equal(host(`silo.lan:${PORT}`), 403, 'not without the option');
  });

  test('two Host headers are refused (400), whichever comes first', () => {
    assert.equal(status([...GOOD, ['Host', `evil.example:${PORT}`]]), 400);
    assert.equal(status([['Host', `evil.example:${PORT}`], ...GOOD]), 400);
    assert.equal(status([...GOOD, ['host', `127.0.0.1:${PORT}`]]), 400, 'even the same value, any case');
  });
});

describe('bridge guard: Origin', () => {
  const origin = (value: string | undefined, over: Partial<GuardConfig> = {}) =>
    status(withHeader('Origin', value), over);

  test('the exact allowed origin is accepted', () => {
    assert.equal(origin(ORIGIN), 101);
  });

  test('near misses, null and missing origins are refused (403)', () => {
    const refused = [
      'null',
      'http://localhost:5174',
      'http://localhost',
      'https://localhost:5173',
      'http://127.0.0.1:5173',
      'http://evil.localhost:5173',
      `${ORIGIN}.evil.example`,
      `${ORIGIN}/`,
      `${ORIGIN}/path`,
      'http://localhost:51730',
      'http://localhost:517',
      'HTTP://LOCALHOST:5173',
      ` ${ORIGIN}`,
      '',
      '*',
    ];
    for (const value of refused) assert.equal(origin(value), 403, JSON.stringify(value));
    assert.equal(origin(undefined), 403, 'missing Origin');
  });

  test('a missing Origin is accepted only with allowMissingOrigin; Origin: null never is', () => {
    assert.equal(origin(undefined, { allowMissingOrigin: true }), 101);
    assert.equal(origin('null', { allowMissingOrigin: true }), 403);
  });

  test('two Origin headers are refused (400), even when one of them is allowed', () => {
    assert.equal(status([...GOOD, ['Origin', 'http://evil.example']]), 400);
    assert.equal(status([['Origin', 'http://evil.example'], ...GOOD]), 400);
    assert.equal(status([...GOOD, ['Origin', ORIGIN]]), 400);
  });

  test('duplicatedHeader names the first repeated Host or Origin and ignores other repeats', () => {
    assert.equal(duplicatedHeader(['Host', 'a', 'X', '1', 'host', 'b']), 'host');
    assert.equal(duplicatedHeader(['Origin', 'a', 'ORIGIN', 'b']), 'origin');
    assert.equal(duplicatedHeader(['Sec-WebSocket-Protocol', 'a', 'Sec-WebSocket-Protocol', 'b']), undefined);
    assert.equal(duplicatedHeader(undefined), undefined);
  });
});

describe('bridge guard: path and connection cap', () => {
  test('only / (with or without a query) is upgraded', () => {
    assert.equal(status(GOOD, {}, '/?x=1'), 101);
    assert.equal(status(GOOD, {}, '/other'), 404);
    assert.equal(status(GOOD, {}, '//'), 404);
  });

  test('the cap refuses the connection after the last allowed one (503)', () => {
    const state = (live: number) => ({
      failures: new TokenFailures(10),
      peer: '127.0.0.1',
      liveConnections: live,
      now: 0,
    });
    assert.equal(checkUpgrade(request(GOOD), config({ maxConnections: 2 }), state(1)), undefined);
    assert.equal(checkUpgrade(request(GOOD), config({ maxConnections: 2 }), state(2))?.status, 503);
  });
});
