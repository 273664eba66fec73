// The history through the page API (issue 28 §4), against the real bridge, reference agent, worker and
// IndexedDB: titles (the agent's, else the first prompt's without protocol noise; the user's wins),
// search by title and text, delete with the journal, and an import of a session already there.
import { expect } from 'chai';
import { parseJsonl, toJsonl } from '../../../src/export.ts';
import { type AgentsService, createAgentsService } from '../../../src/index.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';

describe('the history: titles, rename, search, delete, import (issue 28 §4)', function () {
  this.timeout(60000);
  let titled: TestBridge;
  let untitled: TestBridge;
  let service: AgentsService;
  const databaseName = `silo-history-${crypto.randomUUID()}`;

  before(async () => {
    titled = await startBridge();
    // An agent that never names its sessions (Codex): titles come from the prompts.
    untitled = await startBridge({ agentArgs: ['--no-title'] });
    service = createAgentsService({ databaseName });
  });
  after(async () => {
    await service.dispose();
    indexedDB.deleteDatabase(databaseName);
    await stopBridge(titled.id);
    await stopBridge(untitled.id);
  });

  const summary = async (id: string) => (await service.sessions()).find((s) => s.sessionId === id);
  const ids = async (query: string) => (await service.sessions({ query })).map((s) => s.sessionId).sort();

  it('the first prompt names a session without protocol noise: a slash command for a while, then words', async () => {
    const session = await service.connect({ bridge: untitled, cwd: '/tmp/silo-history-a' });
    await session.prompt('/scenario tools');
    expect((await summary(session.sessionId))?.title).to.equal('scenario tools');
    expect(session.snapshot.agentInfo.title).to.equal('scenario tools');
    // A prompt of words names it; context the client put around it is not part of the title.
    await session.prompt(
      '<session_context>cwd: /tmp</session_context>\nFix the login bug\n\nIt fails on Safari.',
    );
    expect((await summary(session.sessionId))?.title).to.equal('Fix the login bug');
    await session.prompt('Something else entirely');
    expect((await summary(session.sessionId))?.title, 'only the first prompt of words').to.equal(
      'Fix the login bug',
    );
    await session.close();
  });

  it("the agent's title wins over a prompt's, the user's over the agent's, and a blank rename gives it back", async () => {
    const session = await service.connect({ bridge: titled, cwd: '/tmp/silo-history-b' });
    await session.prompt('/scenario title The agent names it');
    expect((await summary(session.sessionId))?.title).to.equal('The agent names it');
    expect(await service.rename(session.sessionId, '  Weekly report  ')).to.equal('Weekly report');
    const renamed = await summary(session.sessionId);
    expect(renamed?.title).to.equal('Weekly report');
    expect(renamed?.renamed).to.equal(true);
    // The open handle shows it at once, and the agent's next title does not take it over.
    await until(() => session.snapshot.agentInfo.title === 'Weekly report', 'the handle renamed');
    await session.prompt('/scenario title A later agent title');
    expect((await summary(session.sessionId))?.title).to.equal('Weekly report');
    expect(session.snapshot.agentInfo.title).to.equal('Weekly report');
    expect(await service.rename(session.sessionId, '')).to.equal('A later agent title');
    expect((await summary(session.sessionId))?.renamed).to.equal(undefined);
    await until(() => session.snapshot.agentInfo.title === 'A later agent title', "the agent's title back");
    const missing = await service.rename('no-such-session', 'x').catch((e: { code: string }) => e.code);
    expect(missing).to.equal('session-not-found');
    await session.close();
  });

  it('search finds sessions by title and by what the user and the agent wrote, case-insensitive', async () => {
    const a = await service.connect({ bridge: untitled, cwd: '/tmp/silo-history-c' });
    await a.prompt('the zebra crossing');
    await service.rename(a.sessionId, 'Quarterly numbers');
    const b = await service.connect({ bridge: untitled, cwd: '/tmp/silo-history-d' });
    await b.prompt('a quiet lake');
    await b.prompt('/scenario markdown');
    await a.close();
    await b.close();
    expect(await ids('QUARTERLY'), 'by the title the user gave').to.deep.equal([a.sessionId]);
    expect(await ids('zebra'), 'by what the user wrote').to.deep.equal([a.sessionId]);
    expect(await ids('quote to finish'), 'by what the agent wrote').to.deep.equal([b.sessionId]);
    expect(await ids('no such words anywhere')).to.deep.equal([]);
    expect((await service.sessions({ query: '  ' })).length, 'a blank query: all').to.equal(
      (await service.sessions()).length,
    );
  });

  it('delete takes the session out of the history with its journal', async () => {
    const session = await service.connect({ bridge: titled, cwd: '/tmp/silo-history-e' });
    await session.prompt('to be deleted');
    await session.close();
    expect((await service.transcript(session.sessionId)).length).to.be.greaterThan(0);
    await service.clear(session.sessionId);
    expect(await summary(session.sessionId)).to.equal(undefined);
    expect(await service.transcript(session.sessionId)).to.deep.equal([]);
    expect(await ids('to be deleted')).to.deep.equal([]);
  });

  it('an import of a session that is already there adds no second entry; an export of something else does', async () => {
    const session = await service.connect({ bridge: titled, cwd: '/tmp/silo-history-f' });
    await session.prompt('export me');
    await session.close();
    const jsonl = await service.exportJsonl(session.sessionId);
    const count = (await service.sessions()).length;
    expect(await service.importJsonl(jsonl), 'the session it was exported from').to.equal(session.sessionId);
    expect((await service.sessions()).length).to.equal(count);
    // In another browser profile (another database) it is imported once, however often.
    const other = createAgentsService({ databaseName: `${databaseName}-other` });
    try {
      const first = await other.importJsonl(jsonl);
      expect(await other.importJsonl(jsonl)).to.equal(first);
      // Exported from there and imported here again: still the original session.
      expect(await service.importJsonl(await other.exportJsonl(first))).to.equal(session.sessionId);
      // An export without its header (older versions) of the same updates: the earlier import.
      const bare = toJsonl(parseJsonl(jsonl));
      expect(await other.importJsonl(bare)).to.equal(first);
      expect((await other.sessions()).length).to.equal(1);
      // The same session with one more update is not the same export: a new entry.
      const grown = `${jsonl}${JSON.stringify({ kind: 'agent_message_chunk', text: 'more', raw: {} })}\n`;
      const added = await service.importJsonl(grown);
      expect(added).to.not.equal(session.sessionId);
      expect((await service.sessions()).length).to.equal(count + 1);
    } finally {
      await other.dispose();
      indexedDB.deleteDatabase(`${databaseName}-other`);
    }
  });
});
