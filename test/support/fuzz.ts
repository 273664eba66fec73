/**
 * A seeded fuzzer over recorded real ACP traffic (test/fixtures/claude-agent-acp/). Pure and
 * dependency-free, so the fuzz agent (Node) and the browser test generate the *same* frames from the
 * same seed and sources: the agent writes them, the test knows which ones must be journaled.
 *
 * Every frame is one stdout line of the agent, classified:
 * - `must`  — a well-formed `session/update` for the session: it must be journaled, in order, raw intact;
 * - `never` — it must not be journaled (not JSON, not an update, another session, no update object).
 *
 * `expected` is the update as the browser receives it: the bridge parses each line and serializes it
 * again, so it is `JSON.parse(JSON.stringify(JSON.parse(line)))` (e.g. `1e400` becomes `null`).
 */

/** A deterministic PRNG (mulberry32): same seed, same sequence, in every engine. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

/** The mutations, by name (each frame names the one that made it). */
export const MUTATIONS = [
  'valid',
  'truncated',
  'wrong-types',
  'unknown-kind',
  'unknown-fields',
  'huge-string',
  'deep-nesting',
  'duplicate-ids',
  'reordered-ids',
  'odd-strings',
  'odd-numbers',
  'not-json',
  'not-an-update',
  'other-session',
  'stray-response',
  'vendor-request',
] as const;
export type Mutation = (typeof MUTATIONS)[number];

/** One generated line. */
export interface FuzzFrame {
  readonly mutation: Mutation;
  readonly line: string;
  readonly verdict: 'must' | 'never';
}

/**
 * How many distinct bad inputs `frames` hold, for the summary: each distinct line once, leaving out
 * valid updates (`valid`, and `reordered-ids`, which only sends valid updates later) and empty or
 * blank lines (`reordered-ids` writes one while it holds updates back).
 */
export function distinctBadInputs(frames: readonly FuzzFrame[]): number {
  return new Set(
    frames
      .filter((f) => f.mutation !== 'valid' && f.mutation !== 'reordered-ids' && f.line.trim() !== '')
      .map((f) => f.line),
  ).size;
}

/** Options of {@link generateFrames}. */
export interface FuzzOptions {
  readonly seed: number;
  readonly count: number;
  readonly sessionId: string;
  /** Raw `update` objects to mutate (e.g. every `session/update` of the recordings, in order). */
  readonly sources: readonly Obj[];
  /** Largest huge string (chars); default 1 MiB. */
  readonly maxString?: number;
  /** Deepest nesting of a frame that must arrive; default 1000. */
  readonly maxDepth?: number;
}

/**
 * Nesting deeper than this cannot be serialized again by `JSON.stringify` on Node (stack overflow
 * near 5,000 levels), so the bridge cannot forward it: such frames (up to 100,000 levels) must be
 * dropped by the bridge without harming the connection.
 */
export const UNFORWARDABLE_DEPTH = 20_000;

/** The update of the final frame: its arrival proves every frame before it went through. */
export function markerUpdate(seed: number, count: number): Obj {
  return {
    sessionUpdate: 'agent_message_chunk',
    messageId: `fuzz-marker-${seed}`,
    content: { type: 'text', text: `FUZZ-END seed=${seed} count=${count}` },
  };
}

/** The `session/update` objects of a recording (JSONL of `{dir, msg}`), in order. */
export function updatesOfRecording(jsonl: string): Obj[] {
  const out: Obj[] = [];
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as { dir?: string; msg?: { method?: string; params?: { update?: Obj } } };
    if (entry.dir === 'agent->client' && entry.msg?.method === 'session/update' && entry.msg.params?.update) {
      out.push(entry.msg.params.update);
    }
  }
  return out;
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** What the browser receives for a line that survives the bridge. */
export function expectedUpdate(line: string): Obj {
  return (JSON.parse(JSON.stringify(JSON.parse(line))) as { params: { update: Obj } }).params.update;
}

/** Generates `count` frames followed by the marker frame (so `count + 1` lines). */
export function generateFrames(options: FuzzOptions): FuzzFrame[] {
  const rand = mulberry32(options.seed);
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const maxString = options.maxString ?? 1024 * 1024;
  const maxDepth = options.maxDepth ?? 1000;
  const sid = options.sessionId;
  const frames: FuzzFrame[] = [];
  const seenIds: string[] = [];
  const held: Obj[] = [];

  const notify = (params: Json): string =>
    JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params });
  const update = (u: Obj): string => notify({ sessionId: sid, update: u });
  const source = (): Obj => {
    const u = clone(pick(options.sources));
    for (const k of ['messageId', 'toolCallId']) if (typeof u[k] === 'string') seenIds.push(u[k] as string);
    return u;
  };
  const oddString = (): string => {
    const parts = [
      '\u0000',
      '\ud800',
      '\udfff',
      '\u202e',
      '\ufeff',
      '<script>alert(1)</script>',
      '"',
      '\\',
      '\n',
      '😀',
      'é',
      '\u2028',
    ];
    let s = '';
    for (let i = 0, n = 1 + int(12); i < n; i++) s += pick(parts);
    return s;
  };
  const wrongValue = (): Json =>
    pick<Json>([null, true, 0, -1, 1.5, '', [], {}, [null], { type: 42 }, 'x'.repeat(int(100))]);
  /** Visits every object in `v` (bounded), for mutating one in place. */
  const objectsIn = (v: Json, out: Obj[] = [], depth = 0): Obj[] => {
    if (depth > 20 || out.length > 200) return out;
    if (Array.isArray(v)) for (const x of v) objectsIn(x, out, depth + 1);
    else if (v && typeof v === 'object') {
      out.push(v);
      for (const x of Object.values(v)) objectsIn(x, out, depth + 1);
    }
    return out;
  };
  /** Nesting as text (building it as a value would overflow the stack when serializing it here). */
  const nested = (depth: number): string => {
    let open = '';
    let close = '';
    for (let i = 0; i < depth; i++) {
      open += i % 2 ? '[' : '{"d":';
      close = (i % 2 ? ']' : '}') + close;
    }
    return `${open}"bottom"${close}`;
  };
  /** Sets `key` as an own property, even `__proto__` (which plain assignment would turn into a prototype). */
  const setKey = (o: Obj, key: string, value: Json) =>
    Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });

  for (let i = 0; i < options.count; i++) {
    const mutation = pick(MUTATIONS);
    const push = (line: string, verdict: 'must' | 'never') => frames.push({ mutation, line, verdict });
    switch (mutation) {
      case 'valid':
        push(update(source()), 'must');
        break;
      case 'truncated': {
        const line = update(source());
        push(line.slice(0, 1 + int(line.length - 2)), 'never');
        break;
      }
      case 'wrong-types': {
        const u = source();
        const objects = objectsIn(u);
        for (let n = 1 + int(3); n > 0; n--) {
          const o = pick(objects);
          const keys = Object.keys(o);
          if (keys.length) o[pick(keys)] = wrongValue();
        }
        push(update(u), 'must');
        break;
      }
      case 'unknown-kind': {
        const u = source();
        u.sessionUpdate = pick([
          '_vendor_thing',
          'subagent_update',
          `_fuzz_${int(1000)}`,
          'future_kind',
          '',
          'constructor',
          '__proto__',
        ]);
        push(update(u), 'must');
        break;
      }
      case 'unknown-fields': {
        const u = source();
        const o = pick(objectsIn(u));
        setKey(
          o,
          pick(['x', '_meta', 'vendorExtra', '__proto__', 'constructor', 'toString', 'then', `k${int(1e6)}`]),
          pick<Json>([{ polluted: true }, oddString(), [1, 2, 3], null]),
        );
        push(update(u), 'must');
        break;
      }
      case 'huge-string': {
        const u = source();
        const o = pick(objectsIn(u));
        o[pick(['text', 'title', 'x', 'data'])] = 'y'.repeat(1 + int(rand() < 0.1 ? maxString : 65536));
        push(update(u), 'must');
        break;
      }
      case 'deep-nesting': {
        const u = source();
        const depth = rand() < 0.1 ? UNFORWARDABLE_DEPTH + int(80_000) : 1 + int(maxDepth);
        u._deep = '\u0000deep';
        push(
          update(u).replace('"\\u0000deep"', nested(depth)),
          depth >= UNFORWARDABLE_DEPTH ? 'never' : 'must',
        );
        break;
      }
      case 'duplicate-ids': {
        const u = source();
        if (seenIds.length) {
          if ('toolCallId' in u || rand() < 0.5) u.toolCallId = pick(seenIds);
          else u.messageId = pick(seenIds);
        }
        push(update(u), 'must');
        break;
      }
      case 'reordered-ids': {
        // Holds an update back and sends it later: a tool_call_update before its tool_call, chunks A,B,A.
        held.push(source());
        if (held.length > 1 + int(4)) {
          while (held.length) push(update(held.splice(int(held.length), 1)[0]!), 'must');
        } else push('', 'never');
        break;
      }
      case 'odd-strings': {
        const u = source();
        const o = pick(objectsIn(u));
        const keys = Object.keys(o).filter((k) => typeof o[k] === 'string');
        o[keys.length ? pick(keys) : 'text'] = oddString();
        push(update(u), 'must');
        break;
      }
      case 'odd-numbers': {
        // Raw number text that JSON allows but JavaScript cannot keep: -0, 1e400, huge integers.
        const u = source();
        u.used = 0;
        push(
          update(u).replace(
            '"used":0',
            `"used":${pick(['-0', '1e400', '-1e400', '123456789012345678901234567890', '0.1e-400'])}`,
          ),
          'must',
        );
        break;
      }
      case 'not-json':
        push(
          pick([
            '{',
            '}',
            'null',
            '42',
            '"str"',
            '[]',
            '[{"jsonrpc":"2.0","method":"session/update"}]',
            'garbage \u0007',
            '{"jsonrpc":"2.0",}',
            '   ',
          ]),
          'never',
        );
        break;
      case 'not-an-update': {
        const params = pick<Json>([
          { sessionId: sid },
          { sessionId: sid, update: null },
          { sessionId: sid, update: 'text' },
          { sessionId: sid, update: 7 },
          null,
        ]);
        push(
          params === null ? JSON.stringify({ jsonrpc: '2.0', method: 'session/update' }) : notify(params),
          'never',
        );
        break;
      }
      case 'other-session':
        push(
          notify({ sessionId: pick<Json>(['other-session', 42, null, '', `${sid} `]), update: source() }),
          'never',
        );
        break;
      case 'stray-response':
        push(
          JSON.stringify(
            pick<Json>([
              // id 0 is `initialize`, answered long ago: a duplicate response. (Ids of requests still
              // pending would be answered early, which is the agent's right, not an attack.)
              { jsonrpc: '2.0', id: 0, result: { stopReason: 'end_turn' } },
              { jsonrpc: '2.0', id: -1 - int(5), result: { stopReason: 'end_turn' } },
              { jsonrpc: '2.0', id: 1e9 + int(5), result: {} },
              { jsonrpc: '2.0', id: `x${int(5)}`, error: { code: -32603, message: 'stray' } },
              { jsonrpc: '2.0', id: null, result: null },
            ]),
          ),
          'never',
        );
        break;
      case 'vendor-request':
        // Requests the client does not implement, with duplicated ids: each gets -32601, none is journaled.
        push(
          JSON.stringify({
            jsonrpc: '2.0',
            id: `dup-${int(3)}`,
            method: `_fuzz/${pick(['ask', 'ping'])}`,
            params: { n: i },
          }),
          'never',
        );
        break;
    }
  }
  while (held.length)
    frames.push({ mutation: 'reordered-ids', line: update(held.shift()!), verdict: 'must' });
  frames.push({
    mutation: 'valid',
    line: update(markerUpdate(options.seed, options.count)),
    verdict: 'must',
  });
  return frames;
}
