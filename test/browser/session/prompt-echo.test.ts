// An agent that echoes the prompt as user_message_chunk during a live turn (ACP allows it): through
// the real bridge and the reference agent under --echo-prompt, the user's message is journaled and
// shown once; a user message of the agent's own (a note, a rewritten prompt) is shown too.
import { expect } from 'chai';
import { USER_NOTE } from '../../../agent/scenarios/content.ts';
import { createAgentsService, TranscriptModel } from '../../../src/index.ts';
import type { MessageRow } from '../../../src/transcript/rows.ts';
import { startBridge, stopBridge } from '../../support/bridge.ts';

describe('an agent that echoes the prompt (real bridge, reference agent --echo-prompt)', function () {
  this.timeout(60_000);

  for (const agentArgs of [['--echo-prompt'], ['--echo-prompt', '--no-message-id']]) {
    it(`one user bubble per prompt (${agentArgs.join(' ')})`, async () => {
      const bridge = await startBridge({ agentArgs });
      const databaseName = `silo-echo-${crypto.randomUUID()}`;
      const service = createAgentsService({ databaseName });
      try {
        const session = await service.connect({ bridge, cwd: `/tmp/silo-echo-${crypto.randomUUID()}` });
        expect(await session.prompt('hello echo')).to.equal('end_turn');
        expect(
          await session.prompt([
            { type: 'text', text: 'two blocks, ' },
            { type: 'text', text: 'one message' },
          ]),
        ).to.equal('end_turn');
        const journal = await session.transcript();
        expect(journal.filter((u) => u.kind === 'user_message_chunk').map((u) => u.text)).to.deep.equal([
          'hello echo',
          'two blocks, ',
          'one message',
        ]);
        const model = new TranscriptModel();
        model.applyAll(journal);
        const users = model.rows.filter((r): r is MessageRow => r.type === 'message' && r.role === 'user');
        expect(users.map((r) => r.text)).to.deep.equal(['hello echo', 'two blocks, one message']);
        expect(model.turnsStarted).to.equal(2);
        // The agent's answer is still all there.
        const agent = model.rows.filter((r): r is MessageRow => r.type === 'message' && r.role === 'agent');
        expect(agent.map((r) => r.text.includes('hello echo'))).to.deep.equal([true, false]);
      } finally {
        await service.dispose();
        indexedDB.deleteDatabase(databaseName);
        await stopBridge(bridge.id);
      }
    });
  }

  // A user chunk the agent sends at the start of a turn that is not the prompt (a note it adds, the
  // prompt as it rewrote it) is not an echo: journaled and shown, after the prompt (issue 30).
  for (const agentArgs of [[], ['--echo-prompt']]) {
    it(`a user message of the agent's own at the start of a turn is journaled and shown (${agentArgs.join(' ') || 'no echo'})`, async () => {
      const bridge = await startBridge({ agentArgs });
      const databaseName = `silo-echo-${crypto.randomUUID()}`;
      const service = createAgentsService({ databaseName });
      try {
        const session = await service.connect({ bridge, cwd: `/tmp/silo-echo-${crypto.randomUUID()}` });
        expect(await session.prompt('/scenario user-note')).to.equal('end_turn');
        expect(await session.prompt('/scenario user-note rewrite')).to.equal('end_turn');
        const journal = await session.transcript();
        const users = [
          '/scenario user-note',
          USER_NOTE,
          '/scenario user-note rewrite',
          '/scenario user-note rewrite (rewritten)',
        ];
        expect(journal.filter((u) => u.kind === 'user_message_chunk').map((u) => u.text)).to.deep.equal(
          users,
        );
        const model = new TranscriptModel();
        model.applyAll(journal);
        const bubbles = model.rows.filter((r): r is MessageRow => r.type === 'message' && r.role === 'user');
        expect(bubbles.map((r) => r.text)).to.deep.equal(users);
        const agent = model.rows.filter((r): r is MessageRow => r.type === 'message' && r.role === 'agent');
        expect(agent.map((r) => r.text)).to.deep.equal(['Noted.', 'Noted.']);
      } finally {
        await service.dispose();
        indexedDB.deleteDatabase(databaseName);
        await stopBridge(bridge.id);
      }
    });
  }
});
