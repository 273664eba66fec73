// A permission prompt answered by real key presses, in <silo-chat>, against the real bridge and the
// reference agent (its `permission` scenario offers allow once, always allow, reject and always
// reject, and answers `Permission: <optionId>`): Y allows once, N rejects once, Escape answers nothing
// and moves focus to the reject option so that Enter rejects. The agent's own reply is what is checked.
import { sendKeys } from '@web/test-runner-commands';
import { expect } from 'chai';
import '../../../components/index.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import { until } from '../../support/until.ts';
import { chatSuite, connected, transcript, turnEnds, typeAndEnter } from '../fixtures/chat.ts';

/** The innermost focused element, through shadow roots. */
function deepActive(): Element | null {
  let a: Element | null = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a;
}

/** The text of the agent's last message. */
function lastAgentText(chat: SiloChat): string {
  const rows = transcript(chat).model.rows.filter((r) => r.type === 'message' && r.role === 'agent');
  return (rows.at(-1) as { text?: string } | undefined)?.text ?? '';
}

describe('<silo-chat> permission prompt keys (real bridge, reference agent)', function () {
  this.timeout(60000);
  const chats = chatSuite('silo-perm-keys');

  /**
   * The prompt `id` as the transcript draws it now: its row may be redrawn (the log renders its items
   * anew, a card takes the permission in), so a test holds the id, never the element.
   */
  const promptEl = (chat: SiloChat, id: string) =>
    transcript(chat).shadowRoot!.querySelector<HTMLElement>(`[data-prompt="${CSS.escape(id)}"]`);

  /** Starts the agent's permission scenario; resolves to the live prompt's id once it has focus. */
  async function ask(chat: SiloChat): Promise<string> {
    await typeAndEnter(chat, '/scenario permission');
    const t = transcript(chat);
    const id = await until(
      () => t.shadowRoot!.querySelector<HTMLElement>('[data-prompt][data-pending]')?.dataset.prompt,
      'a live permission prompt',
    );
    await until(() => {
      const active = deepActive();
      return active !== null && active === promptEl(chat, id);
    }, 'focus on the prompt');
    return id;
  }

  /** What the transcript shows was answered for the prompt `id` (the row may have been redrawn). */
  const resolution = (chat: SiloChat, id: string) =>
    promptEl(chat, id)?.querySelector('[part="permission-resolution"]')?.textContent?.trim();

  /** Waits for the turn to end and returns what the agent says it was answered. */
  async function answered(chat: SiloChat, turns: number): Promise<string> {
    await until(() => turnEnds(chat).length === turns, `turn ${turns} ended`, 20000);
    return lastAgentText(chat);
  }

  it('Y allows once, N rejects once, Escape then Enter rejects once', async () => {
    const chat = chats.create();
    chats.mount(chat, 700);
    await connected(chat);

    const allowPrompt = await ask(chat);
    await sendKeys({ press: 'y' });
    expect(await answered(chat, 1)).to.equal('Permission: allow-once');
    await until(
      () => resolution(chat, allowPrompt) === 'Answered: Allow once',
      'the answer shown: Allow once',
    );

    const rejectPrompt = await ask(chat);
    await sendKeys({ press: 'n' });
    expect(await answered(chat, 2)).to.equal('Permission: reject-once');
    await until(() => resolution(chat, rejectPrompt) === 'Answered: Reject', 'the answer shown: Reject');

    const escapePrompt = await ask(chat);
    await sendKeys({ press: 'Escape' });
    const reject = await until(
      () => (deepActive()?.matches('button[data-kind="reject_once"]') ? deepActive() : null),
      'Escape moved focus to the reject option',
    );
    expect(reject.closest<HTMLElement>('[data-prompt]')?.dataset.prompt).to.equal(escapePrompt);
    // Escape answered nothing: the prompt is still live and the turn still waits.
    expect(
      promptEl(chat, escapePrompt)?.hasAttribute('data-pending'),
      'still waiting for an answer',
    ).to.equal(true);
    expect(turnEnds(chat)).to.have.length(2);
    await sendKeys({ press: 'Enter' });
    expect(await answered(chat, 3)).to.equal('Permission: reject-once');
  });
});
