// The conformance scenarios of the ACP protocol notes (§9) that Silo's own tests drive here, one `it`
// each, through the real bridge: with the reference agent, or the scriptable hostile agent
// test/support/fuzz-agent.ts that writes exactly the lines a scenario needs. Each asserts the
// scenario's specific outcome. docs/conformance.md lists every scenario (1–50) with the test that
// drives it — here or in another file — and the ones that do not apply to Silo, and why.
import { expect } from 'chai';
import {
  type AgentPermissionRequest,
  type AgentSessionHandle,
  type AgentSessionUpdate,
  type AgentsService,
  createAgentsService,
  type SiloError,
} from '../../src/index.ts';
import { TranscriptModel } from '../../src/transcript/model.ts';
import type { MessageRow, ToolCallRow, TranscriptRow } from '../../src/transcript/rows.ts';
import { startBridge, stopBridge, type TestBridge } from '../support/bridge.ts';
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

/** The rows a transcript of these updates is drawn from (what the components render). */
function rowsOf(journal: AgentSessionUpdate[]): TranscriptRow[] {
  const model = new TranscriptModel();
  model.applyAll(journal);
  return model.rows;
}
const bubbles = (rows: TranscriptRow[]) =>
  rows.filter((r): r is MessageRow => r.type === 'message' && r.role !== 'user').map((r) => [r.role, r.text]);
const chunk = (text: string, messageId?: string, kind = 'agent_message_chunk') =>
  update({ sessionUpdate: kind, ...(messageId ? { messageId } : {}), content: { type: 'text', text } });

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
      'no agentCapabilities: load, resume and list are never tried; restoring is journal-only',
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
        // No session/list either: the history is the journal's only (a call would get -32601 and reject).
        expect((await service.sessions({ bridge: b })).map((h) => h.sessionId)).to.deep.equal([s.sessionId]);
      },
    ],
    4: [
      'a notification before the initialize response: the bridge’s “Initialize failed”, coded internal',
      async () => {
        const b = await startBridge({ agentArgs: ['--log-before-init'] });
        extra.push(b);
        const e = await err(connect(b));
        expect(e?.name).to.equal('SiloError');
        // The bridge closes with 1011 "Initialize failed"; the agent misbehaved, so the code is `internal`
        // (not `unreachable`, `closed` or `protocol-version`, which would send the user elsewhere).
        expect(e?.code).to.equal('internal');
        expect(e?.message).to.match(/^Initialize failed/);
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
    3: [
      'session/new → -32000: auth-required with the agent-type methods only (terminal ones hidden)',
      async () => {
        const b = await startBridge({ agentArgs: ['--auth-required'] });
        extra.push(b);
        const e = await err(connect(b));
        expect(e?.code).to.equal('auth-required');
        expect((e?.data as { authMethods?: unknown[] } | undefined)?.authMethods).to.deep.equal([
          { id: 'reference-login', name: 'Log in', description: 'Pretend to log in (always succeeds)' },
        ]);
      },
    ],
    5: [
      'session/load replays 500 updates then answers null: all 500 journaled in order; loading again adds no duplicates',
      async () => {
        const b = await startBridge({
          agentScript: 'test/support/fuzz-agent.ts',
          agentArgs: [
            '--init',
            JSON.stringify({ agentCapabilities: { loadSession: true } }),
            '--replay',
            '500',
          ],
        });
        extra.push(b);
        const expected = Array.from({ length: 500 }, (_, i) => String(i));
        const first = await connect(b, { resume: { sessionId: 'replayed-session' } });
        expect(first.resumeOutcome).to.equal('loaded');
        const journal = await first.transcript();
        expect(journal.map((u) => u.text)).to.deep.equal(expected);
        expect(journal.map((u) => u.messageId)).to.deep.equal(expected.map((i) => `replay-${i}`));
        await first.close();
        const again = await connect(b, { resume: { sessionId: 'replayed-session' } });
        expect(again.resumeOutcome).to.equal('loaded');
        expect(await again.transcript()).to.deep.equal(
          journal,
          'the replay of what the journal holds adds nothing',
        );
        expect(bubbles(rowsOf(await again.transcript()))).to.have.length(500);
      },
    ],
    7: [
      'session/resume sends nothing and answers {}: the transcript is the journal; modes/configOptions of the response are applied',
      async () => {
        const delivered: AgentSessionUpdate[] = [];
        const s = await connect(reference, { onUpdate: (u) => delivered.push(u) });
        // The commands the agent announces after session/new can come late on a loaded machine.
        await until(() => delivered.some((u) => u.kind === 'available_commands_update'), 'commands');
        await s.prompt('first');
        const mode = s.configOptions.find((o) => o.category === 'mode')!;
        const other = mode.options!.find((o) => o.value !== mode.currentValue)!.value;
        await s.setConfigOption(mode.id, other);
        const journal = await s.transcript();
        await s.close();
        const resumed = await connect(reference, { resume: { sessionId: s.sessionId } });
        expect(resumed.resumeOutcome).to.equal('resumed');
        expect(await resumed.transcript()).to.deep.equal(journal);
        expect(resumed.configOptions.find((o) => o.id === mode.id)!.currentValue).to.equal(
          other,
          'the mode the agent answered session/resume with',
        );
      },
    ],
    8: [
      'session/load of an unknown session (-32002): read-only, and starting a new session is offered and works',
      async () => {
        const b = await startBridge({ agentArgs: ['--no-resume'] });
        extra.push(b);
        const s = await connect(b, { resume: { sessionId: 'never-existed' } });
        expect(s.resumeOutcome).to.equal('journal-only');
        const e = await err(s.prompt('hello?'));
        expect(e?.code).to.equal('journal-only');
        expect(e?.message).to.match(/new session/);
        await s.close();
        const fresh = await connect(b, { resume: { sessionId: 'never-existed', startFresh: true } });
        expect(fresh.resumeOutcome).to.equal('new');
        expect(await fresh.prompt('hello')).to.equal('end_turn');
      },
    ],
    12: [
      'no messageId on any chunk: one bubble per run; a kind change or a tool_call starts a new one',
      async () => {
        const s = await connect(scripted);
        await s.prompt(
          script({
            lines: [
              chunk('a'),
              chunk('b'),
              update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read' }),
              chunk('c'),
              chunk('d', undefined, 'agent_thought_chunk'),
              chunk('e'),
            ],
          }),
        );
        const rows = rowsOf(await s.transcript()).filter((r) => r.type !== 'turn-end');
        expect(rows.map((r) => (r.type === 'message' ? `${r.role}:${r.text}` : r.type))).to.deep.equal([
          `user:${(rows[0] as MessageRow).text}`,
          'agent:ab',
          'tool',
          'agent:c',
          'thought:d',
          'agent:e',
        ]);
      },
    ],
    13: [
      'messageId changes between consecutive same-kind chunks: two bubbles',
      async () => {
        const s = await connect(scripted);
        await s.prompt(script({ lines: [chunk('one', 'x'), chunk('two', 'y')] }));
        expect(bubbles(rowsOf(await s.transcript()))).to.deep.equal([
          ['agent', 'one'],
          ['agent', 'two'],
        ]);
      },
    ],
    14: [
      'interleaved ids A, B, A: each chunk in its own message',
      async () => {
        const s = await connect(scripted);
        await s.prompt(script({ lines: [chunk('a1 ', 'A'), chunk('b1', 'B'), chunk('a2', 'A')] }));
        expect(bubbles(rowsOf(await s.transcript()))).to.deep.equal([
          ['agent', 'a1 a2'],
          ['agent', 'b1'],
        ]);
      },
    ],
    16: [
      'an agent that echoes the prompt as user_message_chunk: one user bubble, not two',
      async () => {
        const s = await connect(scripted);
        const said = '$PROMPT';
        await s.prompt(
          script({
            lines: [
              update({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: said } }),
              chunk('answer'),
            ],
          }),
        );
        const users = rowsOf(await s.transcript()).filter((r) => r.type === 'message' && r.role === 'user');
        expect(users, 'user bubbles').to.have.length(1);
      },
    ],
    17: [
      'thoughts interleaved with message chunks; a 3 MB image, resource_link and resource render and persist',
      async () => {
        const image = 'A'.repeat(3 * 1024 * 1024);
        const s = await connect(scripted);
        await s.prompt(
          script({
            lines: [
              chunk('think ', 'T', 'agent_thought_chunk'),
              chunk('say ', 'M'),
              chunk('more', 'T', 'agent_thought_chunk'),
              update({
                sessionUpdate: 'agent_message_chunk',
                messageId: 'M',
                content: { type: 'image', mimeType: 'image/png', data: image },
              }),
              update({
                sessionUpdate: 'agent_message_chunk',
                messageId: 'M',
                content: { type: 'resource_link', name: 'a.txt', uri: 'file:///a.txt' },
              }),
              update({
                sessionUpdate: 'agent_message_chunk',
                messageId: 'M',
                content: { type: 'resource', resource: { uri: 'file:///b.txt', text: 'bee' } },
              }),
              chunk('done', 'M'),
            ],
          }),
        );
        await s.close();
        const stored = await service.transcript(s.sessionId);
        const rows = rowsOf(stored);
        expect(bubbles(rows)).to.deep.equal([
          ['thought', 'think more'],
          ['agent', 'say done'],
        ]);
        const agent = rows.find((r): r is MessageRow => r.type === 'message' && r.role === 'agent')!;
        const blocks = agent.parts.flatMap((p) => (p.type === 'block' ? [p.block] : []));
        expect(blocks.map((b) => b.type)).to.deep.equal(['image', 'resource_link', 'resource']);
        expect((blocks[0] as { data: string }).data.length).to.equal(image.length, 'the image data, whole');
      },
    ],
    20: [
      'a duplicate tool_call with the same id: one card, upserted',
      async () => {
        const s = await connect(scripted);
        await s.prompt(
          script({
            lines: [
              update({ sessionUpdate: 'tool_call', toolCallId: 'dup', title: 'First', kind: 'read' }),
              update({ sessionUpdate: 'tool_call', toolCallId: 'dup', title: 'Second', kind: 'edit' }),
            ],
          }),
        );
        const tools = rowsOf(await s.transcript()).filter((r): r is ToolCallRow => r.type === 'tool');
        expect(tools).to.have.length(1);
        expect(tools[0]!.toolCall).to.deep.include({ toolCallId: 'dup', title: 'Second', kind: 'edit' });
      },
    ],
    21: [
      'tool_call_update: content [] clears, omitted or null leaves it; locations replaced; rawInput overwritten',
      async () => {
        const s = await connect(scripted);
        const text = (t: string) => [{ type: 'content', content: { type: 'text', text: t } }];
        await s.prompt(
          script({
            lines: [
              update({
                sessionUpdate: 'tool_call',
                toolCallId: 'p',
                title: 'Patch me',
                content: text('x'),
                locations: [{ path: '/a' }, { path: '/b' }],
                rawInput: { a: 1 },
              }),
              update({ sessionUpdate: 'tool_call_update', toolCallId: 'p', status: 'in_progress' }),
              update({ sessionUpdate: 'tool_call_update', toolCallId: 'p', content: null, locations: null }),
              update({
                sessionUpdate: 'tool_call_update',
                toolCallId: 'p',
                locations: [{ path: '/c' }],
                rawInput: { b: 2 },
              }),
              update({ sessionUpdate: 'tool_call_update', toolCallId: 'p', content: [] }),
            ],
          }),
        );
        const model = new TranscriptModel();
        const seen: ToolCallRow['toolCall'][] = [];
        for (const u of await s.transcript()) {
          model.apply(u);
          const row = model.rows.find((r): r is ToolCallRow => r.type === 'tool');
          if (row && u.toolCall) seen.push(row.toolCall);
        }
        const content = text('x');
        expect(seen.map((c) => [c.content, c.locations.map((l) => l.path), c.rawInput])).to.deep.equal([
          [content, ['/a', '/b'], { a: 1 }],
          [content, ['/a', '/b'], { a: 1 }], // omitted: unchanged
          [content, ['/a', '/b'], { a: 1 }], // null: unchanged
          [content, ['/c'], { b: 2 }], // locations replaced, rawInput overwritten (not merged)
          [[], ['/c'], { b: 2 }], // []: cleared
        ]);
      },
    ],
    23: [
      'a new-file diff (oldText null), a 2 MB diff, and terminal content with an unknown terminalId (terminal never advertised)',
      async () => {
        const big = `${'x'.repeat(79)}\n`.repeat((2 * 1024 * 1024) / 80);
        const s = await connect(scripted);
        await s.prompt(
          script({
            lines: [
              update({
                sessionUpdate: 'tool_call',
                toolCallId: 'new',
                title: 'Create',
                kind: 'edit',
                content: [{ type: 'diff', path: '/n.txt', oldText: null, newText: 'hello\n' }],
              }),
              update({
                sessionUpdate: 'tool_call',
                toolCallId: 'big',
                title: 'Rewrite',
                kind: 'edit',
                content: [{ type: 'diff', path: '/big.txt', oldText: big, newText: big.toUpperCase() }],
              }),
              update({
                sessionUpdate: 'tool_call',
                toolCallId: 'term',
                title: 'Run',
                kind: 'execute',
                content: [{ type: 'terminal', terminalId: 'no-such-terminal' }],
              }),
            ],
          }),
        );
        const tools = rowsOf(await s.transcript()).filter((r): r is ToolCallRow => r.type === 'tool');
        expect(tools.map((t) => t.toolCall.content)).to.deep.equal([
          [{ type: 'diff', path: '/n.txt', oldText: null, newText: 'hello\n' }],
          [{ type: 'diff', path: '/big.txt', oldText: big, newText: big.toUpperCase() }],
          [{ type: 'terminal', terminalId: 'no-such-terminal' }],
        ]);
      },
    ],
    25: [
      'a plan with one invalid entry is the list without it; each plan replaces the previous one',
      async () => {
        const s = await connect(scripted);
        const entry = (content: string, status: string) => ({ content, priority: 'medium', status });
        await s.prompt(
          script({
            lines: [
              update({
                sessionUpdate: 'plan',
                entries: [entry('one', 'pending'), { priority: 'high' }, entry('two', 'pending')],
              }),
              update({ sessionUpdate: 'plan', entries: [entry('one', 'completed')] }),
            ],
          }),
        );
        const journal = await s.transcript();
        const plans = fromAgent(journal).filter((u) => u.kind === 'plan');
        expect(plans[0]!.plan).to.deep.equal([entry('one', 'pending'), entry('two', 'pending')]);
        const rows = rowsOf(journal).filter((r) => r.type === 'plan');
        expect(rows).to.have.length(1);
        expect(rows[0]!.type === 'plan' && rows[0]!.entries).to.deep.equal([entry('one', 'completed')]);
      },
    ],
    26: [
      'config_option_update with an unknown option type (ignored); current_mode_update to an id not offered',
      async () => {
        const b = await startBridge({
          agentScript: 'test/support/fuzz-agent.ts',
          agentArgs: [
            '--new',
            JSON.stringify({
              modes: {
                currentModeId: 'ask',
                availableModes: [
                  { id: 'ask', name: 'Ask' },
                  { id: 'code', name: 'Code' },
                ],
              },
            }),
          ],
        });
        extra.push(b);
        const s = await connect(b);
        await s.prompt(
          script({
            lines: [
              update({
                sessionUpdate: 'config_option_update',
                configOptions: [
                  {
                    id: 'model',
                    name: 'Model',
                    type: 'select',
                    currentValue: 'fast',
                    options: [{ value: 'fast' }],
                  },
                  { id: 'dial', name: 'Dial', type: '_dial', currentValue: 7 },
                ],
              }),
              update({ sessionUpdate: 'current_mode_update', currentModeId: 'warp' }),
            ],
          }),
        );
        expect(s.configOptions.map((o) => [o.id, o.currentValue])).to.deep.equal([
          ['model', 'fast'],
          ['mode', 'warp'],
        ]);
        expect(s.configOptions.find((o) => o.id === 'mode')!.options!.map((o) => o.value)).to.deep.equal([
          'ask',
          'code',
        ]);
        expect(await s.prompt('still working')).to.equal('end_turn');
      },
    ],
    42: [
      'unknown sessionUpdate kinds (_vendor_thing, subagent_update): journaled raw, shown generically, later updates continue',
      async () => {
        const s = await connect(scripted);
        await s.prompt(
          script({
            lines: [
              update({ sessionUpdate: '_vendor_thing', payload: { x: 1 } }),
              update({ sessionUpdate: 'subagent_update', agent: 'helper', text: 'hi' }),
              chunk('after', 'm'),
            ],
          }),
        );
        const journal = fromAgent(await s.transcript());
        expect(journal.map((u) => u.kind)).to.deep.equal([
          '_vendor_thing',
          'subagent_update',
          'agent_message_chunk',
        ]);
        expect(journal[0]!.raw).to.deep.equal({ sessionUpdate: '_vendor_thing', payload: { x: 1 } });
        const rows = rowsOf(journal);
        expect(rows.map((r) => r.type)).to.deep.equal(['unknown', 'unknown', 'message']);
      },
    ],
    43: [
      'unknown fields kept in raw; a notice with an empty title or severity _critical; a summary chunk before its compaction; summary [] clears',
      async () => {
        const s = await connect(scripted);
        await s.prompt(
          script({
            lines: [
              update({
                sessionUpdate: 'agent_message_chunk',
                messageId: 'k',
                content: { type: 'text', text: 'hi' },
                _extra: { kept: true },
              }),
              update({ sessionUpdate: 'notice', severity: 'warning', title: '' }),
              update({ sessionUpdate: 'notice', severity: '_critical', title: 'Meltdown' }),
              update({
                sessionUpdate: 'compaction_summary_chunk',
                compactionId: 'c1',
                content: { type: 'text', text: 'so far' },
              }),
              update({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' }),
              update({ sessionUpdate: 'compaction_update', compactionId: 'c1', summary: [] }),
            ],
          }),
        );
        const journal = fromAgent(await s.transcript());
        expect(journal[0]!.raw._extra).to.deep.equal({ kept: true });
        const rows = rowsOf(journal);
        const notices = rows.flatMap((r) => (r.type === 'notice' ? [[r.severity, r.title]] : []));
        expect(notices).to.deep.equal([
          ['warning', ''],
          ['_critical', 'Meltdown'],
        ]);
        const compactions = rows.filter((r) => r.type === 'compaction');
        expect(compactions).to.have.length(1);
        expect(rows.indexOf(compactions[0]!)).to.equal(3, 'fixed where its first (summary) chunk came');
        expect(compactions[0]!.type === 'compaction' && compactions[0]!.summary).to.deep.equal([]);
      },
    ],
  };

  for (const [n, [title, run]] of Object.entries(TESTED_HERE)) it(`§9.${n} ${title}`, run);
});
