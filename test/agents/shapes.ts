/**
 * What an agent showed of itself in one run, read from its wire log: its answers to `initialize`
 * and the session requests, the first example of every update kind and `_meta` key it sent, its
 * prompt responses, its requests to the client and its extension messages. Written next to the
 * results as `<agent>.handshake.json`; docs/agents.md and docs/agent-shapes.md quote from it.
 * @packageDocumentation
 */
import { exchanges, type WireLine } from './wire.ts';

/** Cuts long strings and arrays, so that an example stays readable. */
export function trim(value: unknown, depth = 0): unknown {
  if (typeof value === 'string')
    return value.length > 300 ? `${value.slice(0, 300)}…(${value.length} chars)` : value;
  if (Array.isArray(value)) {
    const items = value.slice(0, depth > 2 ? 3 : 12).map((v) => trim(v, depth + 1));
    return value.length > items.length ? [...items, `…(${value.length - items.length} more)`] : items;
  }
  if (value && typeof value === 'object') {
    if (depth > 7) return '…';
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trim(v, depth + 1)]));
  }
  return value;
}

/** The answers to the first `count` requests of `method`: each one's params and result or error. */
function answers(wire: readonly WireLine[], method: string, count = 2): unknown[] {
  return exchanges(wire, method)
    .slice(0, count)
    .map(({ request, answer }) => ({
      params: trim(request.msg.params),
      ...(answer?.msg.error ? { error: answer.msg.error } : { result: trim(answer?.msg.result) }),
    }));
}

/** Every `_meta` key path (`tool_call._meta.claudeCode`) with its first value. */
function metaKeys(update: Record<string, unknown>, kind: string, into: Map<string, unknown>): void {
  const walk = (v: unknown, path: string) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return;
    for (const [k, child] of Object.entries(v)) {
      if (k === '_meta' && child && typeof child === 'object') {
        for (const [mk, mv] of Object.entries(child)) {
          const key = `${kind}${path}._meta.${mk}`;
          if (!into.has(key)) into.set(key, trim(mv));
        }
      } else walk(child, `${path}.${k}`);
    }
  };
  walk(update, '');
}

/** The summary of one run's wire log. */
export function handshake(wire: readonly WireLine[]): Record<string, unknown> {
  const firstOfKind = new Map<string, unknown>();
  const meta = new Map<string, unknown>();
  const agentRequests = new Map<string, unknown>();
  const extensions = new Map<string, unknown>();
  const kinds: Record<string, number> = {};
  for (const line of wire) {
    const { msg } = line;
    if (line.dir !== 'agent->client' || !msg.method) continue;
    if (msg.method === 'session/update' && msg.params?.update) {
      const u = msg.params.update;
      const kind = String(u.sessionUpdate);
      kinds[kind] = (kinds[kind] ?? 0) + 1;
      if (!firstOfKind.has(kind)) firstOfKind.set(kind, trim(u));
      metaKeys(u, kind, meta);
    } else if (msg.method.startsWith('_')) {
      if (!extensions.has(msg.method)) extensions.set(msg.method, trim(msg.params));
    } else if (msg.id !== undefined && !agentRequests.has(msg.method)) {
      agentRequests.set(msg.method, trim(msg.params));
    }
  }
  return {
    initialize: answers(wire, 'initialize', 1),
    authenticate: answers(wire, 'authenticate'),
    'session/new': answers(wire, 'session/new', 1),
    'session/load': answers(wire, 'session/load'),
    'session/resume': answers(wire, 'session/resume'),
    'session/prompt': answers(wire, 'session/prompt', 12).map((a) => ({
      result: (a as { result?: unknown }).result,
      error: (a as { error?: unknown }).error,
    })),
    updateCounts: kinds,
    firstOfKind: Object.fromEntries(firstOfKind),
    metaKeys: Object.fromEntries(meta),
    agentRequests: Object.fromEntries(agentRequests),
    extensions: Object.fromEntries(extensions),
  };
}
