// Faults, with a real bridge and real agent processes. For each fault: the page sees a clear, coded
// state; the journal keeps every update that arrived, in order, with no gap and no duplicate; the
// session recovers where the protocol allows. Each test asserts, itself, that nothing the agent sent
// is missing from the journal: the reference agent runs with `--sent-log`, numbering every update it
// writes and logging the number once the line is in its stdout pipe (agent/options.ts), and the test
// compares that log with the numbers in the journal. The figure is also reported as "updates lost".

import { executeServerCommand } from '@web/test-runner-commands';
import { expect } from 'chai';
import {
  type AgentSessionUpdate,
  type AgentsService,
  createAgentsService,
  type SiloError,
} from '../../../src/index.ts';
import { type Journal, journalOpener, MIGRATIONS } from '../../../worker/journal.ts';
import { agentSent, restartBridge, startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { report } from '../../support/summary-browser.ts';
import { until } from '../../support/until.ts';

const CWD = '/tmp/silo-reliability';
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: SiloError) => e,
  );

/** Gapless sequence numbers. */
function expectGapless(journal: AgentSessionUpdate[], what: string) {
  expect(
    journal.map((u) => u.seq),
    `${what}: gapless, in order`,
  ).to.deep.equal(journal.map((_, i) => i));
}

/**
 * The `slow` scenario numbers its chunks (`chunk 0 `, `chunk 1 `…): journaled, they must be exactly
 * 0..k-1 — in order, no hole, no duplicate. Returns k.
 */
function slowChunks(journal: AgentSessionUpdate[], what: string): number {
  const numbers = journal
    .filter((u) => u.kind === 'agent_message_chunk' && /^chunk \d+ $/.test(u.text ?? ''))
    .map((u) => Number(/\d+/.exec(u.text!)![0]));
  expect(numbers, `${what}: chunks 0..k in order, none missing or repeated`).to.deep.equal(
    numbers.map((_, i) => i),
  );
  return numbers.length;
}

/**
 * Updates the agent wrote for this session (its `--sent-log`) that the journal does not hold; reports
 * the count as "updates lost" and fails the test unless it is 0.
 * - `atLeast`: how many the agent must have sent, so that an empty log cannot pass.
 * - `sent`: the log as read earlier (for a fault after which Silo, by design, keeps nothing more).
 * - `inFlight`: for a fault that kills a process on the path (the bridge, the worker, the page) while
 *   the agent is still writing, the updates the agent wrote after the last one the journal holds were
 *   in flight when it died, and no restore brings them back (session/resume replays nothing). They are
 *   reported as a figure of their own, not hidden; everything before them must be in the journal.
 */
async function expectNothingLost(
  b: TestBridge,
  sessionId: string,
  journal: AgentSessionUpdate[],
  what: string,
  options: { atLeast?: number; sent?: string[]; inFlight?: boolean } = {},
): Promise<void> {
  const sent = options.sent ?? (await agentSent(b.id, sessionId));
  const journaled = new Set(
    journal.map((u) => (u.raw._meta as Record<string, unknown> | undefined)?.['silo/sent']),
  );
  let upTo = sent.length;
  if (options.inFlight) {
    upTo = sent.findLastIndex((n) => journaled.has(n)) + 1;
    await report('figure', sent.length - upTo, `updates in flight when ${what} (not recovered)`);
  }
  const lost = sent.slice(0, upTo).filter((n) => !journaled.has(n));
  await report('lost', lost.length, what);
  expect(upTo, `${what}: updates the agent sent`).to.be.at.least(options.atLeast ?? 1);
  expect(lost, `${what}: sent by the agent, missing from the journal`).to.deep.equal([]);
}

describe('reliability: faults with a real bridge and real agents', function () {
  this.timeout(120_000);
  let service: AgentsService;
  let databaseName: string;
  const bridges: TestBridge[] = [];
  const bridge = async (options: Parameters<typeof startBridge>[0] = {}) => {
    const b = await startBridge({ ...options, agentArgs: ['--sent-log', ...(options.agentArgs ?? [])] });
    bridges.push(b);
    return b;
  };

  /** One bridge for the faults that leave the bridge itself alone (each connection has its own agent). */
  let shared: TestBridge;
  before(async () => {
    shared = await startBridge({ agentArgs: ['--sent-log'] });
  });
  after(async () => {
    await stopBridge(shared.id);
  });
  beforeEach(() => {
    databaseName = `silo-reliability-${crypto.randomUUID()}`;
    service = createAgentsService({ databaseName });
  });
  afterEach(async () => {
    await service.dispose();
    for (const b of bridges.splice(0)) await stopBridge(b.id);
  });

  /** Connects with state and update recording. */
  async function open(b: { url: string; token: string }, svc = service, resume?: string) {
    const delivered: AgentSessionUpdate[] = [];
    const states: string[] = [];
    const session = await svc.connect({
      bridge: b,
      cwd: CWD,
      ...(resume ? { resume: { sessionId: resume } } : {}),
      onUpdate: (u) => delivered.push(u),
      onStateChange: (s) => states.push(s.state),
    });
    return { session, delivered, states };
  }

  it('agent crash mid-turn: interrupted (coded), every update it sent is journaled, reconnects and continues', async () => {
    const b = shared;
    const { session, states } = await open(b);
    const error = await codeOf(session.prompt('/scenario crash'));
    expect(error?.code).to.equal('interrupted');
    expect(error?.message).to.match(/code 3/);
    await until(
      () => session.state === 'connected' && states.includes('reconnecting'),
      'reconnected after the crash',
    );
    const journal = await session.transcript();
    // The crash scenario sends one chunk and one tool call before exiting.
    await expectNothingLost(b, session.sessionId, journal, 'agent crash mid-turn', { atLeast: 2 });
    expect(journal.at(-1)!.turnEnd!.stopReason).to.equal('interrupted');
    expectGapless(journal, 'after the crash');
    expect(await session.prompt('after the crash')).to.equal('end_turn');
    expectGapless(await session.transcript(), 'after the next turn');
    await report('faults', 1, 'agent crash mid-turn');
  });

  it('an agent that stops answering: the user cancels (force stop), and starts again', async () => {
    const b = shared;
    const { session, delivered } = await open(b);
    const running = session.prompt('/scenario hang');
    await until(() => delivered.some((u) => u.kind === 'agent_message_chunk'), 'the hang scenario started');
    expect(session.snapshot.busy).to.equal(true);
    await session.cancel();
    // The agent ignores the cancel; Silo stops waiting after FORCE_STOP_MS and ends the turn cancelled.
    expect(await running).to.equal('cancelled');
    expect(session.snapshot.busy).to.equal(false);
    const journal = await session.transcript();
    // The force-stopped turn ends cancelled (with its duration from the usage model beside it).
    expect(journal.at(-1)!.turnEnd?.stopReason).to.equal('cancelled');
    expect(journal.at(-1)!.turnEnd?.error, 'a cancel, not an error').to.equal(undefined);
    expectGapless(journal, 'after the hang');
    await expectNothingLost(b, session.sessionId, journal, 'agent hang');
    // The hung agent still holds its turn, so the user starts again in a new session.
    const again = await open(b);
    expect(await again.session.prompt('start again')).to.equal('end_turn');
    await report('faults', 1, 'agent stops answering');
  });

  it('a malformed line from the agent: dropped, the turn and the session go on', async () => {
    const b = shared;
    const { session } = await open(b);
    expect(await session.prompt('/scenario malformed')).to.equal('end_turn');
    const journal = await session.transcript();
    const text = journal
      .filter((u) => u.kind === 'agent_message_chunk')
      .map((u) => u.text)
      .join('');
    expect(text).to.equal('Before the malformed line. After the malformed line.');
    expectGapless(journal, 'malformed');
    await expectNothingLost(b, session.sessionId, journal, 'malformed line', { atLeast: 2 });
    expect(await session.prompt('still here')).to.equal('end_turn');
    await report('faults', 1, 'malformed agent line');
    await report('inputs', 1, 'malformed agent line');
  });

  it('a 40 MB line from the agent: the bridge ends that agent (4001), the page gets a coded reason, the session reconnects', async () => {
    const b = shared;
    const { session, states } = await open(b);
    await session.prompt('before the huge line');
    const error = await codeOf(session.prompt('/scenario huge-line 40'));
    expect(error?.code).to.equal('interrupted');
    expect(error?.message).to.match(/4001|over \d+ bytes|too large|limit/i);
    await until(
      () => session.state === 'connected' && states.includes('reconnecting'),
      'reconnected after the huge line',
    );
    const journal = await session.transcript();
    expectGapless(journal, 'huge line');
    expect(journal.some((u) => (u.text ?? '').length > 1_000_000)).to.equal(
      false,
      'the huge line never reached the journal',
    );
    await expectNothingLost(b, session.sessionId, journal, '40 MB line');
    expect(await session.prompt('after the huge line')).to.equal('end_turn');
    await report('faults', 1, '40 MB agent line');
    await report('inputs', 1, '40 MB agent line');
  });

  it('bridge killed and restarted mid-turn: interrupted, reconnects with backoff, journal gapless', async () => {
    const b = await bridge();
    const { session, delivered, states } = await open(b);
    const outcome = codeOf(session.prompt('/scenario slow 400 20'));
    // The agent logs an update once its line is in the pipe (a callback after the write), so the
    // page can hold a chunk the log does not yet: the bridge is killed once both hold three.
    await until(
      async () =>
        delivered.filter((u) => u.kind === 'agent_message_chunk').length >= 3 &&
        (await agentSent(b.id, session.sessionId)).length >= 3,
      'the slow stream started, three chunks shown and logged by the agent',
    );
    await stopBridge(b.id, true);
    expect((await outcome)?.code).to.equal('interrupted');
    await until(() => session.state === 'reconnecting', 'reconnecting while the bridge is down');
    expect(session.snapshot.error?.code, 'a coded reason while down').to.be.a('string');
    await restartBridge(b.id);
    await until(() => session.state === 'connected', 'reconnected after the restart', 30_000);
    expect(states).to.include('reconnecting');
    const journal = await session.transcript();
    const k = slowChunks(journal, 'bridge restart');
    expect(k).to.be.greaterThan(2);
    expectGapless(journal, 'bridge restart');
    await expectNothingLost(b, session.sessionId, journal, 'bridge killed and restarted', {
      atLeast: 3,
      inFlight: true,
    });
    expect(await session.prompt('after the restart')).to.equal('end_turn');
    await report('faults', 1, 'bridge killed and restarted');
  });

  it('socket dropped (TCP connection cut under a live turn): interrupted, reconnects, journal gapless', async () => {
    const b = await bridge();
    const proxy = await executeServerCommand<{ id: string; url: string }, { target: number }>(
      'silo-proxy-start',
      { target: b.port },
    );
    try {
      const { session, delivered, states } = await open({ url: proxy.url, token: b.token });
      const outcome = codeOf(session.prompt('/scenario slow 400 20'));
      await until(
        () => delivered.filter((u) => u.kind === 'agent_message_chunk').length >= 3,
        'the slow stream started',
      );
      const { cut } = await executeServerCommand<{ cut: number }, { id: string }>('silo-proxy-cut', {
        id: proxy.id,
      });
      expect(cut).to.be.greaterThan(0);
      const error = await outcome;
      expect(error?.code).to.equal('interrupted');
      await until(
        () => session.state === 'connected' && states.includes('reconnecting'),
        'reconnected through the proxy',
        30_000,
      );
      const journal = await session.transcript();
      slowChunks(journal, 'socket drop');
      expectGapless(journal, 'socket drop');
      await expectNothingLost(b, session.sessionId, journal, 'socket dropped', {
        atLeast: 3,
        inFlight: true,
      });
      expect(await session.prompt('after the drop')).to.equal('end_turn');
      await report('faults', 1, 'socket dropped');
    } finally {
      await executeServerCommand('silo-proxy-stop', { id: proxy.id });
    }
  });

  it('worker terminated mid-turn: the journal is a gapless prefix; a new worker restores the session', async () => {
    const b = shared;
    const worker = new Worker(new URL('../../../worker/index.ts', import.meta.url), { type: 'module' });
    const first = createAgentsService({ worker, databaseName });
    const { session, delivered } = await open(b, first);
    const sessionId = session.sessionId;
    const pending = codeOf(session.prompt('/scenario slow 400 20'));
    await until(
      () => delivered.filter((u) => u.kind === 'agent_message_chunk').length >= 5,
      'the slow stream started',
    );
    worker.terminate();
    // A terminated worker fires no event: the page learns it from the worker's life lock, and the
    // pending turn, the handle and the service all end with a code instead of hanging.
    expect((await pending)?.code, 'the pending prompt').to.equal('closed');
    await session.closed;
    expect(session.state).to.equal('closed');
    expect((await codeOf(first.sessions()))?.code, 'the service').to.equal('closed');
    // The socket and the Web Lock died with the worker: the bridge ends that agent, and a new worker
    // restores the session (following first if the lock is not released yet, then taking over).
    const { session: restored, delivered: after } = await open(b, service, sessionId);
    await until(() => restored.state === 'connected', 'the new worker drives the session');
    // The journal ends inside a turn, so the agent may hold more of it: the session is loaded.
    expect(restored.resumeOutcome).to.equal('loaded');
    expect(restored.restoreNote, 'the replay was merged').to.equal(undefined);
    const journal = await restored.transcript();
    const k = slowChunks(journal, 'worker terminated');
    expect(k).to.be.at.least(5, 'everything the page had seen was committed');
    expectGapless(journal, 'worker terminated');
    await expectNothingLost(b, sessionId, journal, 'worker terminated', { atLeast: 5, inFlight: true });
    expect(await restored.prompt('after the worker died')).to.equal('end_turn');
    expect(after.at(-1)!.turnEnd!.stopReason).to.equal('end_turn');
    await report('faults', 1, 'worker terminated');
  });

  // IndexedDB quota exceeded: test/e2e/quota.test.ts (Chromium with a profile on disk, where the
  // DevTools quota override is enforced; the off-the-record context these pages run in ignores it).

  it('a newer tab upgrades the database: this (old) tab gives way instead of blocking it, and fails coded', async () => {
    const b = shared;
    const { session } = await open(b);
    await session.prompt('before the upgrade');
    const before = await session.transcript();
    // What the agent sent until now; after the upgrade Silo keeps nothing more, by design (coded).
    const sentBefore = await agentSent(b.id, session.sessionId);
    const upgraded = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(databaseName, MIGRATIONS.length + 1);
      request.onblocked = () => reject(new Error('the upgrade was blocked by the old tab'));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      const error = await codeOf(session.prompt('after the upgrade'));
      expect(error?.code).to.equal('journal-write');
      // The newer tab reads everything the old one committed.
      const segments = await new Promise<{ updates: AgentSessionUpdate[] }[]>((resolve, reject) => {
        const r = upgraded.transaction('segments').objectStore('segments').getAll();
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      const kept = segments.flatMap((s) => s.updates).filter((u) => before.some((x) => x.seq === u.seq));
      expect(kept.length).to.equal(before.length);
      await expectNothingLost(b, session.sessionId, before, 'database upgraded by a newer tab', {
        sent: sentBefore,
      });
      // A tab of the old version now meets a newer database: a coded error, not a hang.
      const old = createAgentsService({ databaseName });
      try {
        const refused = await codeOf(old.sessions());
        expect(refused?.code).to.be.oneOf(['journal-write', 'internal']);
      } finally {
        await old.dispose();
      }
    } finally {
      upgraded.close();
    }
    await report('faults', 1, 'database upgrade by another tab');
  });

  it('an old tab that does not give way blocks an upgrade: coded at once, no hang; the upgrade completes when it closes, nothing lost', async () => {
    const { session } = await open(shared);
    await session.prompt('before the upgrade');
    const before = await session.transcript();
    // A database of today's version holding that conversation, written by Silo's own journal module
    // in this page, so that the one connection the upgrade waits for is the old tab's.
    const name = `${databaseName}-upgrade`;
    const today = await journalOpener(name)();
    await today.upsertSession(session.sessionId, {});
    const writer = today.writer(session.sessionId, 0);
    writer.append(before);
    await writer.flushed();
    today.close();
    // The old tab: a connection at today's version that ignores `versionchange` (an older build, or
    // any script of the origin). Silo's own connections give way; this one does not.
    const oldTab = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name, MIGRATIONS.length);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    // The next Silo, one schema version later.
    const next = journalOpener(name, [...MIGRATIONS, () => {}]);
    let journal: Journal | undefined;
    try {
      const blocked = await codeOf(next());
      expect(blocked?.code).to.equal('journal-write');
      expect(blocked?.message).to.include('another tab');
      expect((await codeOf(next()))?.code, 'asked again while blocked: coded at once').to.equal(
        'journal-write',
      );
      oldTab.close();
      // The waiting upgrade completes by itself once the old tab has gone.
      while (!journal) {
        await new Promise((r) => requestAnimationFrame(r));
        journal = await next().catch(() => undefined);
      }
      expect(journal.db.version).to.equal(MIGRATIONS.length + 1);
      expect(await journal.read(session.sessionId), 'the upgrade kept every update').to.deep.equal(before);
    } finally {
      oldTab.close();
      journal?.close();
    }
    // A Silo of today's version now meets the upgraded database and says so with a code; once the
    // database is usable again, the same service recovers (its failed start is tried again).
    const older = createAgentsService({ databaseName: name });
    try {
      expect((await codeOf(older.sessions()))?.code).to.equal('journal-write');
      await new Promise((resolve, reject) => {
        const request = indexedDB.deleteDatabase(name);
        request.onsuccess = resolve;
        request.onerror = () => reject(request.error);
        request.onblocked = () =>
          reject(new Error('deleting the database was blocked by an open connection'));
      });
      expect(await older.sessions()).to.deep.equal([]);
    } finally {
      await older.dispose();
    }
    await report('faults', 1, 'database upgrade blocked by an old tab');
  });

  it('two tabs on one session: one writer, the other follows; no duplicate in the shared journal', async () => {
    const b = shared;
    const { session: owner } = await open(b);
    await owner.prompt('from the owner');
    const second = createAgentsService({ databaseName });
    try {
      const follower = await open(b, second, owner.sessionId);
      expect(follower.session.state).to.equal('following');
      expect((await codeOf(follower.session.prompt('me too')))?.code).to.equal('not-owner');
      await owner.prompt('/scenario slow 30 5');
      await until(
        () => follower.delivered.some((u) => u.turnEnd?.stopReason === 'end_turn'),
        'the follower mirrors the turn',
      );
      await owner.close();
      await until(() => follower.session.snapshot.driverPresent === false, 'nobody drives');
      await follower.session.takeOver();
      expect(follower.session.state).to.equal('connected');
      expect(await follower.session.prompt('from the follower')).to.equal('end_turn');
      const journal = await follower.session.transcript();
      expectGapless(journal, 'two tabs');
      slowChunks(journal, 'two tabs');
      const prompts = journal.filter((u) => u.kind === 'user_message_chunk').map((u) => u.text);
      expect(prompts).to.deep.equal(
        ['from the owner', '/scenario slow 30 5', 'from the follower'],
        'each prompt once',
      );
      await expectNothingLost(b, owner.sessionId, journal, 'two tabs on one session', { atLeast: 5 });
      await report('faults', 1, 'two tabs on one session');
    } finally {
      await second.dispose();
    }
  });

  /** A same-origin page in an iframe running Silo from the public entry; reloading it is a real reload. */
  async function framePage(): Promise<{
    frame: HTMLIFrameElement;
    ready: () => Promise<typeof import('../../../src/index.ts')>;
  }> {
    const frame = document.createElement('iframe');
    const ready = () =>
      new Promise<typeof import('../../../src/index.ts')>((resolve) => {
        const onMessage = (e: MessageEvent) => {
          if (e.source !== frame.contentWindow || e.data !== 'silo-frame-ready') return;
          window.removeEventListener('message', onMessage);
          resolve((frame.contentWindow as unknown as { silo: typeof import('../../../src/index.ts') }).silo);
        };
        window.addEventListener('message', onMessage);
      });
    const first = ready();
    frame.srcdoc = `<script type="module">
      import * as silo from '/src/index.ts';
      window.silo = silo;
      parent.postMessage('silo-frame-ready', '*');
    </script>`;
    document.body.append(frame);
    await first;
    return { frame, ready };
  }

  for (const when of ['mid-turn', 'mid-permission'] as const) {
    it(`page reloaded ${when}: the reloaded page restores the session from a gapless journal; nothing was approved`, async () => {
      const b = shared;
      const { frame, ready } = await framePage();
      try {
        let silo = (frame.contentWindow as unknown as { silo: typeof import('../../../src/index.ts') }).silo;
        const inFrame = silo.createAgentsService({ databaseName });
        const delivered: AgentSessionUpdate[] = [];
        let asked = 0;
        const session = await inFrame.connect({
          bridge: b,
          cwd: CWD,
          onUpdate: (u) => delivered.push(u),
          onPermission: () => {
            asked++;
          },
        });
        const sessionId = session.sessionId;
        void session
          .prompt(when === 'mid-turn' ? '/scenario slow 400 20' : '/scenario permission')
          .catch(() => {});
        if (when === 'mid-turn') {
          await until(
            () => delivered.filter((u) => u.kind === 'agent_message_chunk').length >= 3,
            'the slow stream started',
          );
        } else {
          await until(
            () => asked === 1 && delivered.some((u) => u.kind === 'permission'),
            'the permission request is shown',
          );
        }
        const reloaded = ready();
        frame.contentWindow!.location.reload();
        silo = await reloaded;
        const again = silo.createAgentsService({ databaseName });
        try {
          const restored = await again.connect({ bridge: b, cwd: CWD, resume: { sessionId } });
          await until(() => restored.state === 'connected', 'the reloaded page drives the session', 30_000);
          const journal = await restored.transcript();
          expectGapless(journal, `reload ${when}`);
          await expectNothingLost(b, sessionId, journal, `page reloaded ${when}`, { inFlight: true });
          if (when === 'mid-turn') expect(slowChunks(journal, 'reload mid-turn')).to.be.at.least(3);
          else {
            expect(journal.some((u) => u.kind === 'permission')).to.equal(
              true,
              'the request is in the journal',
            );
            const granted = journal.some((u) => u.permission?.resolution === 'selected');
            expect(granted).to.equal(false, 'fail closed: nothing was approved by the reload');
            expect(journal.some((u) => u.toolCall?.status === 'completed')).to.equal(
              false,
              'the tool never ran',
            );
          }
          expect(await restored.prompt('after the reload')).to.equal('end_turn');
          await report('faults', 1, `page reloaded ${when}`);
        } finally {
          await again.dispose();
        }
      } finally {
        frame.remove();
      }
    });
  }
});
