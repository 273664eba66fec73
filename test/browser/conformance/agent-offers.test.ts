// What agents offer a client beyond prompts (docs/agents.md), each used only when the agent
// advertises it, driven through the real bridge and the reference agent (whose `--calls-log` shows
// what Silo asked of it): `session/close` when a session is closed (the handle, the chat's New
// session), `session/delete` with Clear, saying what became of the agent's copy.
import { expect } from 'chai';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import { agentCalls } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import '../../../components/index.ts';
import { suiteBridges } from '../fixtures/bridges.ts';
import { mount } from '../fixtures/dom.ts';

const CWD = '/tmp/silo-offers';

describe('what agents offer: close, delete (real bridge, reference agent)', function () {
  this.timeout(60_000);
  const suite = suiteBridges();

  it('closing a session sends session/close when the agent offers it, and only then', async () => {
    const offered = await suite.bridgeWith('--calls-log');
    const s = await suite.service.connect({ bridge: offered, cwd: CWD });
    expect(await s.prompt('hello')).to.equal('end_turn');
    await s.close();
    expect(await agentCalls(offered.id)).to.include(`session/close ${s.sessionId}`);

    const without = await suite.bridgeWith('--calls-log', '--no-close');
    const t = await suite.service.connect({ bridge: without, cwd: CWD });
    await t.close();
    const calls = await agentCalls(without.id);
    expect(calls).to.include(`session/new -`);
    expect(calls.filter((c) => c.startsWith('session/close'))).to.deep.equal([]);
  });

  it("<silo-chat>'s New session closes the session it leaves", async () => {
    const bridge = await suite.bridgeWith('--calls-log');
    const chat = document.createElement('silo-chat') as SiloChat;
    chat.setAttribute('storage-key', `silo-offers-${crypto.randomUUID()}`);
    chat.setAttribute('bridge', bridge.connection);
    chat.setAttribute('cwd', CWD);
    const unmount = mount(chat);
    try {
      const first = await until(() => chat.session, 'the chat connected', 20_000);
      expect(await chat.send('hello')).to.equal('end_turn');
      await chat.newSession();
      const second = await until(
        () => (chat.session && chat.session !== first ? chat.session : undefined),
        'a new session',
        20_000,
      );
      expect(second.sessionId).to.not.equal(first.sessionId);
      expect(await agentCalls(bridge.id)).to.include(`session/close ${first.sessionId}`);
    } finally {
      unmount();
    }
  });

  it("Clear deletes the journal and, when the agent offers it, the agent's copy; it says which", async () => {
    const bridge = await suite.bridgeWith('--calls-log');
    const s = await suite.service.connect({ bridge, cwd: CWD });
    expect(await s.prompt('hello')).to.equal('end_turn');
    const { sessionId } = s;
    await s.close();
    const listed = async () => (await suite.service.sessions({ bridge, cwd: CWD })).map((x) => x.sessionId);
    expect(await listed()).to.include(sessionId);
    expect(await suite.service.clear(sessionId, { bridge: bridge.connection })).to.deep.equal({
      agentCopy: 'deleted',
    });
    expect(await agentCalls(bridge.id)).to.include(`session/delete ${sessionId}`);
    expect(await suite.service.transcript(sessionId)).to.deep.equal([]);
    expect(await listed(), 'neither the journal nor the agent lists it').to.not.include(sessionId);

    const keeps = await suite.bridgeWith('--calls-log', '--no-delete');
    const t = await suite.service.connect({ bridge: keeps, cwd: CWD });
    expect(await t.prompt('hello')).to.equal('end_turn');
    await t.close();
    expect(await suite.service.clear(t.sessionId, { bridge: keeps })).to.deep.equal({
      agentCopy: 'not-offered',
    });
    expect((await agentCalls(keeps.id)).filter((c) => c.startsWith('session/delete'))).to.deep.equal([]);
    expect(await suite.service.transcript(t.sessionId)).to.deep.equal([]);

    const u = await suite.service.connect({ bridge, cwd: CWD });
    expect(await u.prompt('hello')).to.equal('end_turn');
    await u.close();
    expect(await suite.service.clear(u.sessionId)).to.deep.equal({ agentCopy: 'not-asked' });
    const gone = await suite.service.clear(u.sessionId, {
      bridge: { url: bridge.url, token: 'not-the-token' },
    });
    expect(gone.agentCopy).to.equal('failed');
    expect(gone.error?.code).to.equal('unreachable');
  });
});
