/**
 * The raw limit: a bare module worker with a WebSocket to the same bridge and agent, which speaks
 * just enough JSON-RPC by hand to run one turn (initialize, session/new, session/prompt) and only
 * `JSON.parse`s the frames. No SDK, no validation, no journal: the ceiling any client can reach.
 * Benchmark harness only (product code never re-implements JSON-RPC).
 */
import { bridgeProtocols } from '../../bridge/protocol.ts';
import type { RawMessage, RawRequest } from './protocol.ts';

type Json = {
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: unknown;
};

const post = (m: RawMessage) => self.postMessage(m);

self.onmessage = (event: MessageEvent<RawRequest>) => {
  const { bridge, prompt, mode } = event.data;
  const socket = new WebSocket(bridge.url, bridgeProtocols(bridge.token));
  const pending = new Map<number, (m: Json) => void>();
  let nextId = 0;
  let chunks = 0;
  const request = (method: string, params: unknown) =>
    new Promise<Json>((resolve) => {
      const id = ++nextId;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  socket.onmessage = (e: MessageEvent<string>) => {
    const m = JSON.parse(e.data) as Json;
    if (m.method === 'session/update') {
      const update = m.params?.update as
        | { sessionUpdate?: string; _meta?: Record<string, unknown> }
        | undefined;
      if (update?.sessionUpdate !== 'agent_message_chunk') return;
      chunks++;
      if (mode === 'latency') {
        const sentAt = update._meta?.['silo/sentAt'];
        if (typeof sentAt === 'number') post({ type: 'sent', sentAt });
      }
      return;
    }
    if (m.method !== undefined) {
      if (m.id !== undefined) {
        socket.send(
          JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'not supported' } }),
        );
      }
      return;
    }
    if (typeof m.id === 'number') pending.get(m.id)?.(m);
  };
  socket.onerror = () => post({ type: 'error', message: 'socket error' });
  socket.onopen = async () => {
    const init = await request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    if (init.error) return post({ type: 'error', message: JSON.stringify(init.error) });
    const created = await request('session/new', { cwd: '/tmp', mcpServers: [] });
    const sessionId = (created.result as { sessionId?: string } | undefined)?.sessionId;
    if (!sessionId) return post({ type: 'error', message: JSON.stringify(created.error) });
    chunks = 0;
    const t0 = performance.now();
    const done = await request('session/prompt', { sessionId, prompt: [{ type: 'text', text: prompt }] });
    const ms = performance.now() - t0;
    socket.close();
    if (done.error) return post({ type: 'error', message: JSON.stringify(done.error) });
    post({ type: 'done', ms, chunks });
  };
};
