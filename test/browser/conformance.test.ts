// The 50 conformance scenarios of the ACP protocol notes (§9), one `it` each. A scenario is
// either tested here, through the real bridge (with the reference agent, or the scriptable hostile
// agent test/support/fuzz-agent.ts that writes exactly the lines a scenario needs), or tested by a
// named test in another file — then the `it` here checks that that test still exists, so the map
// cannot rot — or it says why it does not apply.
import { expect } from 'chai';
import {
  type AgentPermissionRequest,
  type AgentSessionHandle,
  type AgentSessionUpdate,
  type AgentsService,
  createAgentsService,
  type SiloError,
} from '../../src/index.ts';
import { startBridge, stopBridge, type TestBridge } from '../support/bridge.ts';
import { report } from '../support/summary-browser.ts';
import { until } from '../support/until.ts';

const CWD = '/tmp/silo-conformance';
const err = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: SiloError) => e,
  );

/** The prompt that makes the scripted agent write `lines` (see test/support/fuzz-agent.ts). */
function script(spec: {
  lines: unknown[];
  await?: (string | number)[];
  wait?: 'cancel';
  afterCancel?: unknown[];
  stopReason?: string;
  result?: object;
  error?: object;
}): string {
  const bytes = new TextEncoder().encode(JSON.stringify(spec));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `script ${btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')}`;
}
const update = (u: object, sessionId = '$SESSION') => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId, update: u },
});
/** A `session/request_permission` the scripted agent sends as request `id`. */
const permissionRequest = (id: string, toolCall: object, options: object[]) => ({
  jsonrpc: '2.0',
  id,
  method: 'session/request_permission',
  params: { sessionId: '$SESSION', toolCall, options },
});
const fromAgent = (journal: AgentSessionUpdate[]) =>
  journal.filter((u) => !u.turnEnd && !(u.kind === 'user_message_chunk' && u.timestamp));
/** The `RESPONSES [...]` chunk the scripted agent writes with the client's answers to its requests. */
const responses = (journal: AgentSessionUpdate[]) =>
  JSON.parse(journal.find((u) => u.text?.startsWith('RESPONSES '))!.text!.slice('RESPONSES '.length)) as {
    result?: unknown;
    error?: { code: number };
  }[];

/** Scenarios tested in another file: [file, exact test title]. */
const ELSEWHERE: Record<number, [string, string]> = {
  3: ['test/browser/session.test.ts', 'protocol version mismatch and auth required are coded errors'],
  5: [
    'test/browser/restore.test.ts',
    'loaded: session/load on a journal that holds the session adds no duplicates',
  ],
  6: ['test/browser/restore.test.ts', 'loaded with different message ids on replay: still no duplicates'],
  7: [
    'test/browser/restore.test.ts',
    'resumed: session/resume, the transcript from the journal exactly, the next turn appends',
  ],
  8: [
    'test/browser/restore.test.ts',
    'journal-only: read-only transcript, prompt fails with a coded error, continue in a new session carries it',
  ],
  9: ['test/browser/restore.test.ts', 'lists the agent’s sessions the journal does not hold as loadable'],
  12: [
    'test/browser/session.test.ts',
    'synthesizes message ids when the agent sends none, deterministically',
  ],
  13: [
    'test/browser/components-scenarios.test.ts',
    'message-ids: a bubble per messageId, interleaved chunks in the right bubble',
  ],
  14: [
    'test/browser/transcript-model.test.ts',
    'groups chunks into one bubble per messageId and role, interleaved ids included',
  ],
  16: [
    'test/browser/session.test.ts',
    'runs a turn: the prompt is journaled with a timestamp, the stop reason comes after every update',
  ],
  17: ['test/browser/transcript-model.test.ts', 'keeps non-text blocks of a message as parts'],
  20: [
    'test/browser/transcript-model.test.ts',
    'patches one tool row per toolCallId: null/omitted unchanged, content and locations replaced',
  ],
  21: [
    'test/browser/transcript-model.test.ts',
    'patches one tool row per toolCallId: null/omitted unchanged, content and locations replaced',
  ],
  23: [
    'test/browser/components-scenarios.test.ts',
    'tools: kinds, titles, statuses, locations, content and diffs (new file and edit)',
  ],
  25: ['test/browser/transcript-model.test.ts', 'replaces the plan whole, one plan row per turn'],
  26: [
    'test/browser/session.test.ts',
    'config options and modes: currentValue follows the agent and setConfigOption',
  ],
  28: [
    'test/browser/session.test.ts',
    'permission: cancelling the turn answers every pending request cancelled; later ones are never shown',
  ],
  30: [
    'test/browser/session.test.ts',
    'the agent withdraws a permission request and a question ($/cancel_request): both end cancelled',
  ],
  32: [
    'test/browser/elicitation-e2e.test.ts',
    'after a reload, a question left open repaints from the journal as one that can no longer be answered',
  ],
  33: [
    'test/browser/elicitation-e2e.test.ts',
    'a form with every property type: defaults, validation, then the answer in agent types; the journal keeps labels',
  ],
  34: [
    'test/browser/elicitation-e2e.test.ts',
    'an unknown property type renders no known control; decline is all there is',
  ],
  36: [
    'test/browser/elicitation-e2e.test.ts',
    'url mode: shows the URL and host, opens only on click, accept on open, then elicitation/complete',
  ],
  38: ['test/browser/elicitation-e2e.test.ts', 'cancelling the turn ends the open question as cancelled'],
  42: [
    'test/browser/session.test.ts',
    'keeps unknown kinds and vendor _meta in raw without disturbing later updates',
  ],
  43: [
    'test/browser/reliability-fuzz.test.ts',
    'journals exactly the valid updates, in order, and keeps serving (seeded; the seed reproduces a failure)',
  ],
  44: [
    'test/browser/reliability-fuzz.test.ts',
    'journals exactly the valid updates, in order, and keeps serving (seeded; the seed reproduces a failure)',
  ],
  45: [
    'test/browser/reliability.test.ts',
    'agent crash mid-turn: interrupted (coded), every update it sent is journaled, reconnects and continues',
  ],
  46: [
    'test/browser/reliability.test.ts',
    'bridge killed and restarted mid-turn: interrupted, reconnects with backoff, journal gapless',
  ],
  48: [
    'test/browser/reliability.test.ts',
    'a 40 MB line from the agent: the bridge ends that agent (4001), the page gets a coded reason, the session reconnects',
  ],
  49: [
    'test/node/attacks.test.ts',
    'a client that stops reading is bounded (agent paused) and then disconnected (1008); others are served',
  ],
};

/** Scenarios that do not apply to Silo, and why. */
const NOT_APPLICABLE: Record<number, string> = {
  11: 'Silo never calls session/close or session/delete: a journal is cleared locally (service.clear) and the agent keeps its session.',
  35: 'Silo advertises both elicitation modes (form and url), so no mode is unadvertised; unknown modes are covered by 34.',
  37: 'Silo sends no authenticate and renders no question before a session exists; a request-scoped elicitation is answered cancel by the SDK handler (no session handle to show it on).',
};

describe('ACP conformance scenarios (acp-protocol.md §9)', function () {
  this.timeout(60_000);
  let service: AgentsService;
  let scripted: TestBridge;
  let reference: TestBridge;
  const extra: TestBridge[] = [];
  before(async () => {
    [scripted, reference] = await Promise.all([
      startBridge({ agentScript: 'test/support/fuzz-agent.ts' }),
      startBridge(),
    ]);
  });
  after(async () => {
    await stopBridge(scripted.id);
    await stopBridge(reference.id);
  });
  beforeEach(() => {
    service = createAgentsService({ databaseName: `silo-conformance-${crypto.randomUUID()}` });
  });
  afterEach(async () => {
    await service.dispose();
    for (const b of extra.splice(0)) await stopBridge(b.id);
  });
  const connect = (
    b: TestBridge,
    more: Partial<Parameters<AgentsService['connect']>[0]> = {},
  ): Promise<AgentSessionHandle> => service.connect({ bridge: b, cwd: CWD, ...more });

  const TESTED_HERE: Record<number, [string, () => Promise<void>]> = {
    1: [
      'a different protocolVersion (0 or 2) is reported (protocol-version) and the connection is closed',
      async () => {
        for (const version of [0, 2]) {
          const b = await startBridge({
            agentScript: 'test/support/fuzz-agent.ts',
            agentArgs: ['--init', JSON.stringify({ protocolVersion: version })],
          });
          extra.push(b);
          const e = await err(connect(b));
          expect(e?.code).to.equal('protocol-version');
          expect((e?.data as { answered?: number } | undefined)?.answered).to.equal(version);
        }
      },
    ],
    2: [
      'no agentCapabilities: load and resume are never tried; restoring is journal-only',
      async () => {
        const b = await startBridge({
          agentScript: 'test/support/fuzz-agent.ts',
          agentArgs: ['--init', JSON.stringify({ agentCapabilities: undefined, _vendorCaps: { x: 1 } })],
        });
        extra.push(b);
        const s = await connect(b);
        expect(await s.prompt('hello')).to.equal('end_turn');
        await s.close();
        const restored = await connect(b, { resume: { sessionId: s.sessionId } });
        expect(restored.resumeOutcome).to.equal('journal-only');
        expect((await err(restored.prompt('more')))?.code).to.equal('journal-only');
      },
    ],
    4: [
      'a notification before the initialize response: a clear, coded error',
      async () => {
        const b = await startBridge({ agentArgs: ['--log-before-init'] });
        extra.push(b);
        const e = await err(connect(b));
        expect(e?.name).to.equal('SiloError');
        expect(e?.code).to.be.a('string');
        expect(e?.message).to.match(/initiali[sz]e|closed|1011/i);
      },
    ],
    10: [
      'a session/update for an unknown sessionId is quarantined, not journaled',
      async () => {
        const s = await connect(scripted);
        await s.prompt(
          script({
            lines: [
              update(
                { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'not yours' } },
                'someone-else',
              ),
              update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'yours' } }),
            ],
          }),
        );
        const texts = (await s.transcript()).map((u) => u.text);
        expect(texts).to.include('yours');
        expect(texts).not.to.include('not yours');
      },
    ],
    15: [
      'a messageId of the wrong type (number) is treated as absent',
      async () => {
        const s = await connect(scripted);
        await s.prompt(
          script({
            lines: [
              update({
                sessionUpdate: 'agent_message_chunk',
                messageId: 42,
                content: { type: 'text', text: 'a' },
              }),
              update({
                sessionUpdate: 'agent_message_chunk',
                messageId: 42,
                content: { type: 'text', text: 'b' },
              }),
            ],
          }),
        );
        const chunks = fromAgent(await s.transcript()).filter((u) => u.kind === 'agent_message_chunk');
        expect(chunks.map((u) => u.messageId)).to.satisfy((ids: string[]) =>
          ids.every((id) => id.startsWith('silo-m') && id === ids[0]),
        );
        expect(chunks[0]!.raw.messageId).to.equal(42, 'raw kept as sent');
      },
    ],
    18: [
      'an unknown ContentBlock type: the raw journal keeps the update',
      async () => {
        const s = await connect(scripted);
        await s.prompt(
          script({
            lines: [
              update({
                sessionUpdate: 'agent_message_chunk',
                messageId: 'v',
                content: { type: 'video', url: 'https://example.com/v.mp4' },
              }),
            ],
          }),
        );
        const u = fromAgent(await s.transcript())[0]!;
        expect(u.kind).to.equal('agent_message_chunk');
        expect((u.raw.content as { type: string }).type).to.equal('video');
      },
    ],
    19: [
      'tool_call_update for a never-seen toolCallId is journaled as a patch, filled later',
      async () => {
        const s = await connect(scripted);
        await s.prompt(
          script({
            lines: [
              update({ sessionUpdate: 'tool_call_update', toolCallId: 'late', status: 'in_progress' }),
              update({ sessionUpdate: 'tool_call', toolCallId: 'late', title: 'Now announced' }),
            ],
          }),
        );
        const [patch, call] = fromAgent(await s.transcript());
        expect(patch!.toolCall).to.deep.include({ toolCallId: 'late', status: 'in_progress' });
        expect(call!.toolCall).to.deep.include({ toolCallId: 'late', title: 'Now announced' });
      },
    ],
    22: [
      'unknown tool kind/status default to other/pending; an invalid content item is skipped',
      async () => {
        const s = await connect(scripted);
        await s.prompt(
          script({
            lines: [
              update({
                sessionUpdate: 'tool_call',
                toolCallId: 't',
                title: 'Odd',
                kind: 'teleport',
                status: 'weird',
                content: [{ type: 'nope' }, { type: 'content', content: { type: 'text', text: 'ok' } }],
              }),
            ],
          }),
        );
        const call = fromAgent(await s.transcript())[0]!.toolCall!;
        expect(call.kind).to.equal('other');
        expect(call.status).to.equal('pending');
        expect(call.content).to.have.length(1);
      },
    ],
    24: [
      'updates after session/cancel, before the prompt response, are accepted and attributed to the turn',
      async () => {
        const delivered: AgentSessionUpdate[] = [];
        const s = await connect(scripted, { onUpdate: (u) => delivered.push(u) });
        const running = s.prompt(
          script({
            lines: [
              update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'before' } }),
            ],
            wait: 'cancel',
            afterCancel: [
              update({
                sessionUpdate: 'agent_message_chunk',
                content: { type: 'text', text: 'after the cancel' },
              }),
            ],
            stopReason: 'cancelled',
          }),
        );
        await until(() => delivered.some((u) => u.text === 'before'), 'the first chunk');
        await s.cancel();
        expect(await running).to.equal('cancelled');
        const journal = await s.transcript();
        const at = journal.findIndex((u) => u.text === 'after the cancel');
        expect(at).to.be.greaterThan(0, 'journaled');
        expect(journal.findIndex((u) => u.turnEnd?.stopReason === 'cancelled')).to.be.greaterThan(
          at,
          'within the turn',
        );
      },
    ],
    27: [
      'request_permission for a tool call never announced: the request carries the toolCall fields',
      async () => {
        const asked: AgentPermissionRequest[] = [];
        const s = await connect(scripted, {
          onPermission: (p) => {
            asked.push(p);
            void p.choose('ok');
          },
        });
        await s.prompt(
          script({
            lines: [
              permissionRequest('p1', { toolCallId: 'ghost', title: 'Delete ghost.txt', kind: 'delete' }, [
                { optionId: 'ok', name: 'Allow', kind: 'allow_once' },
              ]),
            ],
            await: ['p1'],
          }),
        );
        expect(asked[0]!.toolCall).to.deep.include({ toolCallId: 'ghost', title: 'Delete ghost.txt' });
        expect(responses(await s.transcript())[0]!.result).to.deep.equal({
          outcome: { outcome: 'selected', optionId: 'ok' },
        });
      },
    ],
    29: [
      'a permission request after session/cancel is answered cancelled without being shown',
      async () => {
        const delivered: AgentSessionUpdate[] = [];
        let shown = 0;
        const s = await connect(scripted, {
          onUpdate: (u) => delivered.push(u),
          onPermission: () => void shown++,
        });
        const running = s.prompt(
          script({
            lines: [update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'go' } })],
            wait: 'cancel',
            afterCancel: [
              permissionRequest('p2', { toolCallId: 'x' }, [
                { optionId: 'ok', name: 'Allow', kind: 'allow_once' },
              ]),
            ],
            await: ['p2'],
            stopReason: 'cancelled',
          }),
        );
        await until(() => delivered.some((u) => u.text === 'go'), 'the turn started');
        await s.cancel();
        expect(await running).to.equal('cancelled');
        expect(shown).to.equal(0, 'never shown');
        expect(responses(await s.transcript())[0]!.result).to.deep.equal({
          outcome: { outcome: 'cancelled' },
        });
      },
    ],
    31: [
      'a permission option of unknown kind: the agent gets -32602, the user sees nothing, the journal keeps the request',
      async () => {
        let shown = 0;
        const s = await connect(scripted, { onPermission: () => void shown++ });
        await s.prompt(
          script({
            lines: [
              permissionRequest('p3', { toolCallId: 'y' }, [
                { optionId: 'z', name: 'Sometimes', kind: 'allow_sometimes' },
              ]),
            ],
            await: ['p3'],
          }),
        );
        const journal = await s.transcript();
        expect(responses(journal)[0]!.error?.code).to.equal(-32602);
        expect(shown).to.equal(0);
        expect(
          journal.some(
            (u) =>
              u.kind === 'permission' &&
              (u.raw as { options?: { kind: string }[] }).options?.[0]?.kind === 'allow_sometimes',
          ),
        ).to.equal(true);
      },
    ],
    39: [
      'stopReason refusal, max_tokens, max_turn_requests and an unknown string each end the turn distinctly',
      async () => {
        const s = await connect(scripted);
        for (const reason of ['refusal', 'max_tokens', 'max_turn_requests', '_vendor_stop']) {
          expect(await s.prompt(script({ lines: [], stopReason: reason }))).to.equal(reason);
        }
        const ends = (await s.transcript()).filter((u) => u.turnEnd).map((u) => u.turnEnd!.stopReason);
        expect(ends).to.deep.equal(['refusal', 'max_tokens', 'max_turn_requests', '_vendor_stop']);
      },
    ],
    40: [
      'after cancel the agent answers with an error: treated as cancelled',
      async () => {
        const delivered: AgentSessionUpdate[] = [];
        const s = await connect(reference, { onUpdate: (u) => delivered.push(u) });
        const running = s.prompt('/scenario cancel-error');
        await until(() => delivered.some((u) => u.kind === 'agent_message_chunk'), 'streaming');
        await s.cancel();
        expect(await running).to.equal('cancelled');
      },
    ],
    41: [
      'PromptResponse extra fields (usage, vendor) are passed through and journaled',
      async () => {
        const s = await connect(scripted);
        await s.prompt(script({ lines: [], result: { usage: { inputTokens: 3 }, _vendor: { x: 1 } } }));
        const end = (await s.transcript()).at(-1)!;
        expect(end.raw).to.deep.include({ usage: { inputTokens: 3 }, _vendor: { x: 1 } });
      },
    ],
    47: [
      'a malformed line, a batch array and a scalar from the agent: dropped (-32700/-32600 to the agent), the session keeps working',
      async () => {
        const s = await connect(scripted);
        await s.prompt(
          script({
            lines: [
              '{oops',
              '[{"jsonrpc":"2.0","method":"session/update"}]',
              '42',
              update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'after' } }),
            ],
          }),
        );
        expect((await s.transcript()).some((u) => u.text === 'after')).to.equal(true);
        expect(await s.prompt('ping')).to.equal('end_turn');
      },
    ],
    50: [
      'a response to an unknown id and a _vendor notification are ignored; _vendor and fs/* requests get -32601',
      async () => {
        const s = await connect(scripted);
        await s.prompt(
          script({
            lines: [
              { jsonrpc: '2.0', id: 999, result: {} },
              { jsonrpc: '2.0', method: '_vendor/ping', params: {} },
              { jsonrpc: '2.0', id: 'v', method: '_vendor/ask', params: {} },
              {
                jsonrpc: '2.0',
                id: 'f',
                method: 'fs/read_text_file',
                params: { sessionId: '$SESSION', path: '/etc/passwd' },
              },
              {
                jsonrpc: '2.0',
                id: 't',
                method: 'terminal/create',
                params: { sessionId: '$SESSION', command: 'id' },
              },
            ],
            await: ['v', 'f', 't'],
          }),
        );
        expect(responses(await s.transcript()).map((r) => r.error?.code)).to.deep.equal([
          -32601, -32601, -32601,
        ]);
      },
    ],
  };

  for (let n = 1; n <= 50; n++) {
    const here = TESTED_HERE[n];
    const elsewhere = ELSEWHERE[n];
    const na = NOT_APPLICABLE[n];
    if (here) {
      it(`§9.${n} ${here[0]}`, async () => {
        await here[1]();
        await report('inputs', 1, `conformance §9.${n}`);
      });
    } else if (elsewhere) {
      it(`§9.${n} is tested by ${elsewhere[0]}: “${elsewhere[1]}”`, async () => {
        const text = await (await fetch(`/${elsewhere[0]}`)).text();
        // The dev server serves it compiled: non-ASCII characters may come escaped (\u2019).
        const escaped = elsewhere[1].replace(
          /[^\x20-\x7e]/g,
          (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
        );
        expect(
          text.includes(elsewhere[1]) || text.includes(escaped),
          `${elsewhere[0]} still has that test`,
        ).to.equal(true);
      });
    } else {
      it(`§9.${n} does not apply: ${na}`, () => {
        expect(na, `scenario ${n} must be tested or explained`).to.be.a('string').and.not.empty;
      });
    }
  }
});
