// Questions through the real bridge, worker, journal and reference agent, answered in <silo-elicitation>:
// each test checks what the agent received (it echoes "You answered: {json}") and what the journal holds.
import { expect } from 'chai';
import '../../../components/elicitation/silo-elicitation.define.ts';
import type { SiloElicitation } from '../../../components/elicitation/silo-elicitation.ts';
import { applyResolution } from '../../../src/elicitation/model.ts';
import {
  type AgentElicitationRecord,
  type AgentElicitationRequest,
  type AgentSessionHandle,
  type AgentSessionUpdate,
  type AgentsService,
  createAgentsService,
  SiloError,
} from '../../../src/index.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import { expectAccessible } from '../fixtures/axe.ts';
import { mount, unmountAll } from '../fixtures/mount.ts';

const CWD = '/tmp/silo-elicitation-e2e';

describe('<silo-elicitation> through the real bridge and reference agent', function () {
  this.timeout(60000);
  let bridge: TestBridge;
  let databaseName: string;
  let service: AgentsService;
  let session: AgentSessionHandle;
  let requests: AgentElicitationRequest[];
  let delivered: AgentSessionUpdate[];
  let opened: unknown[][];
  const realOpen = window.open;

  before(async () => {
    bridge = await startBridge();
  });
  after(async () => {
    await stopBridge(bridge.id);
  });
  beforeEach(async () => {
    databaseName = `silo-elicitation-${crypto.randomUUID()}`;
    service = createAgentsService({ databaseName });
    requests = [];
    delivered = [];
    opened = [];
    window.open = (...args: unknown[]) => {
      opened.push(args);
      return null;
    };
    session = await service.connect({
      bridge,
      cwd: CWD,
      onUpdate: (u) => delivered.push(u),
      onElicitation: (r) => requests.push(r),
    });
  });
  afterEach(async () => {
    window.open = realOpen;
    unmountAll();
    await service.dispose();
    indexedDB.deleteDatabase(databaseName);
  });

  /** Starts a scenario turn; resolves once its question is shown in a `<silo-elicitation>`. */
  async function ask(scenario: string) {
    const from = delivered.length;
    const index = requests.length;
    const done = session.prompt(`/scenario ${scenario}`);
    const request = await until(() => requests[index], `the ${scenario} question`, 20000);
    const el = document.createElement('silo-elicitation');
    el.request = request;
    mount(el);
    await el.updateComplete;
    const reply = async () => {
      const stop = await done;
      const text = delivered
        .slice(from)
        .filter((u) => u.kind === 'agent_message_chunk')
        .map((u) => u.text ?? '')
        .join('');
      const match = /You answered: (\{.*\})/.exec(text);
      return { stop, received: match ? JSON.parse(match[1] as string) : undefined, text };
    };
    return { request, el, reply };
  }

  /** The journal's rows for one question: the opening record, its resolution row, and the raw updates. */
  async function journaled(id: string) {
    const journal = await session.transcript();
    const rows = journal.filter((u) => u.elicitation?.id === id);
    const open = rows.find((u) => u.kind === 'elicitation');
    const resolution = rows.find((u) => u.kind === 'elicitation_resolution');
    return { rows, open: open?.elicitation, resolution: resolution?.elicitation, journal };
  }

  const root = (el: SiloElicitation) => el.shadowRoot as ShadowRoot;
  const control = (el: SiloElicitation, id: string) => {
    const c = root(el).querySelector<HTMLInputElement>(
      `[data-question="${id}"] input, [data-question="${id}"] select`,
    );
    if (!c) throw new Error(`no control for ${id}`);
    return c;
  };
  const type = (c: HTMLInputElement, value: string) => {
    c.value = value;
    c.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const check = (el: SiloElicitation, id: string, value: string) => {
    const box = root(el).querySelector<HTMLInputElement>(`[data-question="${id}"] input[value="${value}"]`);
    if (!box) throw new Error(`no option ${value} of ${id}`);
    box.click();
  };
  const click = (el: SiloElicitation, part: string) => {
    const b = root(el).querySelector<HTMLButtonElement>(`button[part~="${part}"]`);
    if (!b) throw new Error(`no ${part} button`);
    b.click();
  };
  const status = (el: SiloElicitation) => root(el).querySelector('[part~="status"]')?.textContent ?? '';

  it("Claude's AskUserQuestion: each question's question_N_custom is its own Other… field, sent under its id, journaled with the question", async () => {
    const { request, el, reply } = await ask('ask-user-question');
    expect(request.questions.map((q) => [q.id, q.type, q.other?.id])).to.deep.equal([
      ['question_0', 'single-select', 'question_0_custom'],
      ['question_1', 'multi-select', 'question_1_custom'],
    ]);
    const others = [...root(el).querySelectorAll('[part~="other"]')];
    expect(
      others.map((o) => [
        o.closest('[data-question^="question_"]:not([part~="other"])')?.getAttribute('data-question'),
        o.querySelector('label')?.textContent,
      ]),
    ).to.deep.equal([
      ['question_0', 'Other…'],
      ['question_1', 'Other…'],
    ]);
    expect(root(el).querySelectorAll('fieldset[data-question]'), 'two questions, not four').to.have.length(2);
    await expectAccessible(el, 'the form with its Other fields');
    check(el, 'question_0', 'SQLite');
    type(control(el, 'question_0_custom'), 'with WAL');
    type(control(el, 'question_1_custom'), 'Benchmarks');
    click(el, 'answer');
    const { stop, received } = await reply();
    expect(stop).to.equal('end_turn');
    expect(received).to.deep.equal({
      action: 'accept',
      content: { question_0: 'SQLite', question_0_custom: 'with WAL', question_1_custom: 'Benchmarks' },
    });
    const { resolution } = await journaled(request.id);
    expect(resolution?.answers, 'as the user saw them, with their questions').to.deep.equal({
      question_0: 'SQLite, Other: with WAL',
      question_1: 'Other: Benchmarks',
    });
    const recorded = document.createElement('silo-elicitation');
    const { open } = await journaled(request.id);
    recorded.record = applyResolution(open!, resolution!);
    mount(recorded);
    await recorded.updateComplete;
    const rows = [...root(recorded).querySelectorAll('[part~="answers"] dt')].map((dt) => [
      dt.textContent,
      dt.nextElementSibling?.textContent,
    ]);
    expect(rows).to.deep.equal([
      ['Database', 'SQLite, Other: with WAL'],
      ['Extras', 'Other: Benchmarks'],
    ]);
  });

  it('a form with every property type: defaults, validation, then the answer in agent types; the journal keeps labels', async () => {
    const { request, el, reply } = await ask('elicit-form');
    expect(request.mode).to.equal('form');
    expect(request.unsupported).to.equal(false);
    expect(control(el, 'name').value).to.equal('Ada', 'default pre-filled');
    expect(
      root(el).querySelector<HTMLInputElement>('[data-question="color"] input[value="green"]')?.checked,
    ).to.equal(true);
    expect(control(el, 'count').value).to.equal('3');
    expect(control(el, 'ratio').value).to.equal('0.5');
    expect(
      root(el).querySelector<HTMLInputElement>('[data-question="size"] input[value="m"]')?.checked,
    ).to.equal(true);
    expect(
      root(el).querySelector<HTMLInputElement>('[data-question="tags"] input[value="safe"]')?.checked,
    ).to.equal(true);

    // Invalid answers stay on the page: nothing reaches the agent, the journal has no resolution.
    type(control(el, 'code'), 'abc');
    type(control(el, 'email'), 'nope');
    type(control(el, 'count'), '11');
    click(el, 'answer');
    await el.updateComplete;
    expect(control(el, 'code').getAttribute('aria-invalid')).to.equal('true');
    expect(control(el, 'email').getAttribute('aria-invalid')).to.equal('true');
    expect(control(el, 'count').getAttribute('aria-invalid')).to.equal('true');
    expect(root(el).querySelector('[data-question="count"] [part~="error"]')?.textContent).to.equal(
      'Enter a number of at most 10.',
    );
    expect((await journaled(request.id)).resolution).to.equal(undefined);

    type(control(el, 'code'), 'ABC');
    type(control(el, 'email'), 'ada@example.com');
    type(control(el, 'count'), '7');
    type(control(el, 'started'), '2025-03-14');
    type(control(el, 'site'), 'https://example.org/ada');
    type(control(el, 'ratio'), '0.25');
    check(el, 'size', 'l');
    check(el, 'tags', 'fast');
    check(el, 'features', 'test');
    check(el, 'features', 'lint');
    control(el, 'agree').click();
    await el.updateComplete;
    click(el, 'answer');
    const { stop, received } = await reply();
    expect(stop).to.equal('end_turn');
    expect(received).to.deep.equal({
      action: 'accept',
      content: {
        name: 'Ada',
        email: 'ada@example.com',
        code: 'ABC',
        started: '2025-03-14',
        site: 'https://example.org/ada',
        color: 'green',
        size: 'l',
        ratio: 0.25,
        count: 7,
        agree: true,
        tags: ['fast', 'safe'],
        features: ['lint', 'test'],
      },
    });

    const { open, resolution } = await journaled(request.id);
    expect(open?.message).to.equal('Tell me about your project.');
    expect(open?.resolution).to.equal(undefined, 'the opening row has no resolution');
    expect(open?.questions?.map((q) => `${q.id}:${q.type}`)).to.deep.equal([
      'name:text',
      'email:text',
      'code:text',
      'started:text',
      'site:text',
      'color:single-select',
      'size:single-select',
      'ratio:number',
      'count:integer',
      'agree:boolean',
      'tags:multi-select',
      'features:multi-select',
    ]);
    expect(resolution).to.deep.equal({
      id: request.id,
      resolution: 'answered',
      answers: {
        name: 'Ada',
        email: 'ada@example.com',
        code: 'ABC',
        started: '2025-03-14',
        site: 'https://example.org/ada',
        color: 'green',
        size: 'Large',
        ratio: '0.25',
        count: '7',
        agree: 'Yes',
        tags: 'fast, safe',
        features: 'Linting, Tests',
      },
    });
    await until(() => status(el) === 'Answered.', 'the element shows the answer');
  });

  it('decline and cancel reach the agent and the journal', async () => {
    for (const [part, action, resolution] of [
      ['decline', 'decline', 'declined'],
      ['cancel', 'cancel', 'cancelled'],
    ] as const) {
      const { request, el, reply } = await ask('elicit-form');
      click(el, part);
      const { received } = await reply();
      expect(received).to.deep.equal({ action });
      expect((await journaled(request.id)).resolution).to.deep.equal({ id: request.id, resolution });
      await until(() => status(el) === (part === 'decline' ? 'Declined.' : 'Cancelled.'), `${part} shown`);
    }
  });

  it('cancelling the turn ends the open question as cancelled', async () => {
    const { request, el, reply } = await ask('elicit-form');
    await session.cancel();
    const { stop } = await reply();
    expect(stop).to.equal('cancelled');
    expect(request.signal.aborted).to.equal(true);
    await until(() => status(el) === 'Cancelled.', 'the element shows the question cancelled');
    expect(root(el).querySelector('form')).to.equal(null);
    const { resolution, rows } = await journaled(request.id);
    expect(resolution).to.deep.equal({ id: request.id, resolution: 'cancelled' });
    const answer = rows.find((u) => u.kind === 'elicitation_resolution')?.raw as { result?: unknown };
    expect(answer.result).to.deep.equal({ action: 'cancel' }, 'the agent was answered cancel');
  });

  it('an unknown property type renders no known control; decline is all there is', async () => {
    const { request, el, reply } = await ask('elicit-custom');
    expect(request.unsupported).to.equal(true);
    expect(root(el).querySelectorAll('input, select, textarea, form').length).to.equal(0);
    expect(root(el).querySelector('button[part~="answer"]')).to.equal(null);
    click(el, 'decline');
    const { received } = await reply();
    expect(received).to.deep.equal({ action: 'decline' });
    const { open, resolution } = await journaled(request.id);
    expect(open?.unsupported).to.equal(true);
    const volume = open?.questions?.find((q) => q.id === 'volume');
    expect(volume?.type).to.equal('unsupported');
    expect(volume?.raw).to.deep.include({ type: '_slider', step: 1 }, 'the raw property schema is kept');
    expect(resolution?.resolution).to.equal('declined');
  });

  it('url mode: shows the URL and host, opens only on click, accept on open, then elicitation/complete', async () => {
    const { request, el, reply } = await ask('elicit-url');
    expect(request.url).to.equal('https://example.com/silo-login?state=reference-agent');
    expect(root(el).querySelector('[part~="url-host"]')?.textContent).to.equal('example.com');
    expect(opened).to.deep.equal([], 'never opened by itself');
    click(el, 'answer');
    const { received } = await reply();
    expect(received.action).to.equal('accept');
    expect(received).to.deep.equal({ action: 'accept' }, 'url accept is consent: it carries no content');
    expect(opened).to.deep.equal([[request.url, '_blank', 'noopener,noreferrer']]);
    const { resolution, journal } = await journaled(request.id);
    expect(resolution).to.deep.equal({ id: request.id, resolution: 'answered' });
    const complete = journal.find((u) => u.kind === 'elicitation_complete');
    expect(complete?.elicitation).to.deep.equal(
      { id: request.id, completed: true },
      'the completion is journaled',
    );
    expect(await request.completion).to.equal(true, 'the live request learns of the completion');
  });

  it('url mode without completion: retry and stop stay available', async () => {
    const { request, el, reply } = await ask('elicit-url-pending');
    click(el, 'answer');
    const { received, text } = await reply();
    expect(received.action).to.equal('accept');
    expect(text).to.contain('will never complete');
    await until(() => status(el).includes('Waiting'), 'waiting for completion');
    const again = root(el).querySelector<HTMLButtonElement>('button[part~="answer"]');
    expect(again?.textContent?.trim()).to.equal('Open again');
    again?.click();
    expect(opened).to.have.length(2);
    click(el, 'cancel');
    await until(() => status(el) === 'Stopped waiting for the agent.', 'stopped waiting');
    const { journal } = await journaled(request.id);
    expect(journal.some((u) => u.kind === 'elicitation_complete')).to.equal(false);
  });

  it('after a reload, a question left open repaints from the journal as one that can no longer be answered', async () => {
    const { request, reply } = await ask('elicit-form');
    const sessionId = session.sessionId;
    await until(
      () => delivered.some((u) => u.kind === 'elicitation' && u.elicitation?.id === request.id),
      'journaled',
    );
    // The page goes away with the question open: the pending prompt fails with a coded error.
    const pending = reply().then(
      () => undefined,
      (e: unknown) => e,
    );
    await service.dispose();
    // Coded either way: the link closed first (`interrupted`) or the worker was gone first (`closed`).
    const error = (await pending) as SiloError;
    expect(error, 'the open prompt rejects once the service is gone').to.be.instanceOf(SiloError);
    expect(['interrupted', 'closed']).to.include(error.code);
    service = createAgentsService({ databaseName });
    const journal = await service.transcript(sessionId);
    let record: AgentElicitationRecord | undefined;
    for (const u of journal) {
      if (u.elicitation?.id !== request.id) continue;
      if (u.kind === 'elicitation') record = u.elicitation;
      else if (u.kind === 'elicitation_resolution' && record) record = applyResolution(record, u.elicitation);
    }
    expect(record?.message).to.equal('Tell me about your project.');
    expect([undefined, 'unanswerable']).to.include(record?.resolution);
    const el = document.createElement('silo-elicitation');
    el.record = record;
    mount(el);
    await el.updateComplete;
    expect(status(el)).to.match(/can no longer be answered|could no longer be answered/);
    expect(root(el).querySelectorAll('input, select, button').length).to.equal(0);
  });
});
