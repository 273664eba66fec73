// One theme and one strings system through every element: a <silo-chat> given custom strings, a
// locale and a theme token shows the question nested in its transcript localized and themed, and
// `::part()` rules written in the page reach parts inside the chat's transcript and its questions.
// Real bridge, reference agent (`/scenario elicit-form`).
import { expect } from 'chai';
import '../../../components/index.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import type { SiloElicitation } from '../../../components/elicitation/silo-elicitation.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import { until } from '../../support/until.ts';
import { chatSuite } from '../fixtures/chat.ts';

describe('one theme and one strings system (<silo-chat> → transcript → question)', function () {
  this.timeout(60000);
  const chats = chatSuite('silo-theme');
  let style: HTMLStyleElement | undefined;

  afterEach(() => {
    style?.remove();
    style = undefined;
  });

  async function chatWithQuestion(setup: (chat: SiloChat) => void): Promise<{
    chat: SiloChat;
    transcript: SiloTranscript;
    question: SiloElicitation;
  }> {
    const chat = chats.create();
    setup(chat);
    chats.mount(chat, 700);
    await until(
      () => chat.shadowRoot!.querySelector('[part="state"]')?.getAttribute('data-state') === 'connected',
      'chat connected',
      20000,
    );
    const ta = chat.shadowRoot!.querySelector('textarea')!;
    ta.value = '/scenario elicit-form';
    ta.dispatchEvent(new Event('input'));
    await chat.updateComplete;
    ta.dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true, composed: true }),
    );
    const transcript = chat.shadowRoot!.querySelector('silo-transcript') as SiloTranscript;
    const question = await until(
      () =>
        Array.from(transcript.shadowRoot!.querySelectorAll('silo-elicitation')).find(
          (q) => q.request && q.shadowRoot?.querySelector('button[part~="answer"]'),
        ),
      'a live question in the chat',
      20000,
    );
    return { chat, transcript, question };
  }

  it('a localized, re-themed chat shows its nested question localized and themed', async () => {
    const { question } = await chatWithQuestion((chat) => {
      chat.locale = 'de-DE';
      chat.strings = {
        transcript: {
          elicitation: { answer: 'Antworten', decline: 'Ablehnen', asks: () => 'Der Agent fragt' },
        },
      };
      chat.style.setProperty('--silo-color-accent', 'rgb(200, 0, 100)');
      chat.style.setProperty('--silo-color-accent-fg', 'rgb(1, 2, 3)');
    });
    const root = question.shadowRoot!;
    const answer = root.querySelector<HTMLButtonElement>('button[part~="answer"]')!;
    const decline = root.querySelector<HTMLButtonElement>('button[part~="decline"]')!;
    expect(answer.textContent!.trim()).to.equal('Antworten');
    expect(decline.textContent!.trim()).to.equal('Ablehnen');
    expect(root.querySelector('.asks')!.textContent!.trim()).to.equal('Der Agent fragt');
    // A string not overridden stays English: the override is merged, not a replacement.
    expect(root.querySelector<HTMLButtonElement>('button[part~="cancel"]')!.textContent!.trim()).to.equal(
      'Cancel',
    );
    expect(question.getAttribute('lang')).to.equal('de-DE');
    const look = getComputedStyle(answer);
    expect(look.backgroundColor).to.equal('rgb(200, 0, 100)');
    expect(look.color).to.equal('rgb(1, 2, 3)');
    await question.request!.decline();
  });

  it('::part() rules in the page reach the transcript’s rows and the question’s parts', async () => {
    style = document.createElement('style');
    style.textContent = `
      silo-chat::part(row) { scroll-margin-top: 7px; }
      silo-chat::part(elicitation-answer) { scroll-margin-top: 9px; }
      silo-chat::part(elicitation-field) { scroll-margin-top: 11px; }
    `;
    document.head.append(style);
    const { transcript } = await chatWithQuestion(() => {});
    // The question is drawn in its row in the log (the live request comes after its row).
    const question = await until(
      () =>
        Array.from(transcript.shadowRoot!.querySelectorAll<SiloElicitation>('.log silo-elicitation')).find(
          (q) => q.request && q.shadowRoot?.querySelector('button[part~="answer"]'),
        ),
      'the question in its row in the log',
    );
    const row = transcript.shadowRoot!.querySelector<HTMLElement>('.log > [part~="row"]')!;
    expect(getComputedStyle(row).scrollMarginTop).to.equal('7px');
    const answer = question.shadowRoot!.querySelector<HTMLElement>('button[part~="answer"]')!;
    expect(getComputedStyle(answer).scrollMarginTop).to.equal('9px');
    const field = question.shadowRoot!.querySelector<HTMLElement>('[part~="field"]')!;
    expect(getComputedStyle(field).scrollMarginTop).to.equal('11px');
    await question.request!.decline();
  });
});
