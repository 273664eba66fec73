// Signing in (ACP `authenticate`) through the real bridge and the reference agent under
// `--auth-required`: the methods a page is told about, each kind of sign-in, and a restore that meets a
// sign-in (it must say so, never fall back to journal-only).
import { expect } from 'chai';
import { type AgentsService, createAgentsService, type SiloError } from '../../../src/index.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import '../../../components/index.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import { until } from '../../support/until.ts';
import { mount } from '../fixtures/dom.ts';

const CWD = '/tmp/silo-sign-in';

/** What the agent offers, as the page must see it (agent/app.ts AUTH_METHODS, written out). */
const EXPECTED_METHODS = [
  {
    id: 'reference-login',
    name: 'Log in',
    description: 'Pretend to log in (always succeeds)',
    type: 'agent',
    usable: true,
  },
  {
    id: 'reference-key',
    name: 'API key',
    description: "Reads SILO_REFERENCE_API_KEY from the agent's environment",
    type: 'env_var',
    usable: true,
    vars: ['SILO_REFERENCE_API_KEY'],
  },
  { id: 'reference-terminal', name: 'Log in from a terminal', type: 'terminal', usable: false },
];

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: SiloError) => e,
  );

describe('sign-in', () => {
  let service: AgentsService;
  let bridge: TestBridge;

  before(async () => {
    service = createAgentsService();
    bridge = await startBridge({ agentArgs: ['--auth-required'] });
  });
  after(async () => {
    await stopBridge(bridge.id);
    await service.dispose();
  });

  it('auth-required lists every method with its type, and which a page can use', async () => {
    const error = await failure(service.connect({ bridge, cwd: CWD }));
    expect(error?.code).to.equal('auth-required');
    expect((error!.data as { authMethods: unknown }).authMethods).to.deep.equal(EXPECTED_METHODS);
  });

  it('an agent-handled sign-in opens the session, and a turn runs', async () => {
    const session = await service.connect({ bridge, cwd: CWD, authenticate: 'reference-login' });
    expect(session.state).to.equal('connected');
    expect(await session.prompt('hello')).to.equal('end_turn');
    await session.close();
  });

  it('a terminal method or an unknown one is refused with a reason, before the agent is asked', async () => {
    const terminal = await failure(service.connect({ bridge, cwd: CWD, authenticate: 'reference-terminal' }));
    expect(terminal?.code).to.equal('auth-required');
    expect(terminal?.message).to.contain('needs a terminal');
    const unknown = await failure(service.connect({ bridge, cwd: CWD, authenticate: 'nope' }));
    expect(unknown?.code).to.equal('auth-required');
    expect(unknown?.message).to.contain('no sign-in method "nope"');
  });

  it("an environment sign-in fails with the agent's reason when the key is missing, works when set", async () => {
    const missing = await failure(service.connect({ bridge, cwd: CWD, authenticate: 'reference-key' }));
    expect(missing?.code).to.equal('auth-required');
    expect(missing?.message).to.contain('SILO_REFERENCE_API_KEY is not set');
    const keyed = await startBridge({
      agentArgs: ['--auth-required'],
      agentEnv: { SILO_REFERENCE_API_KEY: 'k-test' },
    });
    try {
      const session = await service.connect({ bridge: keyed, cwd: CWD, authenticate: 'reference-key' });
      expect(await session.prompt('hello')).to.equal('end_turn');
      await session.close();
    } finally {
      await stopBridge(keyed.id);
    }
  });

  it('a restore that meets a sign-in says auth-required (not journal-only); with a sign-in it resumes', async () => {
    const first = await service.connect({ bridge, cwd: CWD, authenticate: 'reference-login' });
    expect(await first.prompt('remember me')).to.equal('end_turn');
    const { sessionId } = first;
    await first.close();
    const refused = await failure(service.connect({ bridge, cwd: CWD, resume: { sessionId } }));
    expect(refused?.code).to.equal('auth-required');
    expect((refused!.data as { authMethods: unknown }).authMethods).to.deep.equal(EXPECTED_METHODS);
    const again = await service.connect({
      bridge,
      cwd: CWD,
      resume: { sessionId },
      authenticate: 'reference-login',
    });
    expect(again.resumeOutcome).to.equal('resumed');
    expect(await again.prompt('still there?')).to.equal('end_turn');
    await again.close();
  });

  it('<silo-chat> offers the usable methods as buttons, explains the terminal one, and signs in on a click', async () => {
    const chat = document.createElement('silo-chat') as SiloChat;
    chat.setAttribute('storage-key', `silo-sign-in-${crypto.randomUUID()}`);
    chat.setAttribute('bridge', bridge.connection);
    chat.setAttribute('cwd', CWD);
    const unmount = mount(chat);
    try {
      const root = chat.shadowRoot!;
      const buttons = await until(
        () => {
          const found = [...root.querySelectorAll<HTMLButtonElement>('[part="sign-in"]')];
          return found.length ? found : undefined;
        },
        'the sign-in buttons',
        20000,
      );
      expect(buttons.map((b) => b.textContent?.trim())).to.deep.equal([
        'Sign in: Log in',
        'Sign in: API key',
      ]);
      expect(root.querySelector('[part="banner"]')?.textContent).to.contain(
        "Log in from a terminal: needs a terminal on the agent's machine",
      );
      buttons[0]!.click();
      await until(
        () => root.querySelector('[part="state"]')?.getAttribute('data-state') === 'connected',
        'the chat connected after signing in',
        20000,
      );
      expect(root.querySelector('[part="sign-in"]')).to.equal(null);
      expect(await chat.session!.prompt('signed in')).to.equal('end_turn');
    } finally {
      unmount();
    }
  });
});
