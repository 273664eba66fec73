// Export and import: JSONL is lossless and replays with no agent; Markdown is readable.
import { expect } from 'chai';
import '../../../components/index.ts';
import { parseJsonl, toJsonl, toMarkdown } from '../../../src/export.ts';
import {
  type AgentSessionUpdate,
  type AgentsService,
  createAgentsService,
  TranscriptModel,
} from '../../../src/index.ts';
import { until } from '../../support/until.ts';
import { collectRows, mount } from '../fixtures/dom.ts';
import { journalFromTraffic, recordedTraffic } from '../fixtures/transcript-data.ts';

describe('transcript export and import', () => {
  it('JSONL round-trips every update exactly, and rejects a bad line by number', async () => {
    const journal = journalFromTraffic(await recordedTraffic('main'));
    const text = toJsonl(journal);
    expect(text.split('\n').filter(Boolean)).to.have.length(journal.length);
    expect(parseJsonl(text)).to.deep.equal(journal);
    expect(parseJsonl(`\n${text}\r\n\n`)).to.deep.equal(journal);
    expect(() => parseJsonl('{"kind":"a","raw":{}}\n[1]\n'))
      .to.throw(/Line 2/)
      .with.property('code', 'invalid-params');
    expect(() => parseJsonl('{"kind":"a"}\n{oops\n')).to.throw(/Line 2/);
  });

  it('Markdown has the prompts, answers, tool calls with diffs, plan, outcomes and usage', async () => {
    const md = toMarkdown(journalFromTraffic(await recordedTraffic('main')));
    expect(md).to.match(/^# /);
    expect(md).to.include('## You');
    expect(md).to.include('SCENARIO:plan');
    expect(md).to.include('**Agent:**');
    expect(md).to.include('Write hello.txt — completed');
    expect(md).to.include('New file `/home/dev/project/hello.txt`');
    expect(md).to.include('```diff\n+Hello from a scripted mock model!');
    expect(md).to.include('- [x] Create hello.txt with a greeting');
    expect(md).to.include('**Permission:**');
    expect(md).to.include('_Turn ended: cancelled._');
    expect(md).to.include('cost 0.00');
  });

  it('imports a JSONL export into the journal and renders it offline, with no agent', async () => {
    const journal = journalFromTraffic(await recordedTraffic('main'));
    const service = createAgentsService({ databaseName: `silo-import-${crypto.randomUUID()}` });
    try {
      const id = await service.importJsonl(toJsonl(journal));
      const back = await service.transcript(id);
      expect(back.map(({ seq: _s, ...u }) => u)).to.deep.equal(journal.map(({ seq: _s, ...u }) => u));
      expect(parseJsonl(await service.exportJsonl(id)).length).to.equal(journal.length);
      const el = document.createElement('silo-transcript');
      el.service = service;
      el.sessionId = id;
      const cleanup = mount(el);
      await el.updateComplete;
      await until(
        () => el.model.rows.length > 0,
        `rows loaded (${el.shadowRoot!.querySelector('[part="empty"]')?.textContent})`,
      );
      const rows = await collectRows(el.shadowRoot!);
      const log = el.shadowRoot!.querySelector<HTMLElement>('[part="log"]')!;
      expect(
        rows.length,
        `every row rendered (log ${log.clientHeight}px, ${log.children.length} children, ${log.scrollHeight})`,
      ).to.equal(el.model.rows.length);
      expect(rows.filter((r) => r.getAttribute('part')!.includes('turn-end'))).to.have.length(5);
      expect(rows.filter((r) => r.getAttribute('part')!.includes('tool'))).to.have.length(5);
      cleanup();
    } finally {
      await service.dispose();
    }
  });

  it('reopens a long journal at its end: the tail is painted before the whole journal is read', async () => {
    const service = createAgentsService({ databaseName: `silo-reopen-${crypto.randomUUID()}` });
    const updates: AgentSessionUpdate[] = [];
    for (let turn = 0; turn < 300; turn++) {
      const text = `question ${turn}`;
      updates.push({
        kind: 'user_message_chunk',
        text,
        content: { type: 'text', text },
        messageId: `u${turn}`,
        raw: {},
      });
      for (let i = 0; i < 8; i++) {
        const chunk = `answer ${turn} part ${i}. `;
        updates.push({
          kind: 'agent_message_chunk',
          text: chunk,
          content: { type: 'text', text: chunk },
          messageId: `a${turn}`,
          raw: {},
        });
      }
      updates.push({ kind: 'turn_end', turnEnd: { stopReason: 'end_turn' }, raw: {} });
    }
    try {
      const id = await service.importJsonl(toJsonl(updates));
      const calls: string[] = [];
      // The real service, with its reads logged in order.
      const logged: AgentsService = {
        ...service,
        transcriptTail: (sid, n) => {
          calls.push('tail');
          return service.transcriptTail(sid, n);
        },
        transcript: (sid) => {
          calls.push('all');
          return service.transcript(sid);
        },
      };
      const el = document.createElement('silo-transcript');
      el.service = logged;
      el.sessionId = id;
      const cleanup = mount(el);
      await el.updateComplete;
      expect(calls).to.deep.equal(['tail', 'all'], 'the tail is read first');
      const full = new TranscriptModel();
      full.applyAll(await service.transcript(id));
      expect(el.model.rows.length).to.equal(full.rows.length, 'then every row is there');
      await until(
        () =>
          [...el.shadowRoot!.querySelectorAll('[part~="message"]')].some((m) =>
            m.textContent?.includes('answer 299 part 7'),
          ),
        'the last answer is on screen',
      );
      expect(el.shadowRoot!.querySelectorAll('*').length).to.be.lessThan(2000, 'a bounded DOM');
      cleanup();
    } finally {
      await service.dispose();
    }
  });
});
