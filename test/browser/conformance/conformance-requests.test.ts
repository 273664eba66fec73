// Permission requests, turn ends and robustness: the ACP conformance scenarios (acp-protocol.md §9) driven here, one `it` each, through
// the real bridge with the reference agent or the scripted agent (test/browser/fixtures/conformance.ts). Each
// asserts the scenario's own outcome. docs/conformance.md lists all 50 with the test that drives each.
import { expect } from 'chai';
import type { AgentPermissionRequest, AgentSessionUpdate } from '../../../src/index.ts';
import { until } from '../../support/until.ts';
import {
  chunk,
  describeScenarios,
  fromAgent,
  permissionRequest,
  responses,
  rowsOf,
  script,
  update,
} from '../fixtures/conformance.ts';

describeScenarios('ACP conformance §9: permissions, turn ends and robustness (27–50)', (ctx) => ({
  27: [
    'request_permission for a tool call never announced: the request carries the toolCall fields',
    async () => {
      const asked: AgentPermissionRequest[] = [];
      const s = await ctx.connect('scripted', {
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
  28: [
    'the user cancels with 2 permissions pending: both answered cancelled, then session/cancel; the prompt resolves cancelled',
    async () => {
      const asked: AgentPermissionRequest[] = [];
      const s = await ctx.connect('scripted', { onPermission: (p) => asked.push(p) });
      const option = [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }];
      const running = s.prompt(
        script({
          lines: [
            permissionRequest('a', { toolCallId: 'ta', title: 'A' }, option),
            permissionRequest('b', { toolCallId: 'tb', title: 'B' }, option),
          ],
          wait: 'cancel',
          await: ['a', 'b'],
          stopReason: 'cancelled',
        }),
      );
      await until(() => asked.length === 2, 'both requests shown');
      await s.cancel();
      expect(await running).to.equal('cancelled');
      const journal = await s.transcript();
      expect(responses(journal).map((r) => r.result)).to.deep.equal([
        { outcome: { outcome: 'cancelled' } },
        { outcome: { outcome: 'cancelled' } },
      ]);
      expect(journal.find((u) => u.text?.startsWith('RESPONSES BEFORE CANCEL'))?.text).to.equal(
        'RESPONSES BEFORE CANCEL 2',
        'both answers reached the agent before session/cancel',
      );
      expect(asked.every((p) => p.signal.aborted)).to.equal(true);
    },
  ],
  29: [
    'a permission request after session/cancel is answered cancelled without being shown',
    async () => {
      const delivered: AgentSessionUpdate[] = [];
      let shown = 0;
      const s = await ctx.connect('scripted', {
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
      const s = await ctx.connect('scripted', { onPermission: () => void shown++ });
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
      const s = await ctx.connect('scripted');
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
      const s = await ctx.connect('reference', { onUpdate: (u) => delivered.push(u) });
      const running = s.prompt('/scenario cancel-error');
      await until(() => delivered.some((u) => u.kind === 'agent_message_chunk'), 'streaming');
      await s.cancel();
      expect(await running).to.equal('cancelled');
    },
  ],
  41: [
    'PromptResponse extra fields (usage, vendor) are passed through and journaled',
    async () => {
      const s = await ctx.connect('scripted');
      await s.prompt(script({ lines: [], result: { usage: { inputTokens: 3 }, _vendor: { x: 1 } } }));
      const end = (await s.transcript()).at(-1)!;
      expect(end.raw).to.deep.include({ usage: { inputTokens: 3 }, _vendor: { x: 1 } });
    },
  ],
  42: [
    'unknown sessionUpdate kinds (_vendor_thing, a subagent_update naming no child session): journaled raw, shown generically, later updates continue',
    async () => {
      const s = await ctx.connect('scripted');
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
      const s = await ctx.connect('scripted');
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
  36: [
    'elicitation/complete for an unknown id, and twice for none: ignored, nothing journaled, the turn goes on',
    async () => {
      const s = await ctx.connect('scripted');
      const complete = (elicitationId: unknown) => ({
        jsonrpc: '2.0',
        method: 'elicitation/complete',
        params: { elicitationId },
      });
      await s.prompt(
        script({
          lines: [complete('no-such-question'), complete('no-such-question'), complete(7), chunk('after')],
        }),
      );
      const journal = fromAgent(await s.transcript());
      expect(journal.map((u) => [u.kind, u.text])).to.deep.equal([['agent_message_chunk', 'after']]);
    },
  ],
  48: [
    'a 10 MB agent message arrives whole through the bridge, journaled and delivered',
    async () => {
      const delivered: AgentSessionUpdate[] = [];
      const s = await ctx.connect('reference', { onUpdate: (u) => delivered.push(u) });
      expect(await s.prompt('/scenario big')).to.equal('end_turn');
      const big = (await s.transcript()).filter((u) => u.messageId === 'msg-big');
      expect(big.map((u) => u.text?.length)).to.deep.equal([10 * 1024 * 1024]);
      expect(delivered.filter((u) => u.messageId === 'msg-big').map((u) => u.text?.length)).to.deep.equal([
        10 * 1024 * 1024,
      ]);
    },
  ],
  47: [
    'a malformed line, a batch array and a scalar from the agent: dropped (-32700/-32600 to the agent), the session keeps working',
    async () => {
      const s = await ctx.connect('scripted');
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
      const s = await ctx.connect('scripted');
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
}));
