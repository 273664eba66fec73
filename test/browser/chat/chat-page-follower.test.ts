// Two <silo-chat> in one page on one session (issue 28 §5's follow-up): each starts its own service
// (its own worker), so the second follows the first as a second tab would — but it is not in another
// tab, and its banner must not say so. Against the real bridge and reference agent.
import { expect } from 'chai';
import '../../../components/index.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import { until } from '../../support/until.ts';
import { chatSuite, connected, part } from '../fixtures/chat.ts';
import { mount } from '../fixtures/dom.ts';

const bannerText = (chat: SiloChat) => part(chat, 'banner')?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

describe('<silo-chat> following another chat of its own page', function () {
  this.timeout(90_000);
  const chats = chatSuite('silo-page-follower');
  let unmountSecond: (() => void) | undefined;
  afterEach(() => {
    unmountSecond?.();
    unmountSecond = undefined;
  });

  it('says the chat that drives is on this page, not in another tab; says so when it goes', async () => {
    const cwd = `/tmp/silo-page-follower-${crypto.randomUUID()}`;
    const key = `silo-page-follower-${crypto.randomUUID()}`;
    const first = chats.create(undefined, cwd, key);
    chats.mount(first, 400);
    await connected(first);
    const second = chats.create(undefined, cwd, key);
    unmountSecond = mount(second, 400);
    await connected(second, 'following');
    expect(second.session!.sessionId).to.equal(first.session!.sessionId);

    await until(
      () => bannerText(second).includes('Open in another chat on this page — following live.'),
      'the notice names this page',
    );
    expect(bannerText(second)).not.to.include('another tab');
    expect(part(second, 'banner')!.getAttribute('role')).to.equal('status');
    expect(part(second, 'take-over')?.textContent?.trim()).to.equal('Take over');

    // The driving chat goes: the follower says the driver closed, and still offers Take over.
    chats.unmount();
    await until(() => bannerText(second).includes('closed'), 'the driver is gone');
    expect(part(second, 'take-over')?.textContent?.trim()).to.equal('Take over');
  });
});
