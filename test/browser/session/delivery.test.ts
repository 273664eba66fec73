import { expect } from 'chai';
import type { AgentSessionSnapshot, AgentSessionUpdate } from '../../../src/types.ts';
import type { WorkerEvents } from '../../../src/worker-api.ts';
import { Delivery } from '../../../worker/delivery.ts';
import { until } from '../../support/until.ts';

// The worker's delivery scheduler on its own: what reaches the page, in which messages, and whether
// before any timer could run. The clock is the test's, so "within one window" holds however slow the
// machine is; "before any timer" is checked by looking only after microtasks, never after a timer.

const SNAPSHOT = { snapshot: { sessionId: 'delivery-test' } as AgentSessionSnapshot, revision: 1 };
const update = (seq: number): AgentSessionUpdate => ({
  kind: 'agent_message_chunk',
  seq,
  text: `${seq} `,
  raw: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${seq} ` } },
});

function recorder() {
  const calls: string[] = [];
  const sent: number[][] = [];
  const events: WorkerEvents = {
    updates: (batch) => {
      sent.push(batch.map((u) => u.seq!));
      calls.push(`updates ${batch.map((u) => u.seq).join(',')}`);
    },
    state: () => void calls.push('state'),
    permission: (r) => void calls.push(`permission ${r.id}`),
    elicitation: (r) => void calls.push(`elicitation ${r.id}`),
    requestEnded: (id) => void calls.push(`ended ${id}`),
  };
  return { calls, sent, events };
}

/** Lets queued promise callbacks run, and nothing else (no timer can fire meanwhile). */
async function microtasks(): Promise<void> {
  for (let i = 0; i < 50; i++) await Promise.resolve();
}

describe('delivery to the page', () => {
  it('a sparse stream (100 updates/s) reaches the page as each commit lands, one message each, no timer', async () => {
    const { sent, events } = recorder();
    let now = 1000;
    const delivery = new Delivery(
      events,
      () => SNAPSHOT,
      () => now,
    );
    for (let seq = 0; seq < 20; seq++) {
      delivery.push([update(seq)]);
      await microtasks();
      expect(sent.at(-1), `update ${seq} sent without waiting`).to.deep.equal([seq]);
      now += 10;
    }
    expect(sent).to.have.length(20);
  });

  it('does not wait for the page to answer one message before sending the next; flush waits for the answers', async () => {
    const sent: number[][] = [];
    const replies: (() => void)[] = [];
    const { events: base } = recorder();
    // A busy page: it receives each message but answers only when the test lets it.
    const events: WorkerEvents = {
      ...base,
      updates: (batch) => {
        sent.push(batch.map((u) => u.seq!));
        return new Promise<void>((resolve) => replies.push(resolve)) as never;
      },
    };
    let now = 1000;
    const delivery = new Delivery(
      events,
      () => SNAPSHOT,
      () => now,
    );
    for (let seq = 0; seq < 3; seq++) {
      delivery.push([update(seq)]);
      await microtasks();
      now += 10;
    }
    expect(sent, 'every update sent while no answer came').to.deep.equal([[0], [1], [2]]);
    let flushed = false;
    const flush = delivery.flush().then(() => {
      flushed = true;
    });
    await microtasks();
    expect(flushed, 'flush waits for the answers').to.equal(false);
    for (const reply of replies) reply();
    await flush;
    expect(flushed).to.equal(true);
  });

  it('a flood is batched: three messages go out at once in a window, the rest wait together for it', async () => {
    const { sent, events } = recorder();
    const delivery = new Delivery(
      events,
      () => SNAPSHOT,
      () => 1000,
    );
    for (let seq = 0; seq < 10; seq++) delivery.push([update(seq)]);
    await microtasks();
    expect(sent).to.deep.equal([[0], [1], [2]]);
    await until(() => sent.length === 4, 'the batched rest is sent once the window has room');
    expect(sent).to.deep.equal([[0], [1], [2], [3, 4, 5, 6, 7, 8, 9]]);
  });

  it('state and permission requests come after the updates committed before them, in order', async () => {
    const { calls, events } = recorder();
    const delivery = new Delivery(
      events,
      () => SNAPSHOT,
      () => 1000,
    );
    for (let seq = 0; seq < 5; seq++) delivery.push([update(seq)]);
    delivery.permission({ id: 'p1' } as Parameters<WorkerEvents['permission']>[0]);
    delivery.push([update(5)]);
    await delivery.state();
    expect(calls).to.deep.equal([
      'updates 0',
      'updates 1',
      'updates 2',
      'updates 3,4',
      'permission p1',
      'updates 5',
      'state',
    ]);
  });
});
