// A transcript's first rows come before the idle load of <silo-elicitation>: the components entry's
// idle load (components/elicitation/silo-elicitation.chunk.ts) waits until a transcript connected
// by then has drawn its rows with the rows and Markdown chunks in (transcript/first-rows.controller.ts),
// so that load does not compete with them. The transcript is connected here as the module runs,
// before the page can be idle, and with nothing of the chunks loaded yet (a fresh page).
import '../../../components/index.ts';
import { expect } from 'chai';
import { afterFirstRows } from '../../../components/shared/first-rows.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import type { AgentSessionUpdate } from '../../../src/types.ts';
import { until } from '../../support/until.ts';

function update(kind: 'user_message_chunk' | 'agent_message_chunk', seq: number, text: string) {
  const content = { type: 'text' as const, text };
  const messageId = `first-rows-${seq}`;
  return { kind, seq, messageId, text, content, raw: { sessionUpdate: kind, messageId, content } };
}

const transcript = document.createElement('silo-transcript') as SiloTranscript;
transcript.style.cssText = 'display: block; width: 640px; height: 480px';
transcript.updates = [
  update('user_message_chunk', 0, 'What changed?'),
  update('agent_message_chunk', 1, 'The **journal** keeps every update.'),
] satisfies AgentSessionUpdate[];
document.body.append(transcript);

/** The first agent message drawn as Markdown. */
function drawn(): Element | null | undefined {
  const agent = transcript.shadowRoot?.querySelector('[part~="message-agent"]');
  return agent?.querySelector('strong') ?? agent?.shadowRoot?.querySelector('strong');
}

// Asked as the module runs, with the transcript connected: settles once its first rows are drawn.
const firstRows = afterFirstRows().then(() => !!drawn());

describe('<silo-transcript> first rows and the idle load of <silo-elicitation>', () => {
  it('holds the first-rows registry until its first agent message is drawn with the chunks in', async () => {
    expect(await firstRows, 'drawn when the hold was released').to.equal(true);
  });

  it('the first agent message is drawn before <silo-elicitation> loads at idle', async () => {
    let drawnFirst: boolean | undefined;
    void customElements.whenDefined('silo-elicitation').then(() => (drawnFirst ??= !!drawn()));
    await until(() => drawnFirst !== undefined, '<silo-elicitation> defined at idle (no question row)');
    expect(drawnFirst, 'the first message was drawn when <silo-elicitation> arrived').to.equal(true);
    expect(drawn()).to.not.equal(null);
  });
});
