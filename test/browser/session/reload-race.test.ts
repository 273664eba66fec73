// A reload in the moment between a turn's last text and its end. claude-agent-acp sends its last
// updates (usage) and answers the prompt ~220 ms after the text of an answered AskUserQuestion turn;
// a page reloaded in between dies mid-turn (test:agents' question check did not wait for the turn's
// end, and its `reload` hit that window once in five runs). The journal then ends inside the turn,
// so the restore must load (not resume) and see the agent's replay as the same history: no note,
// nothing added, the turn ended `interrupted` once; a later load of it adds nothing either. Planted:
// a journal ending inside a turn read as complete (worker/restore.ts) fails both cases (`resumed`).
import { expect } from 'chai';
import { scenarioPrompt } from '../../../agent/scenarios.ts';
import { initialAnswers } from '../../../src/elicitation/index.ts';
import { type AgentSessionUpdate, createAgentsService } from '../../../src/index.ts';
import { until } from '../../support/until.ts';
import { suiteBridges } from '../fixtures/bridges.ts';
import { conversationAdded } from '../fixtures/pages.ts';

const CWD = '/tmp/silo-reload-race';

const ends = (journal: readonly AgentSessionUpdate[]) =>
  journal.filter((u) => u.kind === 'turn_end').map((u) => u.turnEnd!.stopReason);

describe('a reload between a turn’s last text and its end (real bridge, reference agent --replay-shape claude)', function () {
  this.timeout(60_000);
  const suite = suiteBridges();

  for (const asked of [['tool'], []])
    it(`${asked.length ? 'a question for a tool call (AskUserQuestion)' : 'a question'}: the restore loads the same history (no note), ends the turn interrupted, and a later load of it adds nothing and shows no note`, async () => {
      const bridge = await suite.bridgeWith('--replay-shape', 'claude');
      const databaseName = `silo-reload-race-${crypto.randomUUID()}`;
      const worker = new Worker(new URL('../../../worker/index.ts', import.meta.url), { type: 'module' });
      const page = createAgentsService({ worker, databaseName });
      const session = await page.connect({
        bridge,
        cwd: CWD,
        onElicitation: (q) => void q.answer(initialAnswers(q.questions)),
      });
      const { sessionId } = session;
      expect(await session.prompt('hello')).to.equal('end_turn');
      void session.prompt(scenarioPrompt('elicit-form', ...asked, 'linger')).catch(() => {});
      await until(
        async () =>
          (await session.transcript()).some(
            (u) => u.kind === 'agent_message_chunk' && u.text?.startsWith('You answered'),
          ),
        'the answer’s text journaled',
      );
      // The page reloads: its worker dies with the turn running.
      worker.terminate();
      await session.closed;

      const service = createAgentsService({ databaseName });
      try {
        const before = await service.transcript(sessionId);
        expect(ends(before)).to.deep.equal(['end_turn']);
        const restored = await service.connect({ bridge, cwd: CWD, resume: { sessionId } });
        expect(restored.resumeOutcome, 'a journal that ends inside a turn is loaded').to.equal('loaded');
        expect(restored.restoreNote, 'the same history: no note').to.equal(undefined);
        const after = await restored.transcript();
        expect(conversationAdded(before, after).map((u) => u.kind)).to.deep.equal(['turn_end']);
        expect(ends(after)).to.deep.equal(['end_turn', 'interrupted']);
        await restored.close();

        // Loaded again (another device's history list, "Load from the agent"): the journal now holds
        // the turn ended, the agent still only its start.
        const again = await service.connect({ bridge, cwd: CWD, resume: { sessionId, via: 'load' } });
        expect(again.restoreNote, 'the same history: no note').to.equal(undefined);
        expect(conversationAdded(after, await again.transcript())).to.deep.equal([]);
        await again.close();
      } finally {
        await service.dispose();
        await page.dispose();
      }
    });
});
