// A journaled session opens with its last screen right in the first frame that shows rows: the last
// rows are drawn in normal flow over the virtualized log (the tail paint) while the log measures
// them, and the layer goes once the log holds still at its end. Real worker and IndexedDB.
import { expect } from 'chai';
import '../../../components/index.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import { toJsonl } from '../../../src/export.ts';
import { createAgentsService } from '../../../src/index.ts';
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
    try {
      // 5,000 updates: 263 turns of 19 updates, then the first 3 updates of turn 264.
      const sessionId = await service.importJsonl(toJsonl(longConversation(5000)));
      await el.updateComplete;
      el.service = service;
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
      // The hand-over: the layer goes once the log holds still at its end, the log shows the last row.
      await until(() => root.querySelector('.tail-paint') === null, 'the tail paint goes');
      await frame();
      const log = root.querySelector<HTMLElement>('.log')!;
      const rows = el.model.rows;
      const end = log.querySelector(`:scope > .row[data-key="${CSS.escape(rows.at(-1)!.key)}"]`);
      expect(end, 'the log renders the last row').to.not.equal(null);
      expect(inside(end!, log.getBoundingClientRect()), 'the log shows it').to.equal(true);
      expect(log.scrollHeight - log.scrollTop - log.clientHeight).to.be.at.most(1);
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
