// Handshake, auth, session restore and listing: the ACP conformance scenarios (acp-protocol.md §9) driven here, one `it` each, through
// the real bridge with the reference agent or the scripted agent (test/browser/fixtures/conformance.ts). Each
// asserts the scenario's own outcome. docs/conformance.md lists all 50 with the test that drives each.
import { expect } from 'chai';
import type { AgentSessionUpdate } from '../../../src/index.ts';
import { startBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import { bubbles, describeScenarios, err, rowsOf, script, update } from '../fixtures/conformance.ts';

describeScenarios('ACP conformance §9: handshake, auth and sessions (1–10)', (ctx) => ({
  1: [
    'a different protocolVersion (0 or 2) is reported (protocol-version) and the connection is closed',
    async () => {
      for (const version of [0, 2]) {
        const b = await startBridge({
          agentScript: 'agent/test/fuzz-agent.ts',
          agentArgs: ['--init', JSON.stringify({ protocolVersion: version })],
        });
        ctx.extra.push(b);
        const e = await err(ctx.connect(b));
        expect(e?.code).to.equal('protocol-version');
        expect((e?.data as { answered?: number } | undefined)?.answered).to.equal(version);
      }
    },
  ],
  2: [
    'no agentCapabilities: load, resume and list are never tried; restoring is journal-only',
    async () => {
      const b = await startBridge({
        agentScript: 'agent/test/fuzz-agent.ts',
        agentArgs: ['--init', JSON.stringify({ agentCapabilities: undefined, _vendorCaps: { x: 1 } })],
      });
      ctx.extra.push(b);
      const s = await ctx.connect(b);
      expect(await s.prompt('hello')).to.equal('end_turn');
      await s.close();
      const restored = await ctx.connect(b, { resume: { sessionId: s.sessionId } });
      expect(restored.resumeOutcome).to.equal('journal-only');
      expect((await err(restored.prompt('more')))?.code).to.equal('journal-only');
      // No session/list either: the history is the journal's only (a call would get -32601 and reject).
      expect((await ctx.service.sessions({ bridge: b })).map((h) => h.sessionId)).to.deep.equal([
        s.sessionId,
      ]);
    },
  ],
  3: [
    'session/new → -32000: auth-required with every method (terminal ones not usable); authenticate, then the session opens',
    async () => {
      const b = await startBridge({ agentArgs: ['--auth-required'] });
      ctx.extra.push(b);
      const e = await err(ctx.connect(b));
      expect(e?.code).to.equal('auth-required');
      const methods = (e!.data as { authMethods: { id: string; type: string; usable: boolean }[] })
        .authMethods;
      expect(methods.map((m) => [m.id, m.type, m.usable])).to.deep.equal([
        ['reference-login', 'agent', true],
        ['reference-key', 'env_var', true],
        ['reference-terminal', 'terminal', false],
        ['reference-device', 'terminal', false],
        ['reference-oauth', 'terminal', false],
      ]);
      const session = await ctx.connect(b, { authenticate: 'reference-login' });
      expect(session.state).to.equal('connected');
    },
  ],
  4: [
    'a notification before the initialize response: the bridge’s “Initialize failed”, coded internal',
    async () => {
      const b = await startBridge({ agentArgs: ['--log-before-init'] });
      ctx.extra.push(b);
      const e = await err(ctx.connect(b));
      expect(e?.name).to.equal('SiloError');
      // The bridge closes with 1011 "Initialize failed"; the agent misbehaved, so the code is `internal`
      // (not `unreachable`, `closed` or `protocol-version`, which would send the user elsewhere).
      expect(e?.code).to.equal('internal');
      expect(e?.message).to.match(/^Initialize failed/);
    },
  ],
  5: [
    'session/load replays 500 updates then answers null: all 500 journaled in order; loading again adds no duplicates',
    async () => {
      const b = await startBridge({
        agentScript: 'agent/test/fuzz-agent.ts',
        agentArgs: [
          '--init',
          JSON.stringify({ agentCapabilities: { loadSession: true } }),
          '--replay',
          '500',
        ],
      });
      ctx.extra.push(b);
      const expected = Array.from({ length: 500 }, (_, i) => String(i));
      const first = await ctx.connect(b, { resume: { sessionId: 'replayed-session' } });
      expect(first.resumeOutcome).to.equal('loaded');
      const journal = await first.transcript();
      expect(journal.map((u) => u.text)).to.deep.equal(expected);
      expect(journal.map((u) => u.messageId)).to.deep.equal(expected.map((i) => `replay-${i}`));
      await first.close();
      const again = await ctx.connect(b, { resume: { sessionId: 'replayed-session' } });
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
      const s = await ctx.connect('reference', { onUpdate: (u) => delivered.push(u) });
      // The commands the agent announces after session/new can come late on a loaded machine.
      await until(() => delivered.some((u) => u.kind === 'available_commands_update'), 'commands');
      await s.prompt('first');
      const mode = s.configOptions.find((o) => o.category === 'mode')!;
      const other = mode.options!.find((o) => o.value !== mode.currentValue)!.value;
      await s.setConfigOption(mode.id, other);
      const journal = await s.transcript();
      await s.close();
      const resumed = await ctx.connect('reference', { resume: { sessionId: s.sessionId } });
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
      ctx.extra.push(b);
      const s = await ctx.connect(b, { resume: { sessionId: 'never-existed' } });
      expect(s.resumeOutcome).to.equal('journal-only');
      const e = await err(s.prompt('hello?'));
      expect(e?.code).to.equal('journal-only');
      expect(e?.message).to.match(/new session/);
      await s.close();
      const fresh = await ctx.connect(b, { resume: { sessionId: 'never-existed', startFresh: true } });
      expect(fresh.resumeOutcome).to.equal('new');
      expect(await fresh.prompt('hello')).to.equal('end_turn');
    },
  ],
  10: [
    'a session/update for an unknown sessionId is quarantined, not journaled',
    async () => {
      const s = await ctx.connect('scripted');
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
}));
