// The fold kept beside the journal (worker/journal-fold.ts), through the real bridge, reference agent
// and IndexedDB: a session's writer keeps it with the updates it covers, and binding the session
// after a reload reads only the journal after it, with the same result as reading the whole journal.
import { expect } from 'chai';
import { openDB } from 'idb';
import { type AgentSessionSnapshot, type AgentsService, createAgentsService } from '../../../src/index.ts';
import { FOLD_VERSION } from '../../../worker/journal-fold.ts';
import { sessionRange } from '../../../worker/journal-schema.ts';
import { killBridgeAgents, startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';

const CWD = '/tmp/silo-journal-fold';
/** What binding a session derives from its journal, as the page's snapshot shows it. */
const derived = (s: AgentSessionSnapshot) => ({
  title: s.agentInfo.title,
  commands: s.availableCommands.map((c) => c.name),
  tokens: s.tokens,
  usage: s.usage,
});

describe('the journal fold (real bridge, reference agent, IndexedDB)', () => {
  let bridge: TestBridge;
  let databaseName: string;
  const services: AgentsService[] = [];
  const service = () => {
    const s = createAgentsService({ databaseName });
    services.push(s);
    return s;
  };
  /** Opens the journal's database as it is (whatever version Silo left it at). */
  const database = () => openDB(databaseName);

  before(async () => {
    bridge = await startBridge();
  });
  after(async () => {
    await stopBridge(bridge.id);
  });
  beforeEach(() => {
    databaseName = `silo-fold-${crypto.randomUUID()}`;
  });
  afterEach(async () => {
    for (const s of services.splice(0)) await s.dispose();
  });

  /** A conversation of a flood longer than the fold's keeping interval, then a short turn; closed. */
  async function converse() {
    const s = await service().connect({ bridge, cwd: CWD });
    await until(() => s.snapshot.availableCommands.length > 0, 'the agent listed its commands');
    expect(await s.prompt('/scenario flood 1500')).to.equal('end_turn');
    expect(await s.prompt('a question after the flood')).to.equal('end_turn');
    const seen = derived(s.snapshot);
    await s.close();
    return { sessionId: s.sessionId, seen };
  }

  it('is kept with the turn that ended, and a reload needs nothing of the journal before it', async () => {
    const { sessionId, seen } = await converse();
    const db = await database();
    try {
      const record = await db.get('sessions', sessionId);
      const kept = await db.get('learned', sessionId);
      expect(record.nextSeq).to.be.above(1500);
      expect(kept?.seq).to.equal(record.nextSeq, 'kept with the last turn end');
      // Every update the fold covers is taken away: the commands came in the very first one.
      await db.delete('segments', sessionRange(sessionId));
    } finally {
      db.close();
    }
    const reloaded = await service().connect({ bridge, cwd: CWD, resume: { sessionId } });
    expect(derived(reloaded.snapshot)).to.deep.equal(seen);
    expect(seen.commands).to.not.be.empty;
  });

  it('a reconnect takes the session state from the fold: the tokens of the turns so far are not counted twice', async () => {
    const b = await startBridge({ agentArgs: ['--usage-shape', 'claude'] });
    try {
      const states: string[] = [];
      const s = await service().connect({
        bridge: b,
        cwd: CWD,
        onStateChange: (snap) => states.push(snap.state),
      });
      expect(await s.prompt('one turn that reports its usage')).to.equal('end_turn');
      const tokens = s.snapshot.tokens;
      expect(tokens?.total).to.be.above(0);
      await killBridgeAgents(b.id);
      await until(() => s.state === 'connected' && states.includes('reconnecting'), 'reconnected');
      expect(s.snapshot.tokens).to.deep.equal(tokens);
      expect(await s.prompt('a second turn')).to.equal('end_turn');
      expect(s.snapshot.tokens?.total).to.be.above(tokens!.total);
    } finally {
      await stopBridge(b.id);
    }
  });

  it('a fold kept by another version is not used: the journal is read from its start, and kept again', async () => {
    const { sessionId, seen } = await converse();
    let db = await database();
    try {
      // As a fold of the version before would read if it were taken as this one: wrong facts.
      const kept = await db.get('learned', sessionId);
      expect(kept?.v).to.equal(FOLD_VERSION);
      await db.put('learned', {
        ...kept,
        v: FOLD_VERSION - 1,
        state: { ...kept.state, commands: [] },
        requests: ['p\nan-old-key'],
      });
    } finally {
      db.close();
    }
    const reloaded = await service().connect({ bridge, cwd: CWD, resume: { sessionId } });
    expect(derived(reloaded.snapshot)).to.deep.equal(seen);
    const rows = await reloaded.transcript();
    expect(
      rows.filter((u) => u.kind === 'permission_resolution'),
      'no request ended for a stale key',
    ).to.be.empty;
    db = await database();
    try {
      await until(
        async () => (await db.get('learned', sessionId))?.v === FOLD_VERSION,
        'kept again, this version',
      );
    } finally {
      db.close();
    }
  });

  it('read from the start when none is kept: the same as with it, and kept again', async () => {
    const { sessionId, seen } = await converse();
    const first = await service().connect({ bridge, cwd: CWD, resume: { sessionId } });
    const withFold = derived(first.snapshot);
    await first.close();
    let db = await database();
    try {
      await db.delete('learned', sessionId);
    } finally {
      db.close();
    }
    const reloaded = await service().connect({ bridge, cwd: CWD, resume: { sessionId } });
    expect(derived(reloaded.snapshot)).to.deep.equal(withFold);
    expect(withFold).to.deep.equal(seen);
    db = await database();
    try {
      const record = await db.get('sessions', sessionId);
      await until(async () => (await db.get('learned', sessionId))?.seq === record.nextSeq, 'kept again');
    } finally {
      db.close();
    }
  });
});
