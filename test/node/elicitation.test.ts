import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applyResolution,
  describeUrl,
  type ElicitationIssue,
  initialAnswers,
  isOpenableUrl,
  matchesFormat,
  normalizeElicitation,
  toRecord,
  toResolutionRecord,
  validateAnswers,
} from '../../src/elicitation/model.ts';
import type { AgentElicitationQuestion } from '../../src/types.ts';

const both = { form: true, url: true };

/** A form covering every property type of the ACP elicitation schema (conformance scenario 33). */
const everyType = {
  sessionId: 'sess-1',
  toolCallId: 'tool-7',
  mode: 'form',
  message: 'Tell me about the release',
  requestedSchema: {
    type: 'object',
    properties: {
      channel: {
        type: 'string',
        title: 'Channel',
        oneOf: [
          { const: 'stable', title: 'Stable channel' },
          { const: 'beta', title: 'Beta channel', description: 'Weekly' },
        ],
        default: 'beta',
      },
      color: { type: 'string', enum: ['red', 'green'] },
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
        default: ['mac', 'nope'],
      },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
      notify: { type: 'boolean', title: 'Notify?', default: true },
      name: {
        type: 'string',
        title: 'Name',
        minLength: 2,
        maxLength: 5,
        pattern: '^[a-z]+$',
        default: 'abc',
      },
      email: { type: 'string', format: 'email' },
      site: { type: 'string', format: 'uri' },
      day: { type: 'string', format: 'date' },
      at: { type: 'string', format: 'date-time' },
      ratio: { type: 'number', minimum: 0, maximum: 1, default: 0.5 },
      count: { type: 'integer', minimum: 1, maximum: 10, default: 2.5 },
    },
    required: ['channel', 'platforms', 'name', 'count'],
  },
};

describe('normalizeElicitation', () => {
  it('normalizes every property type, with options, rules, required flags and defaults', () => {
    const n = normalizeElicitation(everyType, both);
    assert.equal(n.invalid, undefined);
    assert.equal(n.unsupported, false);
    assert.equal(n.acknowledgeOnly, false);
    assert.equal(n.mode, 'form');
    assert.equal(n.message, 'Tell me about the release');
    assert.equal(n.sessionId, 'sess-1');
    assert.equal(n.toolCallId, 'tool-7');
    const byId = Object.fromEntries(n.questions.map((q) => [q.id, q]));
    assert.deepEqual(
      n.questions.map((q) => q.id),
      [
        'channel',
        'color',
        'platforms',
        'tags',
        'notify',
        'name',
        'email',
        'site',
        'day',
        'at',
        'ratio',
        'count',
      ],
    );
    assert.deepEqual(byId.channel, {
      id: 'channel',
      type: 'single-select',
      title: 'Channel',
      required: true,
      options: [
        { value: 'stable', label: 'Stable channel' },
        { value: 'beta', label: 'Beta channel', description: 'Weekly' },
      ],
      default: 'beta',
    });
    assert.deepEqual(byId.color, {
      id: 'color',
      type: 'single-select',
      title: 'color',
      required: false,
      options: [
        { value: 'red', label: 'red' },
        { value: 'green', label: 'green' },
      ],
    });
    assert.equal(byId.platforms?.type, 'multi-select');
    assert.deepEqual(byId.platforms?.default, ['mac'], 'defaults outside the options are dropped');
    assert.equal(byId.platforms?.minItems, 1);
    assert.equal(byId.platforms?.maxItems, 2);
    assert.deepEqual(
      byId.tags?.options?.map((o) => o.label),
      ['a', 'b'],
    );
    assert.deepEqual(byId.notify, {
      id: 'notify',
      type: 'boolean',
      title: 'Notify?',
      required: false,
      default: true,
    });
    assert.deepEqual(byId.name, {
      id: 'name',
      type: 'text',
      title: 'Name',
      required: true,
      minLength: 2,
      maxLength: 5,
      pattern: '^[a-z]+$',
      default: 'abc',
    });
    assert.equal(byId.email?.format, 'email');
    assert.equal(byId.site?.format, 'uri');
    assert.equal(byId.day?.format, 'date');
    assert.equal(byId.at?.format, 'date-time');
    assert.deepEqual(byId.ratio, {
      id: 'ratio',
      type: 'number',
      title: 'ratio',
      required: false,
      minimum: 0,
      maximum: 1,
      default: 0.5,
    });
    assert.equal(byId.count?.type, 'integer');
    assert.equal(byId.count?.default, undefined, 'a non-integer default of an integer is dropped');
  });

  it('marks an unknown property type unsupported, keeps its schema, and makes the request unsupported', () => {
    const n = normalizeElicitation(
      {
        sessionId: 's',
        mode: 'form',
        message: 'm',
        requestedSchema: {
          properties: { ok: { type: 'boolean' }, level: { type: '_slider', title: 'Level', step: 5 } },
        },
      },
      both,
    );
    assert.equal(n.unsupported, true);
    assert.equal(n.invalid, undefined);
    const level = n.questions[1];
    assert.equal(level?.type, 'unsupported');
    assert.equal(level?.title, 'Level');
    assert.deepEqual(level?.raw, { type: '_slider', title: 'Level', step: 5 });
  });

  it('treats a multi-select with custom items, a property that is not an object, or without type as unsupported', () => {
    const n = normalizeElicitation(
      {
        mode: 'form',
        message: 'm',
        requestedSchema: {
          properties: {
            a: { type: 'array', items: { type: 'number' } },
            b: 'nonsense',
            c: { title: 'No type' },
          },
        },
      },
      both,
    );
    assert.deepEqual(
      n.questions.map((q) => q.type),
      ['unsupported', 'unsupported', 'unsupported'],
    );
    assert.deepEqual(n.questions[1]?.raw, { value: 'nonsense' });
    assert.equal(n.unsupported, true);
  });

  it('is acknowledge-only for a form with no properties', () => {
    const n = normalizeElicitation(
      { sessionId: 's', mode: 'form', message: 'Done?', requestedSchema: { type: 'object' } },
      both,
    );
    assert.equal(n.acknowledgeOnly, true);
    assert.equal(n.unsupported, false);
    assert.deepEqual(n.questions, []);
  });

  it('keeps a custom mode unsupported with its raw payload, and never invalid', () => {
    const params = { sessionId: 's', mode: '_vendor_mode', message: 'custom', extra: { a: 1 } };
    const n = normalizeElicitation(params, both);
    assert.equal(n.unsupported, true);
    assert.equal(n.invalid, undefined);
    assert.equal(n.mode, '_vendor_mode');
    assert.deepEqual(n.raw, params);
  });

  it('sets invalid for unadvertised modes, missing schema, bad url, missing elicitationId, non-object params', () => {
    assert.match(normalizeElicitation(everyType, { form: false, url: true }).invalid ?? '', /not advertised/);
    assert.match(
      normalizeElicitation(
        { mode: 'url', url: 'https://a.example', elicitationId: 'e' },
        { form: true, url: false },
      ).invalid ?? '',
      /not advertised/,
    );
    assert.ok(normalizeElicitation({ mode: 'form', message: 'm' }, both).invalid);
    assert.ok(
      normalizeElicitation({ mode: 'form', message: 'm', requestedSchema: { properties: [] } }, both).invalid,
    );
    assert.ok(
      normalizeElicitation({ mode: 'url', message: 'm', url: 'not a url', elicitationId: 'e' }, both).invalid,
    );
    assert.ok(normalizeElicitation({ mode: 'url', message: 'm', url: 'https://a.example' }, both).invalid);
    for (const bad of [null, undefined, 42, 'x', []]) {
      const n = normalizeElicitation(bad, both);
      assert.ok(n.invalid, `params ${JSON.stringify(bad)}`);
      assert.deepEqual(n.raw, {});
    }
  });

  it('normalizes url mode; a non-http(s) URL is unsupported, not invalid', () => {
    const ok = normalizeElicitation(
      {
        sessionId: 's',
        mode: 'url',
        message: 'Sign in',
        url: 'https://login.example.com/a?b=1',
        elicitationId: 'el-1',
      },
      both,
    );
    assert.equal(ok.url, 'https://login.example.com/a?b=1');
    assert.equal(ok.elicitationId, 'el-1');
    assert.equal(ok.unsupported, false);
    assert.equal(ok.invalid, undefined);
    assert.deepEqual(ok.questions, []);
    const js = normalizeElicitation(
      { mode: 'url', message: 'x', url: 'javascript:alert(1)', elicitationId: 'e' },
      both,
    );
    assert.equal(js.unsupported, true);
    assert.equal(js.invalid, undefined);
  });

  it('keeps request scope ids', () => {
    assert.equal(
      normalizeElicitation({ requestId: 3, mode: 'form', message: '', requestedSchema: {} }, both).requestId,
      3,
    );
    assert.equal(
      normalizeElicitation({ requestId: 'r', mode: 'form', message: '', requestedSchema: {} }, both)
        .requestId,
      'r',
    );
  });
});

describe('validateAnswers', () => {
  const questions = normalizeElicitation(everyType, both).questions;
  const valid = {
    channel: 'beta',
    color: 'red',
    platforms: ['win', 'mac'],
    tags: ['b'],
    notify: false,
    name: 'abcd',
    email: 'a@b.example',
    site: 'https://x.example/p',
    day: '2024-02-29',
    at: '2024-02-29T10:30:00Z',
    ratio: '0.25',
    count: 3,
  };

  it('returns content in the agent types and text as the user saw it', () => {
    const r = validateAnswers(questions, valid);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.content, {
      channel: 'beta',
      color: 'red',
      platforms: ['win', 'mac'],
      tags: ['b'],
      notify: false,
      name: 'abcd',
      email: 'a@b.example',
      site: 'https://x.example/p',
      day: '2024-02-29',
      at: '2024-02-29T10:30:00Z',
      ratio: 0.25,
      count: 3,
    });
    assert.deepEqual(r.text, {
      channel: 'Beta channel',
      color: 'red',
      platforms: 'Windows, macOS',
      tags: 'b',
      notify: 'No',
      name: 'abcd',
      email: 'a@b.example',
      site: 'https://x.example/p',
      day: '2024-02-29',
      at: '2024-02-29T10:30:00Z',
      ratio: '0.25',
      count: '3',
    });
  });

  it('leaves unanswered optional questions out of content and text, and ignores unknown ids', () => {
    const r = validateAnswers(questions, {
      channel: 'stable',
      platforms: ['lin'],
      name: 'ab',
      count: 1,
      color: '',
      stray: 'x',
    });
    assert.ok(r.ok);
    assert.deepEqual(r.content, { channel: 'stable', platforms: ['lin'], name: 'ab', count: 1 });
    assert.deepEqual(Object.keys(r.text), ['channel', 'platforms', 'name', 'count']);
  });

  const cases: [string, Record<string, unknown>, ElicitationIssue][] = [
    ['channel', { channel: undefined }, { code: 'required' }],
    ['channel', { channel: 'gamma' }, { code: 'option' }],
    ['platforms', { platforms: [] }, { code: 'required' }],
    ['platforms', { platforms: ['mac', 'win', 'lin'] }, { code: 'maxItems', limit: 2 }],
    ['platforms', { platforms: ['bsd'] }, { code: 'option' }],
    ['platforms', { platforms: 'mac' }, { code: 'type' }],
    ['notify', { notify: 'yes' }, { code: 'type' }],
    ['name', { name: '   ' }, { code: 'required' }],
    ['name', { name: 'a' }, { code: 'minLength', limit: 2 }],
    ['name', { name: 'abcdef' }, { code: 'maxLength', limit: 5 }],
    ['name', { name: 'AB1' }, { code: 'pattern' }],
    ['name', { name: 42 }, { code: 'type' }],
    ['email', { email: 'not-an-email' }, { code: 'format', limit: 'email' }],
    ['site', { site: 'example.com' }, { code: 'format', limit: 'uri' }],
    ['day', { day: '2023-02-29' }, { code: 'format', limit: 'date' }],
    ['at', { at: '2024-01-01T10:00' }, { code: 'format', limit: 'date-time' }],
    ['ratio', { ratio: 'abc' }, { code: 'type' }],
    ['ratio', { ratio: -0.1 }, { code: 'minimum', limit: 0 }],
    ['ratio', { ratio: 1.5 }, { code: 'maximum', limit: 1 }],
    ['count', { count: 2.5 }, { code: 'integer' }],
    ['count', { count: 0 }, { code: 'minimum', limit: 1 }],
    ['count', { count: '11' }, { code: 'maximum', limit: 10 }],
  ];
  for (const [id, patch, issue] of cases) {
    it(`reports ${issue.code} for ${id} = ${JSON.stringify(patch[id])}`, () => {
      const r = validateAnswers(questions, { ...valid, ...patch } as never);
      assert.equal(r.ok, false);
      if (r.ok) return;
      assert.deepEqual(Object.keys(r.issues), [id]);
      assert.deepEqual(r.issues[id], issue);
      assert.equal(typeof r.errors[id], 'string');
      assert.ok((r.errors[id] ?? '').length > 0);
    });
  }

  it('reports every failing question at once, with English messages by default', () => {
    const r = validateAnswers(questions, {});
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual(Object.keys(r.errors).sort(), ['channel', 'count', 'name', 'platforms']);
    assert.equal(r.errors.name, 'This question needs an answer.');
    assert.equal(r.errors.platforms, 'Choose at least one option.');
  });

  it('formats messages with a caller-supplied formatter and words (localization)', () => {
    const r = validateAnswers(
      questions,
      { ...valid, count: 0 },
      (issue) => `fr:${issue.code}:${issue.limit}`,
    );
    assert.equal(r.ok, false);
    if (!r.ok) assert.equal(r.errors.count, 'fr:minimum:1');
    const ok = validateAnswers(questions, { ...valid, notify: true }, undefined, {
      yes: 'Oui',
      no: 'Non',
      separator: ' / ',
    });
    assert.ok(ok.ok);
    if (ok.ok) {
      assert.equal(ok.text.notify, 'Oui');
      assert.equal(ok.text.platforms, 'Windows / macOS');
    }
  });

  it('never accepts an answer to an unsupported question, and does not throw on garbage', () => {
    const unsupported: AgentElicitationQuestion[] = [
      { id: 'level', type: 'unsupported', title: 'Level', required: false, raw: { type: '_slider' } },
    ];
    const r = validateAnswers(unsupported, { level: '5' });
    assert.equal(r.ok, false);
    if (!r.ok) assert.deepEqual(r.issues.level, { code: 'unsupported' });
    assert.equal(validateAnswers(questions, null as never).ok, false);
    assert.equal(validateAnswers(questions, { name: { x: 1 } } as never).ok, false);
  });

  it('deduplicates multi-select picks and tolerates invalid patterns', () => {
    const q: AgentElicitationQuestion[] = [
      { id: 'm', type: 'multi-select', title: 'm', required: true, options: [{ value: 'a', label: 'A' }] },
      { id: 't', type: 'text', title: 't', required: true, pattern: '([' },
    ];
    const r = validateAnswers(q, { m: ['a', 'a'], t: 'anything' });
    assert.ok(r.ok);
    if (r.ok) assert.deepEqual(r.content, { m: ['a'], t: 'anything' });
  });
});

describe('formats', () => {
  it('checks email, uri, date and date-time', () => {
    assert.ok(matchesFormat('a@b.co', 'email'));
    assert.ok(!matchesFormat('a@b', 'email'));
    assert.ok(matchesFormat('mailto:a@b.co', 'uri'));
    assert.ok(!matchesFormat('/relative', 'uri'));
    assert.ok(matchesFormat('2024-12-31', 'date'));
    assert.ok(!matchesFormat('2024-13-01', 'date'));
    assert.ok(matchesFormat('2024-12-31T23:59:59.5+02:00', 'date-time'));
    assert.ok(!matchesFormat('2024-12-31T24:00:00Z', 'date-time'));
    assert.ok(matchesFormat('whatever', 'color'));
  });
});

describe('initialAnswers', () => {
  it('pre-fills defaults, false for booleans without one, nothing else', () => {
    const questions = normalizeElicitation(everyType, both).questions;
    assert.deepEqual(initialAnswers(questions), {
      channel: 'beta',
      platforms: ['mac'],
      notify: true,
      name: 'abc',
      ratio: 0.5,
    });
    const noDefault = normalizeElicitation(
      { mode: 'form', message: '', requestedSchema: { properties: { b: { type: 'boolean' } } } },
      both,
    ).questions;
    assert.deepEqual(initialAnswers(noDefault), { b: false });
  });
});

describe('records', () => {
  it('toRecord keeps what can be written down, and nothing callable or scoped', () => {
    const n = normalizeElicitation(everyType, both);
    const record = toRecord(n, 'el-1');
    assert.deepEqual(Object.keys(record).sort(), [
      'acknowledgeOnly',
      'id',
      'message',
      'mode',
      'questions',
      'toolCallId',
    ]);
    assert.equal(record.resolution, undefined);
    assert.deepEqual(structuredClone(record), record);
    const url = toRecord(
      normalizeElicitation(
        { mode: 'url', message: 'go', url: 'javascript:alert(1)', elicitationId: 'e' },
        both,
      ),
      'el-2',
    );
    assert.equal(url.url, 'javascript:alert(1)');
    assert.equal(url.unsupported, true);
  });

  it('resolution rows carry answers only when answered, and patch the opening row', () => {
    assert.deepEqual(toResolutionRecord('x', 'declined', { a: 'b' }), { id: 'x', resolution: 'declined' });
    assert.deepEqual(toResolutionRecord('x', 'answered', {}), { id: 'x', resolution: 'answered' });
    assert.deepEqual(toResolutionRecord('x', 'answered', { a: 'b' }), {
      id: 'x',
      resolution: 'answered',
      answers: { a: 'b' },
    });
    const open = toRecord(normalizeElicitation(everyType, both), 'x');
    const closed = applyResolution(open, toResolutionRecord('x', 'answered', { name: 'abc' }));
    assert.equal(closed.resolution, 'answered');
    assert.deepEqual(closed.answers, { name: 'abc' });
    assert.equal(closed.message, open.message);
    assert.equal(applyResolution(open, toResolutionRecord('other', 'cancelled')), open);
  });
});

describe('describeUrl', () => {
  it('splits the host out of the full URL', () => {
    assert.deepEqual(describeUrl('https://login.example.com:8443/a?b=1#c'), {
      href: 'https://login.example.com:8443/a?b=1#c',
      before: 'https://',
      host: 'login.example.com:8443',
      after: '/a?b=1#c',
      openable: true,
      punycode: false,
    });
  });

  it('emphasises the real host, not lookalike userinfo', () => {
    const parts = describeUrl('https://bank.example@evil.example/');
    assert.equal(parts.host, 'evil.example');
    assert.equal(parts.before, 'https://bank.example@');
  });

  it('flags punycode hosts, including IDN hosts the parser converts', () => {
    assert.equal(describeUrl('https://xn--pple-43d.com/').punycode, true);
    const idn = describeUrl('https://аpple.com/');
    assert.equal(idn.punycode, true);
    assert.match(idn.host, /^xn--/);
  });

  it('only http(s) is openable', () => {
    assert.equal(describeUrl('javascript:alert(1)').openable, false);
    assert.equal(describeUrl('javascript:alert(1)').host, '');
    assert.equal(isOpenableUrl('data:text/html,hi'), false);
    assert.equal(isOpenableUrl('http://a.example'), true);
    assert.equal(describeUrl('::nope').openable, false);
  });
});

describe("a select question's Other… field (claude-agent-acp's question_N_custom)", () => {
  const schema = (required: string[] = []) => ({
    mode: 'form',
    message: 'Please answer the following questions.',
    requestedSchema: {
      type: 'object',
      properties: {
        question_0: { type: 'string', title: 'Database', oneOf: [{ const: 'Postgres', title: 'Postgres' }] },
        question_0_custom: { type: 'string', title: 'Other', maxLength: 5 },
        note_custom: { type: 'string', title: 'A field with the suffix and no question' },
      },
      required,
    },
  });

  it('is folded into its question; a _custom field without one stays a question', () => {
    const n = normalizeElicitation(schema(), { form: true, url: true });
    assert.deepEqual(
      n.questions.map((q) => [q.id, q.other?.id]),
      [
        ['question_0', 'question_0_custom'],
        ['note_custom', undefined],
      ],
    );
  });

  it('answers a required question, is sent under its own id, and is validated as text', () => {
    const { questions } = normalizeElicitation(schema(['question_0']), { form: true, url: true });
    const typed = validateAnswers(questions, { question_0_custom: 'Redis' });
    assert.deepEqual(typed, {
      ok: true,
      content: { question_0_custom: 'Redis' },
      text: { question_0: 'Other: Redis' },
    });
    const both = validateAnswers(questions, { question_0: 'Postgres', question_0_custom: 'v16' });
    assert.deepEqual(both.ok && both.text, { question_0: 'Postgres, Other: v16' });
    const long = validateAnswers(questions, { question_0_custom: 'too long' });
    assert.equal(long.ok, false);
    assert.deepEqual(Object.keys(long.ok ? {} : long.errors), ['question_0_custom']);
    assert.equal(validateAnswers(questions, {}).ok, false, 'still required');
  });
});
