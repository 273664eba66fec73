// Find's `searching` means rows are being read: a render of the transcript that changed no row starts
// no search (no `searching: true` for nothing, no `silo-find`), and a render that added a row counts it.
// The find controller on an element of the test's own, so `searching` is read as each render ends
// (the controller's `hostUpdated` runs just before the element's `updated`).
import { expect } from 'chai';
import type { PropertyValues } from 'lit';
import { SiloElement } from '../../../components/shared/silo-element.ts';
import {
  type SiloFindResult,
  TranscriptFindController,
} from '../../../components/transcript/find/find.controller.ts';
import type { TranscriptRow } from '../../../src/index.ts';
import { TranscriptModel } from '../../../src/transcript/model.ts';
import { until } from '../../support/until.ts';
import { findJournal } from '../fixtures/find-data.ts';
import { chunk } from '../fixtures/transcript-data.ts';

class FindProbe extends SiloElement {
  rendered: readonly TranscriptRow[] = [];
  /** `searching` as each render ended. */
  searchingAfterRender: boolean[] = [];
  readonly finder = new TranscriptFindController(this, {
    rows: () => this.rendered,
    indexOf: (key) => this.rendered.findIndex((r) => r.key === key),
    log: () => null,
    reveal: async () => null,
  });

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    this.searchingAfterRender.push(this.finder.result.searching);
  }
}
customElements.define('silo-find-probe', FindProbe);

describe('<silo-transcript> find: searching only while rows are read', () => {
  it('a render that changed no row starts no search; a new row is counted', async () => {
    const model = new TranscriptModel();
    model.applyAll(findJournal(40));
    const probe = document.createElement('silo-find-probe') as FindProbe;
    probe.rendered = model.rows.slice();
    document.body.append(probe);
    try {
      await probe.updateComplete;
      const events: SiloFindResult[] = [];
      probe.addEventListener('silo-find', (e) => events.push(e.detail));
      const found = await probe.finder.find('zebra');
      expect(found).to.deep.equal({ query: 'zebra', current: 1, total: 2, searching: false });

      events.length = 0;
      probe.searchingAfterRender = [];
      for (let i = 0; i < 3; i++) {
        // The same rows, as a new array (as the transcript hands them over on every render).
        probe.rendered = model.rows.slice();
        probe.requestUpdate();
        await probe.updateComplete;
      }
      expect(probe.searchingAfterRender, 'renders with no row changed').to.deep.equal([false, false, false]);
      expect(events, 'no silo-find for renders that changed nothing').to.deep.equal([]);
      expect(probe.finder.result).to.deep.equal(found);

      model.apply(chunk('One more zebra.', 'sa-late'));
      probe.rendered = model.rows.slice();
      probe.requestUpdate();
      await probe.updateComplete;
      expect(probe.searchingAfterRender.at(-1), 'a render with a new row reads it').to.equal(true);
      await until(() => events.at(-1)?.searching === false, 'the new row counted');
      expect(events.at(-1)).to.deep.equal({ query: 'zebra', current: 1, total: 3, searching: false });
    } finally {
      probe.remove();
    }
  });
});
