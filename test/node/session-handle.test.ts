// The page's session handle keeps the newest snapshot the worker took. Events and `connect`'s answer
// cross on different message ports, so a snapshot taken before the session opened (carried by the
// events of a replay streaming in during `session/load`) can reach the page after connect's own.
// A loaded Firefox showed `resumeOutcome: 'new'` after a load that way (restore.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Remote } from 'comlink';
import { HandleEvents, SessionHandle } from '../../src/session-handle.ts';
import type { AgentSessionSnapshot, AgentSessionUpdate } from '../../src/types.ts';
import type { WorkerApi } from '../../src/worker-api.ts';

const BASE = {
  sessionId: 's1',
  agentInfo: { name: 'reference-agent' },
  configOptions: [],
  availableCommands: [],
  busy: false,
  role: 'driver',
} as const;
const opening: AgentSessionSnapshot = { ...BASE, resumeOutcome: 'new', state: 'connecting' };
const loaded: AgentSessionSnapshot = { ...BASE, resumeOutcome: 'loaded', state: 'connected' };
const closed: AgentSessionSnapshot = { ...BASE, resumeOutcome: 'loaded', state: 'closed' };
const chunk = { seq: 0, kind: 'agent_message_chunk', text: 'replayed' } as AgentSessionUpdate;

test('events that arrive before connect answers deliver their updates but not their older snapshot', () => {
  const seen: AgentSessionUpdate[] = [];
  const options = { bridge: 'ws://127.0.0.1:1', cwd: '/', onUpdate: (u: AgentSessionUpdate) => seen.push(u) };
  const events = new HandleEvents(options);
  events.updates([chunk], { snapshot: opening, revision: 3 });
  events.state({ snapshot: opening, revision: 4 });
  const handle = new SessionHandle({} as Remote<WorkerApi>, 'h1', { snapshot: loaded, revision: 5 }, options);
  events.attach(handle);
  assert.equal(handle.resumeOutcome, 'loaded');
  assert.equal(handle.state, 'connected');
  assert.deepEqual(seen, [chunk]);
});

test('a newer snapshot replaces the current one; an older one arriving after it does not', async () => {
  const events = new HandleEvents({ bridge: 'ws://127.0.0.1:1', cwd: '/' });
  const handle = new SessionHandle(
    {} as Remote<WorkerApi>,
    'h1',
    { snapshot: loaded, revision: 5 },
    {
      bridge: 'ws://127.0.0.1:1',
      cwd: '/',
    },
  );
  events.attach(handle);
  events.state({ snapshot: closed, revision: 7 });
  events.state({ snapshot: loaded, revision: 6 });
  assert.equal(handle.state, 'closed');
  await handle.closed;
});
