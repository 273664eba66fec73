// <silo-elicitation> in a real browser, driven through the page-side AgentElicitationRequest interface.
import '../../../components/elicitation/silo-elicitation.define.ts';
import { sendKeys } from '@web/test-runner-commands';
import { expect } from 'chai';
import type { SiloElicitation } from '../../../components/elicitation/silo-elicitation.ts';
import type { AgentElicitationAnswer, AgentElicitationRequest } from '../../../src/api.ts';
import { normalizeElicitation, validateAnswers } from '../../../src/elicitation/model.ts';
import { SiloError } from '../../../src/errors.ts';
import type { AgentElicitationRecord } from '../../../src/types.ts';
import { until } from '../../support/until.ts';
import { expectAccessible } from '../fixtures/axe.ts';
import { mount as mountBox, unmountAll } from '../fixtures/mount.ts';

type Call =
  | { kind: 'answer'; values: Readonly<Record<string, AgentElicitationAnswer>> }
  | { kind: 'decline' | 'cancel' };

/**
 * A page-side request built the way the service builds one: normalized from real `elicitation/create`
 * params; answer() validates with the same model the worker uses and records what it would send.
 */
class TestRequest implements AgentElicitationRequest {
  readonly id = `el-${crypto.randomUUID()}`;
  readonly mode: string;
  readonly message: string;
  readonly questions;
  readonly acknowledgeOnly: boolean;
  readonly url?: string;
  readonly unsupported: boolean;
  readonly raw;
  readonly calls: Call[] = [];
  readonly controller = new AbortController();
  readonly signal = this.controller.signal;
  completion?: Promise<boolean>;
  private completeWith?: (done: boolean) => void;

  constructor(params: Record<string, unknown>, options: { completion?: boolean } = {}) {
    const n = normalizeElicitation({ sessionId: 's-1', ...params }, { form: true, url: true });
    if (n.invalid) throw new Error(n.invalid);
    this.mode = n.mode;
    this.message = n.message;
    this.questions = n.questions;
    this.acknowledgeOnly = n.acknowledgeOnly;
    this.url = n.url;
    this.unsupported = n.unsupported;
    this.raw = n.raw;
    if (options.completion) this.completion = new Promise((resolve) => (this.completeWith = resolve));
  }

  complete(done: boolean): void {
    this.completeWith?.(done);
  }

  async answer(values: Readonly<Record<string, AgentElicitationAnswer>>): Promise<void> {
    const result = validateAnswers(this.questions, values);
    if (!result.ok) throw new SiloError('invalid-params', 'invalid answers', { errors: result.errors });
    this.calls.push({ kind: 'answer', values });
  }
  async decline(): Promise<void> {
    this.calls.push({ kind: 'decline' });
  }
  async cancel(): Promise<void> {
    this.calls.push({ kind: 'cancel' });
  }
}

const everyType = {
  mode: 'form',
  message: 'Tell me about the release',
  requestedSchema: {
    type: 'object',
    properties: {
      channel: {
        type: 'string',
        title: 'Channel',
        description: 'Where it ships',
        oneOf: [
          { const: 'stable', title: 'Stable channel' },
          { const: 'beta', title: 'Beta channel', description: 'Weekly' },
        ],
        default: 'beta',
      },
      color: {
        type: 'string',
        title: 'Color',
        enum: ['red', 'green', 'blue', 'cyan', 'magenta', 'yellow', 'black', 'white'],
      },
      platforms: {
        type: 'array',
        title: 'Platforms',
        items: {
          anyOf: [
            { const: 'mac', title: 'macOS' },
            { const: 'win', title: 'Windows' },
            { const: 'lin', title: 'Linux' },
          ],
        },
        minItems: 1,
        maxItems: 2,
        default: ['mac'],
      },
      notify: { type: 'boolean', title: 'Notify subscribers', default: true },
      name: {
        type: 'string',
        title: 'Name',
        minLength: 2,
        maxLength: 8,
        pattern: '^[a-z]+$',
        default: 'abc',
      },
      email: { type: 'string', title: 'Email', format: 'email' },
      site: { type: 'string', title: 'Site', format: 'uri' },
      day: { type: 'string', title: 'Day', format: 'date' },
      at: { type: 'string', title: 'At', format: 'date-time' },
      ratio: { type: 'number', title: 'Ratio', minimum: 0, maximum: 1, default: 0.5 },
      count: { type: 'integer', title: 'Count', minimum: 1, maximum: 10 },
    },
    required: ['channel', 'platforms', 'name', 'count'],
  },
};

/** Mounts a `<silo-elicitation>` with `init`, in a `<main>` landmark. */
async function mount(init: {
  request?: AgentElicitationRequest;
  record?: AgentElicitationRecord;
}): Promise<SiloElicitation> {
  const el = document.createElement('silo-elicitation');
  el.agentName = 'Reference agent';
  if (init.request) el.request = init.request;
  if (init.record) el.record = init.record;
  const main = document.createElement('main');
  main.append(el);
  mountBox(main);
  await el.updateComplete;
  return el;
}

function root(el: SiloElicitation): ShadowRoot {
  return el.shadowRoot as ShadowRoot;
}

function field(el: SiloElicitation, id: string): HTMLElement {
  const f = root(el).querySelector<HTMLElement>(`[data-question="${id}"]`);
  if (!f) throw new Error(`no field for question ${id}`);
  return f;
}

function input(el: SiloElicitation, id: string): HTMLInputElement {
  const i = field(el, id).querySelector<HTMLInputElement>('input, select');
  if (!i) throw new Error(`no control for question ${id}`);
  return i;
}

function button(el: SiloElicitation, part: string): HTMLButtonElement {
  const b = root(el).querySelector<HTMLButtonElement>(`button[part~="${part}"]`);
  if (!b) throw new Error(`no ${part} button`);
  return b;
}

function type(control: HTMLInputElement | HTMLSelectElement, value: string): void {
  control.value = value;
  control.dispatchEvent(
    new Event(control instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }),
  );
}

function ended(el: SiloElicitation): Promise<CustomEvent> {
  return new Promise((resolve) => el.addEventListener('silo-elicitation-ended', resolve, { once: true }));
}

/** Asserts nothing in the shadow root matches. */
function expectNone(shadow: ShadowRoot, selector: string): void {
  const found = shadow.querySelector(selector);
  expect(found === null, `expected no ${selector}, found ${found?.outerHTML.slice(0, 80)}`).to.equal(true);
}

/** Asserts focus without handing DOM nodes to the assertion (their failure output is huge). */
function expectFocused(shadow: ShadowRoot, expected: Element | null | undefined): void {
  const active = shadow.activeElement;
  expect(
    active === expected,
    `focus is on ${active?.outerHTML.slice(0, 80)}, not ${expected?.outerHTML.slice(0, 80)}`,
  ).to.equal(true);
}

afterEach(unmountAll);

describe('<silo-elicitation> form mode', () => {
  it('renders every property type as its control, labelled, with defaults pre-filled', async () => {
    const el = await mount({ request: new TestRequest(everyType) });
    const r = root(el);
    expect(r.querySelector('[part~="message"]')?.textContent).to.equal('Tell me about the release');
    expect(r.querySelector('.asks')?.textContent).to.equal('Reference agent asks');

    const channel = field(el, 'channel');
    expect(channel.getAttribute('role')).to.equal('radiogroup');
    expect(channel.querySelector('legend')?.textContent).to.contain('Channel');
    const radios = [...channel.querySelectorAll<HTMLInputElement>('input[type=radio]')];
    expect(radios.map((x) => r.querySelector(`label[for="${x.id}"]`)?.textContent)).to.deep.equal([
      'Stable channel',
      'Beta channel',
    ]);
    expect(radios.map((x) => x.checked)).to.deep.equal([false, true]);
    const desc = r.getElementById(channel.getAttribute('aria-describedby') ?? '');
    expect(desc?.textContent).to.equal('Where it ships');

    const color = input(el, 'color');
    expect(color.tagName).to.equal('SELECT', 'a long single-select is a select');
    expect(color.value).to.equal('');

    const platforms = [...field(el, 'platforms').querySelectorAll<HTMLInputElement>('input[type=checkbox]')];
    expect(platforms.map((x) => x.checked)).to.deep.equal([true, false, false]);

    const notify = input(el, 'notify');
    expect(notify.type).to.equal('checkbox');
    expect(notify.checked).to.equal(true);
    expect(r.querySelector(`label[for="${notify.id}"]`)?.textContent).to.contain('Notify subscribers');

    const name = input(el, 'name');
    expect(name.type).to.equal('text');
    expect(name.value).to.equal('abc');
    expect(name.getAttribute('aria-required')).to.equal('true');
    expect(r.querySelector(`label[for="${name.id}"] [part~="required"]`)?.textContent).to.contain('*');
    expect(name.maxLength).to.equal(8);

    expect(input(el, 'email').type).to.equal('email');
    expect(input(el, 'site').type).to.equal('url');
    expect(input(el, 'day').type).to.equal('date');
    expect(input(el, 'at').type).to.equal('datetime-local');
    const ratio = input(el, 'ratio');
    expect([ratio.type, ratio.value, ratio.min, ratio.max]).to.deep.equal(['number', '0.5', '0', '1']);
    const count = input(el, 'count');
    expect([count.type, count.step, count.value]).to.deep.equal(['number', '1', '']);
  });

  it('moves focus to the first field when it opens', async () => {
    const el = await mount({ request: new TestRequest(everyType) });
    expectFocused(root(el), field(el, 'channel').querySelector('input'));
  });

  it('answers with values in the agent types, and the text the user saw', async () => {
    const request = new TestRequest(everyType);
    const el = await mount({ request });
    const answered = new Promise<CustomEvent>((resolve) =>
      el.addEventListener('silo-elicitation-answered', resolve, { once: true }),
    );
    field(el, 'channel').querySelector<HTMLInputElement>('input[value=stable]')?.click();
    type(input(el, 'color'), 'cyan');
    field(el, 'platforms').querySelector<HTMLInputElement>('input[value=lin]')?.click();
    input(el, 'notify').click();
    type(input(el, 'email'), 'me@example.com');
    type(input(el, 'day'), '2024-02-29');
    type(input(el, 'at'), '2024-02-29T10:30');
    type(input(el, 'count'), '7');
    await el.updateComplete;
    button(el, 'answer').click();
    const event = await answered;

    expect(request.calls).to.have.length(1);
    const call = request.calls[0] as Extract<Call, { kind: 'answer' }>;
    expect(call.kind).to.equal('answer');
    const { at, ...rest } = call.values;
    expect(rest).to.deep.equal({
      channel: 'stable',
      color: 'cyan',
      platforms: ['mac', 'lin'],
      notify: false,
      name: 'abc',
      email: 'me@example.com',
      day: '2024-02-29',
      ratio: 0.5,
      count: 7,
    });
    expect(at).to.match(
      /^2024-02-29T10:30:00[+-]\d{2}:\d{2}$/,
      'date-time is sent as RFC 3339 with the local offset',
    );
    expect(event.detail.answers).to.include({
      channel: 'Stable channel',
      platforms: 'macOS, Linux',
      notify: 'No',
      count: '7',
      ratio: '0.5',
    });
    expect(event.detail.answers).to.not.have.property('site');

    await el.updateComplete;
    const status = root(el).querySelector('[part~="status"]');
    expect(status?.getAttribute('data-resolution')).to.equal('answered');
    expectNone(root(el), 'form');
    const answers = [...root(el).querySelectorAll('[part~="answers"] dd')].map((d) => d.textContent);
    expect(answers).to.include('macOS, Linux');
  });

  it('shows validation errors inline, focuses the first, and sends nothing', async () => {
    const request = new TestRequest(everyType);
    const el = await mount({ request });
    type(input(el, 'name'), 'A');
    type(input(el, 'email'), 'nope');
    type(input(el, 'ratio'), '3');
    type(input(el, 'count'), '2.5');
    field(el, 'platforms').querySelector<HTMLInputElement>('input[value=mac]')?.click();
    await el.updateComplete;
    button(el, 'answer').click();
    await el.updateComplete;

    expect(request.calls).to.deep.equal([]);
    const errorOf = (id: string) => {
      const control = id === 'platforms' ? field(el, id) : input(el, id);
      expect(control.getAttribute('aria-invalid'), id).to.equal('true');
      const ids = (control.getAttribute('aria-describedby') ?? '').split(' ');
      const message = ids
        .map((x) => root(el).getElementById(x))
        .find((n) => n?.getAttribute('part') === 'error');
      return message?.textContent;
    };
    expect(errorOf('name')).to.equal('Enter at least 2 characters.');
    expect(errorOf('email')).to.equal('Enter an email address.');
    expect(errorOf('ratio')).to.equal('Enter a number of at most 1.');
    expect(errorOf('count')).to.equal('Enter a whole number.');
    expect(errorOf('platforms')).to.equal('Choose at least one option.');
    expect(input(el, 'site').getAttribute('aria-invalid')).to.equal('false');
    expect(root(el).querySelector('[role=alert]')?.textContent).to.equal('Some answers need attention.');
    expectFocused(root(el), field(el, 'platforms').querySelector('input'));

    type(input(el, 'name'), 'ab1');
    await el.updateComplete;
    expect(errorOf('name')).to.equal(
      'This answer is not in the expected form.',
      'errors update while editing',
    );
    type(input(el, 'name'), 'abcdefghi');
    await el.updateComplete;
    expect(errorOf('name')).to.equal('Enter at most 8 characters.');
    type(input(el, 'name'), 'abcd');
    await el.updateComplete;
    expect(input(el, 'name').getAttribute('aria-invalid')).to.equal('false');
  });

  it('shows errors the request itself rejects with', async () => {
    const request = new TestRequest({
      mode: 'form',
      message: 'Pick',
      requestedSchema: { properties: { n: { type: 'string', title: 'N' } } },
    });
    request.answer = async () => {
      throw new SiloError('invalid-params', 'bad', { errors: { n: 'The agent would not take this.' } });
    };
    const el = await mount({ request });
    type(input(el, 'n'), 'x');
    button(el, 'answer').click();
    await until(() => input(el, 'n').getAttribute('aria-invalid') === 'true', 'the rejected answer to show');
    expect(field(el, 'n').querySelector('[part~="error"]')?.textContent).to.equal(
      'The agent would not take this.',
    );
    expect(button(el, 'answer').disabled).to.equal(false, 'the user can try again');
  });

  it('declines and cancels', async () => {
    for (const kind of ['decline', 'cancel'] as const) {
      const request = new TestRequest(everyType);
      const el = await mount({ request });
      const done = ended(el);
      button(el, kind).click();
      const event = await done;
      expect(request.calls).to.deep.equal([{ kind }]);
      expect(event.detail.resolution).to.equal(kind === 'decline' ? 'declined' : 'cancelled');
      await el.updateComplete;
      expect(root(el).querySelector('[part~="status"]')?.textContent).to.equal(
        kind === 'decline' ? 'Declined.' : 'Cancelled.',
      );
      expectNone(root(el), '[part~="answers"]');
    }
  });

  it('is keyboard operable: typing and Enter answer; Escape leaves a field and never cancels', async () => {
    const request = new TestRequest({
      mode: 'form',
      message: 'Name?',
      requestedSchema: { properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] },
    });
    const el = await mount({ request });
    expectFocused(root(el), input(el, 'name'));
    const answered = ended(el);
    await sendKeys({ type: 'Ada' });
    await sendKeys({ press: 'Enter' });
    await answered;
    expect(request.calls).to.deep.equal([{ kind: 'answer', values: { name: 'Ada' } }]);

    const second = new TestRequest(everyType);
    const el2 = await mount({ request: second });
    input(el2, 'name').focus();
    await sendKeys({ type: 'grace' });
    const typed = input(el2, 'name').value;
    expect(typed).to.include('grace');
    await sendKeys({ press: 'Escape' });
    await el2.updateComplete;
    expect(second.calls, 'Escape sends nothing').to.deep.equal([]);
    expect(root(el2).activeElement, 'focus left the field for the question').to.equal(
      root(el2).querySelector('section[part~="live"]'),
    );
    expect(input(el2, 'name').value, 'the answer is kept').to.equal(typed);
    await sendKeys({ press: 'Escape' });
    await el2.updateComplete;
    expect(second.calls, 'a second Escape does nothing either').to.deep.equal([]);
    expect(root(el2).querySelector('form')).to.not.equal(null);
  });

  it('offers only acknowledge, decline and cancel when there is nothing to fill in', async () => {
    const request = new TestRequest({
      mode: 'form',
      message: 'Ready to deploy?',
      requestedSchema: { type: 'object' },
    });
    const el = await mount({ request });
    expect(root(el).querySelectorAll('input, select').length).to.equal(0);
    const ok = button(el, 'answer');
    expect(ok.textContent?.trim()).to.equal('OK');
    expectFocused(root(el), ok);
    ok.click();
    await ended(el);
    expect(request.calls).to.deep.equal([{ kind: 'answer', values: {} }]);
  });

  it('renders an unknown property type as no known control: decline or cancel only', async () => {
    const request = new TestRequest({
      mode: 'form',
      message: 'Slide it',
      requestedSchema: {
        properties: {
          ok: { type: 'boolean', title: 'OK?' },
          level: { type: '_slider', title: 'Level', step: 5 },
        },
      },
    });
    expect(request.unsupported).to.equal(true);
    const el = await mount({ request });
    const r = root(el);
    expect(r.querySelectorAll('input, select, textarea').length).to.equal(0);
    expectNone(r, 'form');
    expectNone(r, 'button[part~="answer"]');
    expect(r.querySelector('[part~="unsupported"]')?.textContent).to.contain('cannot be shown');
    expect(field(el, 'level').textContent).to.contain('_slider');
    expectFocused(r, button(el, 'decline'));
    button(el, 'decline').click();
    await ended(el);
    expect(request.calls).to.deep.equal([{ kind: 'decline' }]);
  });

  it('renders a custom mode as no known control', async () => {
    const request = new TestRequest({ mode: '_vendor_mode', message: 'Vendor thing', extra: 1 });
    const el = await mount({ request });
    expect(root(el).querySelectorAll('input, select, a, form').length).to.equal(0);
    expectNone(root(el), 'button[part~="answer"]');
    button(el, 'cancel').click();
    await ended(el);
    expect(request.calls).to.deep.equal([{ kind: 'cancel' }]);
  });

  it('ends as cancelled when the turn is cancelled, and as unanswerable when the connection goes away', async () => {
    for (const [reason, resolution, text] of [
      ['cancelled', 'cancelled', 'Cancelled.'],
      ['unanswerable', 'unanswerable', 'could no longer be answered'],
    ] as const) {
      const request = new TestRequest(everyType);
      const el = await mount({ request });
      const done = ended(el);
      request.controller.abort(reason);
      expect((await done).detail.resolution).to.equal(resolution);
      await el.updateComplete;
      expectNone(root(el), 'form');
      expect(root(el).querySelector('[part~="status"]')?.textContent).to.contain(text);
      expect(request.calls).to.deep.equal(
        [],
        'nothing is sent by the component: the worker answers the agent',
      );
    }
  });

  it('an answer in flight is not turned into a cancel when the signal aborts as it lands', async () => {
    const request = new TestRequest(everyType);
    request.answer = async (values) => {
      request.calls.push({ kind: 'answer', values });
      request.controller.abort();
    };
    const el = await mount({ request });
    type(input(el, 'count'), '3');
    await el.updateComplete;
    const done = ended(el);
    button(el, 'answer').click();
    expect((await done).detail.resolution).to.equal('answered');
  });

  it('keeps what happened after the host clears request, until the journaled row says how it ended', async () => {
    const request = new TestRequest(everyType);
    const el = await mount({ request });
    type(input(el, 'count'), '3');
    await el.updateComplete;
    const done = ended(el);
    button(el, 'answer').click();
    await done;
    el.request = undefined;
    el.record = { id: request.id, mode: 'form', message: request.message, questions: request.questions };
    await el.updateComplete;
    expect(root(el).querySelector('[part~="status"]')?.textContent).to.equal(
      'Answered.',
      'no "no longer answerable" flash',
    );
    el.record = { ...el.record, resolution: 'answered', answers: { name: 'abc' } };
    await el.updateComplete;
    expect(root(el).querySelector('[part~="answers"]')?.textContent).to.contain('abc');
    el.record = { id: 'another', message: 'Other', resolution: 'declined' };
    await el.updateComplete;
    expect(root(el).querySelector('[part~="status"]')?.textContent).to.equal(
      'Declined.',
      'a new record replaces it',
    );
  });

  it('passes axe on the form, with errors shown', async () => {
    const el = await mount({ request: new TestRequest(everyType) });
    await expectAccessible(el);
    type(input(el, 'name'), '');
    button(el, 'answer').click();
    await el.updateComplete;
    await expectAccessible(el);
  });

  it('uses replacement strings', async () => {
    const el = document.createElement('silo-elicitation');
    el.strings = {
      answer: 'Répondre',
      decline: 'Refuser',
      asks: () => "L'agent demande",
      issue: (issue) => `Erreur : ${issue.code}`,
    };
    el.request = new TestRequest(everyType);
    mountBox(el);
    await el.updateComplete;
    expect(button(el, 'answer').textContent?.trim()).to.equal('Répondre');
    expect(button(el, 'decline').textContent?.trim()).to.equal('Refuser');
    expect(root(el).querySelector('.asks')?.textContent).to.equal("L'agent demande");
    type(input(el, 'name'), '');
    button(el, 'answer').click();
    await el.updateComplete;
    expect(field(el, 'name').querySelector('[part~="error"]')?.textContent).to.equal('Erreur : required');
  });
});

describe('<silo-elicitation> url mode', () => {
  let opened: unknown[][] = [];
  const realOpen = window.open;
  beforeEach(() => {
    opened = [];
    window.open = (...args: unknown[]) => {
      opened.push(args);
      return null;
    };
  });
  afterEach(() => {
    window.open = realOpen;
  });

  const urlParams = (url: string) => ({
    mode: 'url',
    message: 'Sign in to continue',
    url,
    elicitationId: 'e-1',
  });

  it('shows the full URL with its host emphasised, never opens it by itself, opens on click with noopener', async () => {
    const request = new TestRequest(urlParams('https://login.example.com/oauth?state=1'), {
      completion: true,
    });
    const el = await mount({ request });
    const url = root(el).querySelector('[part~="url"]');
    expect(url?.textContent?.replace(/\s+/g, '')).to.equal('https://login.example.com/oauth?state=1');
    expect(url?.querySelector('[part~="url-host"]')?.textContent).to.equal('login.example.com');
    expect(root(el).querySelectorAll('a, iframe, link').length).to.equal(0);
    expectNone(root(el), '[part~="warning"]');
    expect(opened).to.deep.equal([], 'not opened before the click');
    expect(request.calls).to.deep.equal([]);
    expectFocused(root(el), button(el, 'answer'));

    button(el, 'answer').click();
    await new Promise<void>((resolve) =>
      el.addEventListener('silo-elicitation-answered', () => resolve(), { once: true }),
    );
    expect(opened).to.deep.equal([
      ['https://login.example.com/oauth?state=1', '_blank', 'noopener,noreferrer'],
    ]);
    expect(request.calls).to.deep.equal([{ kind: 'answer', values: {} }], 'accept = consent, sent on open');
    await el.updateComplete;
    expect(root(el).querySelector('[part~="status"]')?.textContent).to.contain('Waiting');
    expect(button(el, 'cancel').textContent?.trim()).to.equal('Stop waiting');

    request.complete(true);
    await request.completion;
    await el.updateComplete;
    expect(root(el).querySelector('[part~="status"]')?.textContent).to.equal(
      'The agent confirmed it is done.',
    );
    expectNone(root(el), 'button');
  });

  it('keeps retry and cancel available when elicitation/complete never arrives', async () => {
    const request = new TestRequest(urlParams('https://login.example.com/'));
    const el = await mount({ request });
    button(el, 'answer').click();
    await new Promise<void>((resolve) =>
      el.addEventListener('silo-elicitation-answered', () => resolve(), { once: true }),
    );
    await el.updateComplete;
    const again = button(el, 'answer');
    expect(again.textContent?.trim()).to.equal('Open again');
    again.click();
    expect(opened).to.have.length(2);
    expect(request.calls).to.have.length(1, 'opening again does not answer twice');
    button(el, 'cancel').click();
    await el.updateComplete;
    expect(request.calls).to.deep.equal([{ kind: 'answer', values: {} }, { kind: 'cancel' }]);
    expect(root(el).querySelector('[part~="status"]')?.textContent).to.equal(
      'Stopped waiting for the agent.',
    );
  });

  it('keeps retry and stop while waiting even when the host clears request; record.completed finishes it', async () => {
    const request = new TestRequest(urlParams('https://login.example.com/'));
    const el = await mount({ request });
    button(el, 'answer').click();
    await new Promise<void>((resolve) =>
      el.addEventListener('silo-elicitation-answered', () => resolve(), { once: true }),
    );
    const record = {
      id: request.id,
      mode: 'url',
      message: request.message,
      url: request.url,
      resolution: 'answered' as const,
    };
    el.request = undefined;
    el.record = record;
    await el.updateComplete;
    expect(button(el, 'answer').textContent?.trim()).to.equal('Open again');
    expect(button(el, 'cancel').textContent?.trim()).to.equal('Stop waiting');
    el.record = { ...record, completed: true };
    await el.updateComplete;
    expect(root(el).querySelector('[part~="status"]')?.textContent).to.equal(
      'The agent confirmed it is done.',
    );
    expectNone(root(el), 'button');
  });

  it('warns on punycode hosts', async () => {
    const el = await mount({ request: new TestRequest(urlParams('https://аpple.com/login')) });
    const host = root(el).querySelector('[part~="url-host"]')?.textContent ?? '';
    expect(host).to.match(/^xn--/);
    expect(root(el).querySelector('[part~="warning"]')?.textContent).to.contain(host);
    expect(button(el, 'answer')).to.exist;
  });

  it('never lets a non-http(s) URL through', async () => {
    const request = new TestRequest(urlParams('javascript:alert(1)'));
    expect(request.unsupported).to.equal(true);
    const el = await mount({ request });
    expectNone(root(el), 'button[part~="answer"]');
    expect(root(el).querySelectorAll('a').length).to.equal(0);
    expect(root(el).querySelector('[part~="url"]')?.textContent?.trim()).to.equal('javascript:alert(1)');
    expect(root(el).querySelector('[part~="warning"]')?.textContent).to.contain('Only http and https');
    button(el, 'decline').click();
    await ended(el);
    expect(opened).to.deep.equal([]);
    expect(request.calls).to.deep.equal([{ kind: 'decline' }]);
  });

  it('passes axe', async () => {
    const el = await mount({ request: new TestRequest(urlParams('https://xn--pple-43d.com/')) });
    await expectAccessible(el);
  });
});

describe('<silo-elicitation> record', () => {
  const questions = normalizeElicitation(everyType, { form: true, url: true }).questions;
  const base: AgentElicitationRecord = {
    id: 'r-1',
    mode: 'form',
    message: 'Tell me about the release',
    questions,
  };

  it('shows the answers as the user saw them, and "no answer" for skipped questions', async () => {
    const el = await mount({
      record: {
        ...base,
        resolution: 'answered',
        answers: { channel: 'Beta channel', platforms: 'macOS, Linux', notify: 'Yes' },
      },
    });
    const r = root(el);
    expect(r.querySelectorAll('input, select, button').length).to.equal(0);
    const rows = [...r.querySelectorAll('[part~="answers"] dt')].map((dt) => [
      dt.textContent,
      dt.nextElementSibling?.textContent,
    ]);
    expect(rows.slice(0, 4)).to.deep.equal([
      ['Channel', 'Beta channel'],
      ['Color', 'No answer'],
      ['Platforms', 'macOS, Linux'],
      ['Notify subscribers', 'Yes'],
    ]);
    expect(r.querySelector('[part~="status"]')?.textContent).to.equal('Answered.');
    await expectAccessible(el);
  });

  it('says how each resolution ended, and honestly when it can no longer be answered', async () => {
    const expected: [AgentElicitationRecord['resolution'], string][] = [
      ['declined', 'Declined.'],
      ['cancelled', 'Cancelled.'],
      ['unanswerable', 'This question could no longer be answered: the connection or page went away.'],
      [
        undefined,
        'This question can no longer be answered: it was still open when the page was closed or reloaded.',
      ],
    ];
    for (const [resolution, text] of expected) {
      const el = await mount({ record: { ...base, resolution } });
      expect(root(el).querySelector('[part~="status"]')?.textContent).to.equal(text);
      expect(root(el).querySelectorAll('input, select, button').length).to.equal(0);
      expectNone(root(el), '[part~="answers"]');
      await expectAccessible(el);
    }
  });

  it('shows a url record as inert text', async () => {
    const el = await mount({
      record: {
        id: 'r-2',
        mode: 'url',
        message: 'Sign in',
        url: 'https://login.example.com/x',
        resolution: 'answered',
      },
    });
    expect(root(el).querySelectorAll('a, button').length).to.equal(0);
    expect(root(el).querySelector('[part~="url-host"]')?.textContent).to.equal('login.example.com');
    expect(root(el).querySelector('[part~="status"]')?.textContent).to.equal(
      'You agreed to open the address.',
    );
  });
});
