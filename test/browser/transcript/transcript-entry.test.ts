// The transcript entry (`silo-acp/components/transcript`, components/transcript.ts) in a page of its
// own: it registers `<silo-transcript>` and not `<silo-chat>`, the transcript draws an agent message
// as Markdown with it alone, and the components entry imported afterwards adds the chat while the
// transcript keeps the one class both entries share. No chunk is loaded here beforehand (the mount
// fixture, not the DOM one): the entry itself starts the Markdown and rows chunks.
import { expect } from 'chai';
import { SiloTranscript } from '../../../components/transcript.ts';
import { until } from '../../support/until.ts';
import { mount } from '../fixtures/mount.ts';
import { chunk, userPrompt } from '../fixtures/transcript-data.ts';

describe('the transcript entry', () => {
  it('registers <silo-transcript> alone, and it draws Markdown', async () => {
    // Compared as booleans: a failing comparison of element classes would have the runner serialize them.
    expect(customElements.get('silo-transcript') === SiloTranscript, 'the transcript registered').to.equal(
      true,
    );
    expect(customElements.get('silo-chat') === undefined, 'no chat in the transcript entry').to.equal(true);
    const el = document.createElement('silo-transcript');
    el.style.cssText = 'display: block; width: 600px; height: 400px';
    el.updates = [userPrompt('What changed?'), chunk('The **journal** keeps\n\n- every update', 'a1')];
    const cleanup = mount(el);
    try {
      const strong = await until(() => {
        const agent = el.shadowRoot?.querySelector('[part~="message-agent"]');
        return agent?.querySelector('strong') ?? agent?.shadowRoot?.querySelector('strong') ?? undefined;
      }, 'the agent message drawn as Markdown');
      expect(strong.textContent).to.equal('journal');
    } finally {
      cleanup();
    }
  });

  it('beside the components entry: the chat is added, the transcript class stays the one', async () => {
    const components = await import('../../../components/index.ts');
    expect(customElements.get('silo-chat') === components.SiloChat, 'the chat registered').to.equal(true);
    expect(components.SiloTranscript === SiloTranscript, 'one transcript class').to.equal(true);
    expect(customElements.get('silo-transcript') === SiloTranscript, 'still registered').to.equal(true);
  });
});
