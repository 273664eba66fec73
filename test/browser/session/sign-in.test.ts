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

/** What the agent offers, as the page must see it (agent/handshake.ts AUTH_METHODS, written out). */
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
  {
    id: 'reference-terminal',
    name: 'Log in from a terminal',
    type: 'terminal',
    usable: false,
    terminal: { args: ['--login'] },
  },
  // Copilot CLI's shape: no type, `_meta["terminal-auth"]` with the command to run.
  {
    id: 'reference-device',
    name: 'Device login',
    type: 'terminal',
    usable: false,
    terminal: { command: 'reference-agent', args: ['login', '--device'] },
  },
  // Qwen Code's shape: `_meta.type: "terminal"`.
  {
    id: 'reference-oauth',
    name: 'OAuth in a terminal',
    type: 'terminal',
    usable: false,
    terminal: { args: ['--auth'] },
  },
];

/** What the agent says when it refuses to open a session (agent/handshake.ts SIGN_IN_REFUSAL, as Cline names its key). */
const SIGN_IN_REFUSAL =
  "Authentication required: Not signed in: set SILO_REFERENCE_API_KEY in the agent's environment, or sign in";

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

  it('auth-required lists every method with its type, which a page can use, and what a terminal one runs; the message says what the agent said', async () => {
    const error = await failure(service.connect({ bridge, cwd: CWD }));
    expect(error?.code).to.equal('auth-required');
    expect((error!.data as { authMethods: unknown }).authMethods).to.deep.equal(EXPECTED_METHODS);
    expect(error?.message).to.contain(SIGN_IN_REFUSAL);
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

  it('<silo-chat> offers the usable methods as buttons, says what to run for the terminal ones and what the agent said, and signs in on a click', async () => {
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
      const banner = root.querySelector('[part="banner"]')!.textContent!;
      expect(banner, 'what the agent said').to.contain(SIGN_IN_REFUSAL);
      expect(
        [...root.querySelectorAll('[part="sign-in-elsewhere"]')].map((e) => e.textContent),
      ).to.deep.equal([
        "Log in from a terminal: run the agent's command with `--login` in a terminal on the agent's machine, then Retry.",
        "Device login: run `reference-agent login --device` in a terminal on the agent's machine, then Retry.",
        "OAuth in a terminal: run the agent's command with `--auth` in a terminal on the agent's machine, then Retry.",
      ]);
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

  it('a sign-in the agent never answers (Cline’s OAuth) fails with a coded error after the bound, and <silo-chat> stays usable', async () => {
    const hanging = await startBridge({
      agentArgs: ['--auth-required', '--auth-hang'],
      agentEnv: { SILO_REFERENCE_API_KEY: 'k-test' },
    });
    const bounded = createAgentsService({ signInTimeoutMs: 400 });
    const chat = document.createElement('silo-chat') as SiloChat;
    chat.service = bounded;
    chat.setAttribute('storage-key', `silo-sign-in-${crypto.randomUUID()}`);
    chat.setAttribute('bridge', hanging.connection);
    chat.setAttribute('cwd', CWD);
    const unmount = mount(chat);
    try {
      const hung = await failure(
        bounded.connect({ bridge: hanging, cwd: CWD, authenticate: 'reference-login' }),
      );
      expect(hung?.code).to.equal('auth-required');
      expect(hung?.message).to.contain(
        'Sign-in with "Log in" did not finish within 0.4 s: the agent never answered.',
      );
      expect(hung?.message, 'what the agent says of the method').to.contain('Pretend to log in');
      const root = chat.shadowRoot!;
      const signIn = (name: string) =>
        until(
          () =>
            [...root.querySelectorAll<HTMLButtonElement>('[part="sign-in"]')].find(
              (b) => b.textContent?.trim() === name,
            ),
          `the "${name}" button`,
          20000,
        );
      (await signIn('Sign in: Log in')).click();
      await until(
        () => root.querySelector('[part="banner"]')?.textContent?.includes('did not finish within'),
        'the banner says the sign-in never finished',
        20000,
      );
      // The chat is still usable: another method signs in.
      (await signIn('Sign in: API key')).click();
      await until(
        () => root.querySelector('[part="state"]')?.getAttribute('data-state') === 'connected',
        'connected with the other method',
        20000,
      );
      expect(await chat.session!.prompt('signed in')).to.equal('end_turn');
    } finally {
      unmount();
      await bounded.dispose();
      await stopBridge(hanging.id);
    }
  });
});
