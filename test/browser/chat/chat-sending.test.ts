// Sending and editing in <silo-chat> (issue 28 §3), against the real bridge and reference agent, by
// keyboard: sending from anywhere brings the user's own message into view; a message typed while the
// chat connects is queued and sent once connected; Edit last restores the text and its files; Retry
// sends the last prompt again with its files, and Continue follows a turn that hit the token limit.
import { sendKeys } from '@web/test-runner-commands';
import { expect } from 'chai';
import '../../../components/index.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import { bridgeLog, killBridgeAgents, startBridge, stopBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import { chips, drop, PIXEL, paste, pngFile, receivedBlocks, textFile } from '../fixtures/attachments.ts';
import {
  chatSuite,
  connected,
  input,
  part,
  sendAndWait,
  state,
  transcript,
  turnEnds,
  typeAndEnter,
  userMessages,
} from '../fixtures/chat.ts';

/** An element of the chat's transcript (its first match), or null. */
const inTranscript = (chat: SiloChat, selector: string) =>
  transcript(chat).shadowRoot!.querySelector<HTMLElement>(selector);
/**
 * The action `part` of the last turn's end as drawn (null until that row is drawn with it). A turn
 * can end before the transcript's next frame, so an earlier turn's end may still show its actions.
 */
const lastEndAction = (chat: SiloChat, part: string) => {
  const key = turnEnds(chat).at(-1)?.key;
  return key ? inTranscript(chat, `[data-key="${CSS.escape(key)}"] [part~="${part}"]`) : null;
};
/** The transcript's log element. */
const log = (chat: SiloChat) => inTranscript(chat, '[part~="log"]')!;
/** Whether "Jump to latest" shows. */
const jumpShown = (chat: SiloChat) => !inTranscript(chat, '[part~="jump"]')!.hidden;

/** The user message row holding `text`, when it is drawn inside the log's view. */
function inView(chat: SiloChat, text: string): HTMLElement | undefined {
  const view = log(chat).getBoundingClientRect();
  return Array.from(
    transcript(chat).shadowRoot!.querySelectorAll<HTMLElement>('[part~="message-user"]'),
  ).find((row) => {
    const r = row.getBoundingClientRect();
    return row.textContent!.includes(text) && r.bottom > view.top && r.top < view.bottom;
  });
}

describe('<silo-chat> sending and editing (issue 28 §3)', function () {
  this.timeout(90000);
  const chats = chatSuite('silo-sending');

  it('sending while scrolled up brings the user’s own message into view', async () => {
    const chat = chats.create();
    chats.mount(chat, 420);
    await connected(chat);
    await sendAndWait(chat, '/scenario markdown');
    await sendAndWait(chat, '/scenario markdown');
    // Read back, once the log holds still at its end: Home goes to the first row and lets go of the bottom.
    let height = -1;
    let still = 0;
    await until(() => {
      const h = log(chat).scrollHeight;
      still = h === height ? still + 1 : 0;
      height = h;
      return still >= 5 && !jumpShown(chat);
    }, 'the log settled at its end');
    log(chat).focus();
    await sendKeys({ press: 'Home' });
    await until(() => jumpShown(chat), '"Jump to latest" shown once scrolled up');
    expect(inView(chat, 'look at me'), 'not there yet').to.equal(undefined);
    await typeAndEnter(chat, 'look at me');
    await until(() => inView(chat, 'look at me'), 'the message just sent in view', 20000);
    await until(() => turnEnds(chat).length === 3, 'its turn ended', 20000);
    await until(() => !jumpShown(chat), 'following the bottom again');
  });

  it('a message typed while the chat connects is queued, shown, cancellable, and sent once connected', async () => {
    // The agent answers initialize only when told (SIGUSR2): the chat stays "connecting" meanwhile.
    const held = await startBridge({ agentArgs: ['--hold-init'] });
    try {
      const chat = chats.create(held);
      chats.mount(chat, 500);
      await until(() => state(chat) === 'connecting', 'the chat connecting');
      // The agent's stderr line says it holds initialize (its signal listener is in place).
      for (let lines = await bridgeLog(held.id); !lines.some((l) => l.includes('holding initialize')); )
        lines = await bridgeLog(held.id);
      await typeAndEnter(chat, 'sent once connected');
      const queued = await until(() => part(chat, 'queued'), 'the message queued');
      expect(queued.querySelector('.label')!.textContent).to.equal('Sent once connected:');
      expect(queued.querySelector('.text')!.textContent).to.equal('sent once connected');
      expect(input(chat).value, 'the composer is free again').to.equal('');
      expect(part(chat, 'note') === null, 'no "not sent" note').to.equal(true);
      // Cancel puts it back; Enter queues it again.
      (part(chat, 'unqueue') as HTMLButtonElement).click();
      await until(() => input(chat).value === 'sent once connected', 'back in the composer');
      input(chat).focus();
      await sendKeys({ press: 'Enter' });
      await until(() => part(chat, 'queued'), 'queued again');
      expect(state(chat)).to.equal('connecting');
      await killBridgeAgents(held.id, 'SIGUSR2');
      await until(
        () => userMessages(chat).includes('sent once connected'),
        'sent by itself once connected',
        20000,
      );
      await until(() => turnEnds(chat).length === 1, 'its turn ended', 20000);
      expect(part(chat, 'queued') === null, 'nothing queued').to.equal(true);
    } finally {
      chats.unmount();
      await stopBridge(held.id);
    }
  });

  it('Edit last puts back the text and the files; Retry sends the same prompt and files again', async () => {
    const chat = chats.create();
    chats.mount(chat, 700);
    await connected(chat);
    paste(chat, [pngFile()]);
    drop(chat, [textFile()]);
    await until(() => chips(chat).length === 2, 'two chips');
    await sendAndWait(chat, '/scenario prompt-blocks');
    const sent = [
      { type: 'text', text: '/scenario prompt-blocks' },
      { type: 'image', mimeType: 'image/png', data: PIXEL, uri: 'attachment:///pixel.png' },
      {
        type: 'resource',
        resource: { uri: 'attachment:///notes.txt', mimeType: 'text/plain', text: 'hello\nworld' },
      },
    ];
    expect(receivedBlocks(chat)).to.deep.equal(sent);
    expect(chips(chat)).to.have.length(0);
    // ↑ in the empty composer: the text and both files come back.
    input(chat).focus();
    await sendKeys({ press: 'ArrowUp' });
    await until(() => chips(chat).length === 2, 'the files back as chips');
    expect(input(chat).value).to.equal('/scenario prompt-blocks');
    expect(chips(chat).map((c) => c.querySelector('.name')!.textContent)).to.deep.equal([
      'pixel.png',
      'notes.txt',
    ]);
    await sendKeys({ press: 'Enter' });
    await until(() => turnEnds(chat).length === 2, 'sent again from the composer', 20000);
    expect(receivedBlocks(chat)).to.deep.equal(sent);
    // Retry on the last turn's end: a new turn with the same prompt and files.
    const retry = await until(() => lastEndAction(chat, 'turn-retry'), 'Retry offered');
    expect(inTranscript(chat, '[part~="turn-continue"]') === null, 'no Continue after end_turn').to.equal(
      true,
    );
    retry.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => turnEnds(chat).length === 3, 'the retried turn ended', 20000);
    expect(userMessages(chat)).to.have.length(3);
    expect(receivedBlocks(chat)).to.deep.equal(sent);
  });

  it('a turn that stopped at the token limit offers Continue, which asks the agent to go on', async () => {
    const chat = chats.create();
    chats.mount(chat, 600);
    await connected(chat);
    await sendAndWait(chat, '/scenario max-tokens');
    const go = await until(() => lastEndAction(chat, 'turn-continue'), 'Continue offered');
    expect(go.textContent!.trim()).to.equal('Continue');
    expect(inTranscript(chat, '[part~="turn-retry"]') !== null, 'Retry too').to.equal(true);
    go.click();
    await until(() => turnEnds(chat).length === 2, 'the continued turn ended', 20000);
    expect(userMessages(chat)).to.deep.equal(['/scenario max-tokens', 'Continue']);
    // Only the last turn's end offers them, and not while a turn runs.
    await until(() => lastEndAction(chat, 'turn-retry'), 'Retry on the new last turn');
    expect(inTranscript(chat, '[part~="turn-continue"]') === null, 'no Continue after end_turn').to.equal(
      true,
    );
    expect(transcript(chat).shadowRoot!.querySelectorAll('[part~="turn-retry"]')).to.have.length(1);
  });
});
