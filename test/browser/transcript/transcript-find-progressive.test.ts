// Find in a large <silo-transcript> names its first match before the count is done: rows are read
// from the view on (wrapping around), the first match at or below the view is reported (`searching`
// still true, `current` and `total` partial) and scrolled to as soon as it is read, and the rest is
// counted after. Row texts are kept between queries, per row object: a streamed row is read again.
import { expect } from 'chai';
import '../../../components/index.ts';
import type { SiloFindResult } from '../../../components/transcript/find/find.controller.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import { until } from '../../support/until.ts';
import { mount, settle } from '../fixtures/dom.ts';
import { findJournal } from '../fixtures/find-data.ts';
import { chunk, userPrompt } from '../fixtures/transcript-data.ts';

const log = (t: SiloTranscript) => t.shadowRoot!.querySelector<HTMLElement>('[part="log"]')!;

/** The key of the row marked as the current match's, once it is on screen. */
function activeRow(t: SiloTranscript): string | undefined {
  const row = log(t).querySelector<HTMLElement>(':scope > .row[data-find="active"]');
  if (!row) return undefined;
  const r = row.getBoundingClientRect();
  const view = log(t).getBoundingClientRect();
  return r.bottom > view.top && r.top < view.bottom ? row.dataset.key : undefined;
}

/** The events of `query` up to the first with a current match, and the first that ends the search. */
function firstAndDone(events: readonly SiloFindResult[], query: string) {
  const own = events.filter((e) => e.query === query);
  return {
    first: own.findIndex((e) => e.current >= 1),
    done: own.findIndex((e) => !e.searching),
    own,
  };
}

describe('<silo-transcript> find names the first match before the count is done', function () {
  this.timeout(120000);
  let cleanup: (() => void) | undefined;
  afterEach(() => {
    cleanup?.();
    cleanup = undefined;
  });

  it('100,000 rows: the match at the view first (still searching), then the exact count; next/previous in order', async () => {
    const t = document.createElement('silo-transcript');
    t.updates = findJournal(17000);
    cleanup = mount(t, 500);
    await t.updateComplete;
    await settle(log(t));
    const events: SiloFindResult[] = [];
    t.addEventListener('silo-find', (e) => events.push(e.detail));

    // Halfway down: matches both below and above the view.
    log(t).scrollTop = log(t).scrollHeight / 2;
    await settle(log(t));
    const view = log(t).getBoundingClientRect();
    const prompt = [...log(t).querySelectorAll<HTMLElement>(':scope > .row[data-index]')]
      .filter((el) => el.getBoundingClientRect().bottom > view.top + 1)
      .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
      .find((el) => el.dataset.key?.startsWith('m:user:'))?.dataset.key;
    // "question" is in every turn's prompt: the first one at or below the top of the view is current.
    let r = await t.find('question');
    let seen = firstAndDone(events, 'question');
    expect(seen.first, 'a current match is reported').to.be.greaterThan(-1);
    expect(seen.done, 'the search ends').to.be.greaterThan(-1);
    expect(seen.first, 'the current match is reported before the count is done').to.be.lessThan(seen.done);
    const early = seen.own[seen.first]!;
    expect(early.searching, 'reported while searching').to.equal(true);
    expect(early.total, 'with a partial total').to.be.lessThan(17000);
    expect(r.searching).to.equal(false);
    expect(r.total, 'the final total').to.equal(17000);
    const key = activeRow(t);
    expect(key, 'the first prompt at or below the top of the view').to.equal(prompt);
    const turn = Number(/^m:user:su(\d+)$/.exec(key ?? '')?.[1]);
    expect(turn, 'halfway down').to.be.within(1000, 16000);
    expect(r.current, 'its position in transcript order').to.equal(turn);
    expect(seen.own.at(-1)).to.deep.equal(r);

    // "zebra" is only far above the view (wrapping around): the search wraps around to it, again before the count is done.
    events.length = 0;
    r = await t.find('zebra');
    seen = firstAndDone(events, 'zebra');
    expect(seen.first).to.be.greaterThan(-1);
    expect(seen.first, 'the wrapped-to match is reported before the count is done').to.be.lessThan(seen.done);
    expect(seen.own[seen.first]).to.deep.include({ current: 1, searching: true });
    expect(seen.own[seen.first]!.total).to.be.lessThan(5);
    expect(r).to.deep.equal({ query: 'zebra', current: 1, total: 5, searching: false });
    await until(() => activeRow(t) === 'm:agent:sa3', 'the first match on screen');

    const walk: [number, string][] = [];
    for (let i = 0; i < 5; i++) {
      r = await t.findNext();
      walk.push([r.current, activeRow(t) ?? '']);
    }
    expect(walk, 'next walks in transcript order and wraps').to.deep.equal([
      [2, 'm:agent:sa3'],
      [3, 't:sc100'],
      [4, 'plan:200'],
      [5, 'm:thought:st300'],
      [1, 'm:agent:sa3'],
    ]);
    r = await t.findPrevious();
    expect([r.current, activeRow(t)], 'previous wraps to the last').to.deep.equal([5, 'm:thought:st300']);
    r = await t.findPrevious();
    expect([r.current, activeRow(t)]).to.deep.equal([4, 'plan:200']);
  });

  it('a row streamed after its text was read is found with its new text', async () => {
    const t = document.createElement('silo-transcript');
    t.updates = [...findJournal(340), userPrompt('Last question', 'su-last'), chunk('First words.', 'live')];
    cleanup = mount(t, 500);
    await t.updateComplete;
    await settle(log(t));
    const events: SiloFindResult[] = [];
    t.addEventListener('silo-find', (e) => events.push(e.detail));

    // Every row's text is read (and kept) by these.
    expect((await t.find('first words')).total).to.equal(1);
    expect((await t.find('giraffe')).total).to.equal(0);

    // The live answer streams on: the find running follows, and a new find reads the new text.
    t.appendUpdates([chunk(' Then a giraffe.', 'live')]);
    await until(() => events.at(-1)?.total === 1, 'the running find counts the streamed text');
    expect(events.at(-1)).to.deep.include({ query: 'giraffe', total: 1, searching: false });
    expect(await t.find('first words')).to.deep.include({ current: 1, total: 1 });
    const r = await t.find('giraffe');
    expect(r).to.deep.equal({ query: 'giraffe', current: 1, total: 1, searching: false });
    await until(() => activeRow(t) === 'm:agent:live', 'the streamed row is the current match');
    expect((await t.find('then a giraffe')).total).to.equal(1);
  });
});
