// Message streaming, tool calls, plans and config: the ACP conformance scenarios (acp-protocol.md §9) driven here, one `it` each, through
// the real bridge with the reference agent or the scripted agent (test/browser/fixtures/conformance.ts). Each
// asserts the scenario's own outcome. docs/conformance.md lists all 50 with the test that drives each.
import { expect } from 'chai';
import type { AgentSessionUpdate } from '../../../src/index.ts';
import { TranscriptModel } from '../../../src/transcript/model.ts';
import type { MessageRow, ToolCallRow } from '../../../src/transcript/rows.ts';
import { startBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import {
  bubbles,
  chunk,
  describeScenarios,
  fromAgent,
  rowsOf,
  script,
  update,
} from '../fixtures/conformance.ts';

describeScenarios('ACP conformance §9: streaming, tool calls and plans (12–26)', (ctx) => ({
  12: [
    'no messageId on any chunk: one bubble per run; a kind change or a tool_call starts a new one',
    async () => {
      const s = await ctx.connect('scripted');
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
      const s = await ctx.connect('scripted');
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
      const s = await ctx.connect('scripted');
      await s.prompt(script({ lines: [chunk('a1 ', 'A'), chunk('b1', 'B'), chunk('a2', 'A')] }));
      expect(bubbles(rowsOf(await s.transcript()))).to.deep.equal([
        ['agent', 'a1 a2'],
        ['agent', 'b1'],
      ]);
    },
  ],
  15: [
    'a messageId of the wrong type (number) is treated as absent',
    async () => {
      const s = await ctx.connect('scripted');
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
  16: [
    'an agent that echoes the prompt as user_message_chunk: one user bubble, not two',
    async () => {
      const s = await ctx.connect('scripted');
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
      const s = await ctx.connect('scripted');
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
      const stored = await ctx.service.transcript(s.sessionId);
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
  18: [
    'an unknown ContentBlock type: the raw journal keeps the update',
    async () => {
      const s = await ctx.connect('scripted');
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
      const s = await ctx.connect('scripted');
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
  20: [
    'a duplicate tool_call with the same id: one card, upserted',
    async () => {
      const s = await ctx.connect('scripted');
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
      const s = await ctx.connect('scripted');
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
  22: [
    'unknown tool kind/status default to other/pending; an invalid content item is skipped',
    async () => {
      const s = await ctx.connect('scripted');
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
  23: [
    'a new-file diff (oldText null), a 2 MB diff, and terminal content with an unknown terminalId (terminal never advertised)',
    async () => {
      const big = `${'x'.repeat(79)}\n`.repeat((2 * 1024 * 1024) / 80);
      const s = await ctx.connect('scripted');
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
  24: [
    'updates after session/cancel, before the prompt response, are accepted and attributed to the turn',
    async () => {
      const delivered: AgentSessionUpdate[] = [];
      const s = await ctx.connect('scripted', { onUpdate: (u) => delivered.push(u) });
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
  25: [
    'a plan with one invalid entry is the list without it; each plan replaces the previous one',
    async () => {
      const s = await ctx.connect('scripted');
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
        agentScript: 'agent/test/fuzz-agent.ts',
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
      ctx.extra.push(b);
      const s = await ctx.connect(b);
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
}));
