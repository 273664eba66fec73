// <silo-transcript .session> after a reload: the live source paints the journal's last screen from its
// tail before the whole journal is read (as the offline source does), then folds it all and streams on.
// Real bridge, reference agent, worker and IndexedDB; the handle is only watched (its reads counted,
// the whole-journal read held until the tail is on screen).
import { expect } from 'chai';
import '../../../components/index.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import { toJsonl } from '../../../src/export.ts';
import { type AgentSessionHandle, createAgentsService } from '../../../src/index.ts';
import { startBridge, stopBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import { deepText, mount } from '../fixtures/dom.ts';
import { longConversation } from '../fixtures/transcript-data.ts';

/** The user prompts among the model's rows, by their text. */
const questions = (el: SiloTranscript) =>
  el.model.rows.flatMap((r) => (r.type === 'message' && r.role === 'user' ? [r.text] : []));

describe('<silo-transcript .session> after a reload', function () {
  this.timeout(60000);

  it('paints the last screen from the journal tail before reading the whole journal, then folds it all', async () => {
    const bridge = await startBridge();
    const databaseName = `silo-tail-first-${crypto.randomUUID()}`;
    // 5,000 updates: 263 turns of 19 updates, then the first 3 updates of turn 264.
    const before = createAgentsService({ databaseName });
    const oldId = await before.importJsonl(toJsonl(longConversation(5000)));
    await before.dispose();
    // The reload: a fresh service continues that journaled session in a new one that carries it.
    const service = createAgentsService({ databaseName });
    const el = document.createElement('silo-transcript');
    const cleanup = mount(el, 500);
    try {
      const handle = await service.connect({
        bridge,
        cwd: '/tmp/silo-tail-first',
        resume: { sessionId: oldId, startFresh: true },
      });
      const reads: string[] = [];
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const watched = Object.create(handle) as AgentSessionHandle;
      Object.assign(watched, {
        transcriptTail: (count: number) => {
          reads.push(`tail ${count}`);
          return handle.transcriptTail(count);
        },
        transcript: async () => {
          reads.push('all');
          const all = await handle.transcript();
          await held;
          return all;
        },
      });
      el.session = watched;

      // The last screen is painted while the whole journal's read is still held.
      await until(() => deepText(el.shadowRoot!).includes('Question number 264'), 'last turn painted', 20000);
      expect(reads[0]).to.equal('tail 400');
      await until(() => reads.length === 2, 'the whole journal asked for', 20000);
      expect(reads).to.deep.equal(['tail 400', 'all']);
      const first = questions(el);
      expect(first.at(-1)).to.equal('Question number 264: what is in **file 264**?');
      expect(first, 'the first painted model holds only the tail').not.to.include(
        'Question number 1: what is in **file 1**?',
      );
      expect(first.length).to.be.below(100);

      // Then the whole journal is folded in, and live updates keep coming after it.
      release();
      await until(() => questions(el).length === 264, 'whole journal folded', 20000);
      expect(questions(el)[0]).to.equal('Question number 1: what is in **file 1**?');
      await handle.prompt('after the reload');
      await until(() => questions(el).at(-1) === 'after the reload', 'live prompt shown', 20000);
      expect(questions(el)).to.have.length(265);
      expect(reads).to.deep.equal(['tail 400', 'all']);
    } finally {
      cleanup();
      await service.dispose();
      await stopBridge(bridge.id);
    }
  });
});
