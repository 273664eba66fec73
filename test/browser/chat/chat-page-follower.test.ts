// Two <silo-chat> in one page on one session (issue 28 §5's follow-up): each starts its own service
// (its own worker), so the second follows the first as a second tab would — but it is not in another
// tab, and its banner must not say so. A chat swapped for another on the same cwd while the agent is
// still closing the session is not a follower at all: the new one drives it. Against the real bridge
// and reference agent.
import { expect } from 'chai';
import '../../../components/index.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import { startBridge, stopBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import { chatSuite, connected, input, part, sendAndWait, state, typeAndEnter } from '../fixtures/chat.ts';
import { mount } from '../fixtures/dom.ts';

const text = (chat: SiloChat, name: string) =>
  part(chat, name)?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const bannerText = (chat: SiloChat) => text(chat, 'banner');

describe('<silo-chat> following another chat of its own page', function () {
  this.timeout(90_000);
  const chats = chatSuite('silo-page-follower');
  let unmountSecond: (() => void) | undefined;
  afterEach(() => {
    unmountSecond?.();
    unmountSecond = undefined;
  });

  it('says the chat that drives is on this page, not in another tab, in the banner and the composer; says so when it goes', async () => {
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

    // Enter in the follower: not sent, and the note names the chat of this page that drives.
    await typeAndEnter(second, 'from the second chat');
    await until(() => part(second, 'note'), 'the note says why it was not sent');
    expect(text(second, 'note')).to.include(
      'Not sent: another chat on this page is driving this conversation. Your message is kept',
    );
    expect(text(second, 'note')).not.to.include('tab');
    expect(input(second).value).to.equal('from the second chat', 'kept');
    expect(text(second, 'remedy')).to.equal('Take over and send');

    // The driving chat goes: the follower says that chat stopped driving (no tab closed), and still
    // offers Take over, in the banner and in the composer's note.
    chats.unmount();
    await until(
      () => bannerText(second).includes('The other chat on this page stopped driving this conversation.'),
      'the driving chat is gone',
    );
    expect(bannerText(second)).not.to.include('tab');
    expect(part(second, 'take-over')?.textContent?.trim()).to.equal('Take over');
    await until(
      () =>
        text(second, 'note').includes(
          'Not sent: the other chat on this page stopped driving this conversation.',
        ),
      'the note says the driving chat is gone',
    );
    expect(text(second, 'note')).not.to.include('tab');
    expect(text(second, 'remedy')).to.equal('Take over and send');
  });

  it('a chat swapped for another on its cwd while the agent still closes the session: the new one drives it', async () => {
    // The agent answers session/close 1.5 s late, so the first chat's worker holds the session's lock
    // (and answers the new worker as its owner) while the second chat connects.
    const slow = await startBridge({ agentArgs: ['--close-delay-ms', '1500'] });
    try {
      const cwd = `/tmp/silo-page-swap-${crypto.randomUUID()}`;
      const key = `silo-page-swap-${crypto.randomUUID()}`;
      const first = chats.create(slow, cwd, key);
      chats.mount(first, 400);
      await connected(first);
      await sendAndWait(first, 'before the swap');
      const sessionId = first.session!.sessionId;
      chats.unmount();
      const second = chats.create(slow, cwd, key);
      unmountSecond = mount(second, 400);
      await until(
        () => second.session && (state(second) === 'connected' || state(second) === 'following'),
        'the second chat opened its session',
      );
      expect(second.session!.sessionId).to.equal(sessionId);
      expect(state(second)).to.equal('connected');
      expect(second.session!.role).to.equal('driver');
      expect(part(second, 'take-over')).to.equal(null, 'no Take over');
      await sendAndWait(second, 'after the swap');
    } finally {
      unmountSecond?.();
      unmountSecond = undefined;
      await stopBridge(slow.id);
    }
  });
});
