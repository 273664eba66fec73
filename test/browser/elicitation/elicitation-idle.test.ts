// The components entry loads <silo-elicitation> once the page is idle, with no call, so a page that
// writes the element itself gets it (components/elicitation/silo-elicitation.chunk.ts); this page holds
// no transcript, so nothing holds that load back. And the shared first-rows registry
// (components/shared/first-rows.ts): idle work waits for the loads a transcript's first rows hold.
import '../../../components/index.ts';
import { expect } from 'chai';
import {
  afterFirstRows,
  holdForFirstRows,
  whenIdleAfterFirstRows,
} from '../../../components/shared/first-rows.ts';
import { until } from '../../support/until.ts';

/** One idle callback of the page. */
const idle = () => new Promise<void>((r) => requestIdleCallback(() => r()));

describe('<silo-elicitation> at idle', () => {
  it('is defined once the page is idle, without a call, in a page with no transcript', async () => {
    const el = document.createElement('silo-elicitation');
    document.body.append(el);
    await until(() => customElements.get('silo-elicitation'), '<silo-elicitation> defined at idle');
    await until(() => el.shadowRoot, 'the element written by the page upgraded');
    el.remove();
  });

  it('idle work waits for the held first rows, then for an idle callback', async () => {
    let release!: () => void;
    holdForFirstRows(new Promise<void>((r) => (release = r)));
    let ran = 0;
    whenIdleAfterFirstRows(() => ran++);
    await idle();
    await idle();
    expect(ran, 'held: not run at idle').to.equal(0);
    release();
    await afterFirstRows();
    await until(() => ran === 1, 'run at idle once the hold is released');
  });

  it('a failed first-rows load releases its hold as a success does', async () => {
    holdForFirstRows(Promise.reject(new Error('network')));
    let ran = 0;
    whenIdleAfterFirstRows(() => ran++);
    await until(() => ran === 1, 'run at idle after the failed load');
  });
});
