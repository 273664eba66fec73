// A journaled session opens with its last screen right in the first frame that shows rows: the last
// rows are drawn in normal flow over the virtualized log (the tail paint) while the log measures
// them, and the layer goes once the whole journal is in and the log holds still at its end. Real
// worker and IndexedDB.
import { expect } from 'chai';
import '../../../components/index.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import { toJsonl } from '../../../src/export.ts';
import { type AgentsService, createAgentsService } from '../../../src/index.ts';
import { frame, until } from '../../support/until.ts';
import { mount } from '../fixtures/dom.ts';
import { longConversation } from '../fixtures/transcript-data.ts';

/** Whether `row` overlaps `box` vertically (on screen in the log). */
const inside = (row: Element, box: DOMRect) => {
  const r = row.getBoundingClientRect();
  return r.bottom > box.top + 1 && r.top < box.bottom - 1;
};

describe('<silo-transcript> opening a journal at its end', function () {
  this.timeout(60000);

  it('shows the last row in the first frame with rows, then hands over to the log at its end', async () => {
    const databaseName = `silo-tail-paint-${crypto.randomUUID()}`;
    const service = createAgentsService({ databaseName });
    const el = document.createElement('silo-transcript') as SiloTranscript;
    const cleanup = mount(el, 400);
    // The whole journal (read after the tail) arrives only when the test lets it: after the log has
    // settled on the tail, as on a loaded machine, where the read is slower than the tail's layout.
    let release = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    const gated: AgentsService = {
      ...service,
      transcript: async (id) => {
        await released;
        return service.transcript(id);
      },
    };
    try {
      // 5,000 updates: 263 turns of 19 updates, then the first 3 updates of turn 264.
      const sessionId = await service.importJsonl(toJsonl(longConversation(5000)));
      await el.updateComplete;
      el.service = gated;
      el.sessionId = sessionId;
      const root = el.shadowRoot!;
      // Frame by frame until any row is on screen (from the log or its tail paint).
      await until(() => root.querySelector('.log > .row, .tail-paint > .row') !== null, 'rows shown');
      const box = root.querySelector('.log')!.getBoundingClientRect();
      const lastKey = el.model.rows.at(-1)!.key;
      const shown = Array.from(root.querySelectorAll<HTMLElement>('.log > .row, .tail-paint > .row'));
      const last = shown.filter((r) => r.dataset.key === lastKey);
      expect(last.length, 'the last row is drawn in the first frame with rows').to.be.greaterThan(0);
      expect(
        last.some((r) => inside(r, box)),
        'the last row is on screen in that frame',
      ).to.equal(true);
      const layer = root.querySelector('.tail-paint');
      expect(layer?.getAttribute('aria-hidden')).to.equal('true');
      expect(layer?.hasAttribute('inert')).to.equal(true);
      const log = root.querySelector<HTMLElement>('.log')!;
      const atEnd = () => log.scrollHeight - log.scrollTop - log.clientHeight <= 1;
      /** The last row as the log draws it, when it is on screen there. */
      const inLog = () => {
        const row = log.querySelector(`:scope > .row[data-key="${CSS.escape(lastKey)}"]`);
        return row && inside(row, log.getBoundingClientRect()) ? row : null;
      };
      // The log settles on the tail: it shows the last row at its end for more frames than the log
      // needs to hold still (3) before the tail paint may go.
      let settled = 0;
      await until(() => {
        settled = inLog() && atEnd() ? settled + 1 : 0;
        return settled > 5;
      }, 'the log settled on the tail');
      expect(el.model.rows.length, 'only the tail is in').to.be.below(300);
      release();
      // From now on, in every frame, the last row is on screen: in the tail paint until the log has
      // taken the whole journal in and holds still at its end, then in the log.
      let frames = 0;
      let still = 0;
      while (still < 3) {
        const paint = root.querySelector('.tail-paint');
        const row = paint?.querySelector(`.row[data-key="${CSS.escape(lastKey)}"]`);
        const visible = Boolean(row && inside(row, log.getBoundingClientRect())) || inLog() !== null;
        const when = `${frames} frames after the whole journal was let in`;
        expect(visible, `the last row is on screen ${when}`).to.equal(true);
        still = !paint && el.model.rows.length > 1000 && inLog() && atEnd() ? still + 1 : 0;
        expect(frames++, 'frames until the log holds the whole journal at its end').to.be.below(1200);
        await frame();
      }
      expect(el.model.rows.at(-1)!.key).to.equal(lastKey);
    } finally {
      cleanup();
      await service.dispose();
      indexedDB.deleteDatabase(databaseName);
    }
  });

  it('draws no tail paint for an array of updates (it opens at the top)', async () => {
    const el = document.createElement('silo-transcript') as SiloTranscript;
    const cleanup = mount(el, 400);
    try {
      el.updates = longConversation(400);
      await until(() => el.shadowRoot!.querySelector('.log > .row') !== null, 'rows shown');
      expect(el.shadowRoot!.querySelector('.tail-paint')).to.equal(null);
    } finally {
      cleanup();
    }
  });
});
