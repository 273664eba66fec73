// The one connection string silo-bridge prints (`ws://127.0.0.1:PORT/#token=…`) in `<silo-chat bridge>`
// and `service.connect({ bridge })`, and an agent that dies before it answers `initialize`: its exit
// code and last stderr line reach the page (real bridge, real processes).
import { expect } from 'chai';
import '../../../components/index.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import { createAgentsService, type SiloError } from '../../../src/index.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import { deepText, mount } from '../fixtures/dom.ts';

const STDERR_LINE = 'exit-agent: cannot start: SILO_TEST_KEY is not set';

function chatFor(attributes: Record<string, string>): SiloChat {
  const chat = document.createElement('silo-chat');
  chat.setAttribute('storage-key', `silo-conn-${crypto.randomUUID()}`);
  chat.setAttribute('cwd', `/tmp/silo-conn-${crypto.randomUUID()}`);
  for (const [name, value] of Object.entries(attributes)) chat.setAttribute(name, value);
  return chat;
}

const state = (chat: SiloChat) =>
  chat.shadowRoot?.querySelector('[part="state"]')?.getAttribute('data-state');
const alert = (chat: SiloChat) => chat.shadowRoot?.querySelector('[part="banner"][role="alert"]');

describe('the bridge connection string (real bridge, reference agent)', function () {
  this.timeout(60000);
  let bridge: TestBridge;
  before(async () => {
    bridge = await startBridge();
  });
  after(async () => {
    await stopBridge(bridge.id);
  });

  it('the connection string is ws://…/#token=…', () => {
    expect(bridge.connection).to.equal(`${bridge.url}/#token=${bridge.token}`);
  });

  it('<silo-chat bridge="ws://…#token=…"> connects and answers a prompt', async () => {
    const chat = chatFor({ bridge: bridge.connection });
    const unmount = mount(chat);
    try {
      await until(() => chat.session && state(chat) === 'connected', 'chat connected', 20000);
      await chat.send('hello through the connection string');
      await until(
        () => /Echo:\s*hello through the connection string/.test(deepText(chat.shadowRoot!)),
        'the answer rendered',
        20000,
      );
    } finally {
      unmount();
    }
  });

  it('service.connect({ bridge: "ws://…#token=…" }) connects; a string that is not one is invalid-params', async () => {
    const service = createAgentsService({ databaseName: `silo-conn-${crypto.randomUUID()}` });
    try {
      const session = await service.connect({ bridge: bridge.connection, cwd: '/tmp/silo-conn' });
      expect(session.state).to.equal('connected');
      await session.close();
      const error = await service.connect({ bridge: bridge.url, cwd: '/tmp/silo-conn' }).then(
        () => undefined,
        (e: SiloError) => e,
      );
      expect(error?.code).to.equal('invalid-params');
      expect(error?.message).to.include('#token=');
    } finally {
      await service.dispose();
    }
  });
});

describe('an agent that exits before it answers initialize (real bridge)', function () {
  this.timeout(60000);
  let bridge: TestBridge;
  before(async () => {
    bridge = await startBridge({ agentScript: 'agent/test/exit-agent.ts' });
  });
  after(async () => {
    await stopBridge(bridge.id);
  });

  it('service.connect rejects with closed, naming the exit code and the last stderr line', async () => {
    const service = createAgentsService({ databaseName: `silo-exit-${crypto.randomUUID()}` });
    try {
      const error = await service.connect({ bridge: bridge.connection, cwd: '/tmp/silo-exit' }).then(
        () => undefined,
        (e: SiloError) => e,
      );
      expect(error?.code).to.equal('closed');
      expect(error?.message).to.equal(
        `The agent ended before it answered: agent exited with code 3: ${STDERR_LINE}`,
      );
    } finally {
      await service.dispose();
    }
  });

  it('<silo-chat> shows the exit code and the last stderr line, and fires silo-error', async () => {
    const chat = chatFor({ 'bridge-url': bridge.url, 'bridge-token': bridge.token });
    let fired: SiloError | undefined;
    chat.addEventListener('silo-error', (e) => {
      fired = e.detail.error;
    });
    const unmount = mount(chat);
    try {
      const banner = await until(() => alert(chat), 'the error banner', 20000);
      expect(banner.textContent).to.include('exited with code 3');
      expect(banner.textContent).to.include(STDERR_LINE);
      expect(banner.textContent).not.to.include('Initialize failed');
      expect(fired?.code).to.equal('closed');
    } finally {
      unmount();
    }
  });
});
