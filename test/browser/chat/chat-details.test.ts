// The details of daily use in <silo-chat> (issue 28 §5), against the real bridge and reference agent:
// each turn's duration and tokens beside its end and how long a thought lasted, live and from the
// journal after a reload.
import { expect } from 'chai';
import '../../../components/index.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import { chatSuite, connected, sendAndWait, transcript } from '../fixtures/chat.ts';

describe('<silo-chat> details of daily use (issue 28 §5)', function () {
  this.timeout(90000);
  const chats = chatSuite('silo-details');
  let metered: TestBridge;
  before(async () => {
    // Token counts in every prompt response (as Gemini CLI reports them).
    metered = await startBridge({ agentArgs: ['--usage-in-meta'] });
  });
  after(async () => {
    await stopBridge(metered.id);
  });

  it('each turn shows its duration and tokens beside "Done"; a thought, how long the agent thought', async () => {
    const cwd = `/tmp/silo-details-${crypto.randomUUID()}`;
    const key = `silo-details-${crypto.randomUUID()}`;
    const read = async () => {
      const chat = chats.create(metered, cwd, key);
      chats.mount(chat, 600);
      await connected(chat);
      return chat;
    };
    let chat = await read();
    await sendAndWait(chat, 'how long does this take');
    const root = () => transcript(chat).shadowRoot!;
    const shown = () => {
      const end = root().querySelector('[part~="turn-end"]');
      return {
        done: end?.querySelector('span')?.textContent,
        duration: end?.querySelector('[part~="turn-duration"]')?.textContent ?? '',
        tokens: end?.querySelector('[part~="turn-tokens"]')?.textContent ?? '',
        thought: root().querySelector('[part~="thought"] summary')?.textContent?.trim() ?? '',
      };
    };
    const expectTimes = (what: string) => {
      const s = shown();
      expect(s.done, what).to.equal('Done');
      expect(s.duration, `${what}: the turn's duration`).to.match(/^\d+(\.\d)? sec$/);
      expect(s.tokens, `${what}: its tokens`).to.match(/^[\d,]+ tokens/);
      expect(s.thought, `${what}: the thought's duration`).to.match(/^Thought for \d+(\.\d)? sec$/);
    };
    await until(() => shown().duration, 'the duration drawn');
    expectTimes('live');
    const model = transcript(chat).model.rows;
    const end = model.find((r) => r.type === 'turn-end') as { durationMs?: number };
    const thought = model.find((r) => r.type === 'message' && r.role === 'thought') as {
      durationMs?: number;
    };
    expect(end.durationMs).to.be.a('number').and.at.least(0);
    expect(thought.durationMs).to.be.a('number').and.at.most(end.durationMs!);
    // From the journal, after a reload: the same times.
    chats.unmount();
    chat = await read();
    await until(() => shown().duration, 'the restored turn drawn');
    expectTimes('restored');
  });
});
