// <silo-transcript> before and after its rows chunk loads (components/transcript/log.lazy.ts): this
// file registers the element alone (not the components entry, which starts the load, nor the DOM
// fixtures, which wait for it), so the element's first render is what starts the load, and that
// render sees the chunk missing. A subclass records what the first render drew (in `updated()`, the
// same task as the render: the chunk cannot have arrived) and calls `find()` there, before the chunk.
import { expect } from 'chai';
import '../../../components/transcript/silo-transcript.define.ts';
import type { SiloFindResult } from '../../../components/transcript/find/find.controller.ts';
import { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import type { AgentSessionUpdate } from '../../../src/types.ts';
import { until } from '../../support/until.ts';
import { mount } from '../fixtures/mount.ts';
import { userPrompt } from '../fixtures/transcript-data.ts';

interface FirstFrame {
  log: HTMLElement | null;
  role: string | null;
  label: string | null;
  rowsDrawn: number;
  rowsInModel: number;
  empty: boolean;
}

class ProbeTranscript extends SiloTranscript {
  first: FirstFrame | undefined;
  found: Promise<SiloFindResult> | undefined;
  protected override updated(changed: Map<PropertyKey, unknown>): void {
    super.updated(changed);
    if (this.first) return;
    const root = this.shadowRoot!;
    const log = root.querySelector<HTMLElement>('[part="log"]');
    this.first = {
      log,
      role: log?.getAttribute('role') ?? null,
      label: log?.getAttribute('aria-label') ?? null,
      rowsDrawn: root.querySelectorAll('.row').length,
      rowsInModel: this.model.rows.length,
      empty: root.querySelector('[part="empty"]') !== null,
    };
    this.found = this.find('zebra');
  }
}
customElements.define('probe-transcript', ProbeTranscript);

describe('<silo-transcript> with its rows chunk loaded on demand', () => {
  it('draws its frame first, then its rows once the chunk arrives; find called before it works', async () => {
    const updates: AgentSessionUpdate[] = [];
    for (let i = 0; i < 200; i++)
      updates.push(userPrompt(i === 180 ? 'the zebra row' : `prompt ${i}`, `m${i}`));
    const el = document.createElement('probe-transcript') as ProbeTranscript;
    el.updates = updates;
    const unmount = mount(el, 400, 600);
    try {
      await until(() => el.first !== undefined, 'the first render');
      // The frame: the log, a labelled region until it holds rows (a feed must hold articles), no
      // rows yet (they are in the model), and no "nothing yet" text, since there are rows.
      const first = el.first!;
      expect(first.log).to.not.equal(null);
      expect(first.role).to.equal('region');
      expect(first.label).to.equal('Conversation');
      expect(first.rowsInModel).to.equal(200);
      expect(first.rowsDrawn).to.equal(0);
      expect(first.empty).to.equal(false);
      expect(first.log!.getBoundingClientRect().height).to.be.greaterThan(0);

      // Then the rows, in the same log element.
      const log = el.shadowRoot!.querySelector<HTMLElement>('[part="log"]')!;
      await until(() => log.querySelector(':scope > .row') !== null, 'the rows are drawn');
      expect(log).to.equal(first.log);
      expect(log.getAttribute('role'), 'a feed once it holds rows').to.equal('feed');
      expect(log.querySelectorAll(':scope > .row').length).to.be.lessThan(200);
      // Styled by the rows' styles, which came with the chunk (transcript-row-styles.ts: a row's
      // padding is half the 12px spacing; a user's bubble has the 10px radius).
      const drawn = log.querySelector<HTMLElement>(':scope > .row')!;
      expect(getComputedStyle(drawn).paddingTop).to.equal('6px');
      expect(getComputedStyle(drawn.querySelector('.bubble')!).borderTopLeftRadius).to.equal('10px');

      // The find started before the chunk: one match, its row (far below) brought into the view.
      const result = await el.found!;
      expect(result).to.deep.include({ query: 'zebra', current: 1, total: 1 });
      const row = log.querySelector<HTMLElement>(':scope > .row[data-index="180"]');
      expect(row, 'the match row is rendered').to.not.equal(null);
      const view = log.getBoundingClientRect();
      const rect = row!.getBoundingClientRect();
      expect(rect.bottom > view.top && rect.top < view.bottom, 'the match row is in view').to.equal(true);
      expect(row!.textContent).to.contain('the zebra row');
    } finally {
      unmount();
    }
  });
});
