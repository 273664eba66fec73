// The worker's snapshot and the transcript model share one session-state reducer: through the real
// bridge and the reference agent, the handle's title, usage and commands equal what a TranscriptModel
// folds from the same journal — live, and after the page is reloaded (a new service on the journal).
import { expect } from 'chai';
import { type AgentSessionHandle, createAgentsService, TranscriptModel } from '../../../src/index.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';

describe('session state: one reducer for the snapshot and the transcript (real bridge)', function () {
  this.timeout(60_000);
  let bridge: TestBridge;
  before(async () => {
    bridge = await startBridge();
  });
  after(async () => {
    await stopBridge(bridge.id);
  });

  async function agree(session: AgentSessionHandle): Promise<void> {
    const model = new TranscriptModel();
    model.applyAll(await session.transcript());
    expect({
      title: session.agentInfo.title,
      usage: session.usage,
      commands: session.availableCommands,
    }).to.deep.equal({
      title: model.current.title,
      usage: model.current.usage,
      commands: model.current.commands,
    });
  }

  it('the handle shows what the journal says, before and after a reload', async () => {
    const databaseName = `silo-session-state-${crypto.randomUUID()}`;
    const cwd = `/tmp/silo-session-state-${crypto.randomUUID()}`;
    let service = createAgentsService({ databaseName });
    try {
      const session = await service.connect({ bridge, cwd });
      expect(await session.prompt('/scenario title Shared title')).to.equal('end_turn');
      expect(await session.prompt('/scenario usage')).to.equal('end_turn');
      expect(await session.prompt('/scenario commands')).to.equal('end_turn');
      expect(session.agentInfo.title).to.equal('Shared title');
      expect(session.usage?.cost?.currency).to.be.a('string');
      expect(session.availableCommands.length).to.be.greaterThan(0);
      await agree(session);
      const sessionId = session.sessionId;
      await service.dispose();

      service = createAgentsService({ databaseName });
      const restored = await service.connect({ bridge, cwd, resume: { sessionId } });
      expect(restored.resumeOutcome).to.equal('resumed');
      // The agent re-announces nothing on resume: what the handle shows comes from the journal.
      expect(restored.agentInfo.title).to.equal('Shared title');
      expect(restored.usage?.cost?.currency).to.be.a('string');
      expect(restored.availableCommands.length).to.be.greaterThan(0);
      await agree(restored);
    } finally {
      await service.dispose();
      indexedDB.deleteDatabase(databaseName);
    }
  });
});
