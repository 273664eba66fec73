// A subagent's work inside its Task card, through the real bridge and the reference agent's
// `/scenario subagent` (claude-agent-acp's exact shapes, agent/scenarios/subagent.ts): in the session
// (stamped with the Task call's id) and as an ACP child session. Folded by default, drawn with the
// row templates (its command's terminal too), nothing of it among the conversation's own rows; the
// same after a restore (a `session/load` into an empty journal replays it: Silo advertises
// `_meta["subagent-transcript"]`), offline from the journal, and from a JSONL export.
import { expect } from 'chai';
import {
  PARENT_TEXT,
  SUBAGENT_OUTPUT,
  SUBAGENT_PROMPT,
  SUBAGENT_REPORT,
  SUBAGENT_TEXT,
  SUBAGENT_THOUGHT,
  SUBAGENT_TITLE,
} from '../../../agent/scenarios/subagent.ts';
import { scenarioPrompt } from '../../../agent/scenarios.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import { parseJsonl } from '../../../src/export.ts';
import { type AgentsService, createAgentsService, type TranscriptRow } from '../../../src/index.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import '../../../components/index.ts';
import { mount } from '../fixtures/dom.ts';
import { unmountAll } from '../fixtures/mount.ts';

afterEach(unmountAll);

const CWD = '/tmp/silo-subagent';

/** The log's row with `key` (not the tail paint's copy of it). */
const logRow = (el: SiloTranscript, key: string) =>
  el
    .shadowRoot!.querySelector('[part="log"]')
    ?.querySelector<HTMLElement>(`:scope > .row[data-key="${key}"]`);

const shape = (rows: readonly TranscriptRow[]) =>
  rows.map((r) =>
    r.type === 'message' ? `${r.role}:${r.text}` : r.type === 'tool' ? `tool:${r.toolCall.title}` : r.type,
  );

/** What the transcript shows of the subagent whose card has `key`, whatever its source. */
async function expectSubagent(el: SiloTranscript, key: string, how: string): Promise<void> {
  const keys = () =>
    Array.from(el.shadowRoot!.querySelectorAll<HTMLElement>('[part="log"] > .row')).map((r) => r.dataset.key);
  await el.updateComplete;
  const done = (d: HTMLDetailsElement | null | undefined) =>
    d &&
    d.querySelectorAll('[part="subagent-rows"] > .row').length === 4 &&
    !d.closest('.row')!.querySelector('[data-status="in_progress"]');
  const card = await until(
    () => {
      const d = logRow(el, key)?.querySelector<HTMLDetailsElement>('[part="subagent"]');
      return done(d) ? d : undefined;
    },
    `${how}: the subagent in its card`,
    20_000,
  ).catch((e: Error) => {
    throw new Error(`${e.message} (log rows: ${keys().join(', ')})`);
  });
  // The conversation's own rows: nothing of the subagent among them.
  expect(
    shape(el.model.rows).filter((r) => r !== 'turn-end'),
    how,
  ).to.deep.equal([
    `user:${el.model.rows[0]!.type === 'message' ? (el.model.rows[0] as { text: string }).text : ''}`,
    `tool:${SUBAGENT_TITLE}`,
    `agent:${PARENT_TEXT}`,
  ]);
  expect(card.open, `${how}: folded`).to.equal(false);
  const rows = card.querySelector('[part="subagent-rows"]')!;
  const texts = Array.from(rows.querySelectorAll(':scope > .row')).map((r) =>
    r.textContent!.replace(/\s+/g, ' ').trim(),
  );
  expect(texts, how).to.have.length(4);
  expect(texts[0]).to.include(SUBAGENT_THOUGHT);
  expect(texts[1]).to.include('grep "greet"');
  expect(texts[2]).to.include('grep -n greet src/greet.ts');
  expect(texts[3]).to.include(SUBAGENT_TEXT);
  // The subagent's command has its terminal, with its output and exit code.
  const terminal = rows.querySelector('[part="terminal"]')!;
  expect(terminal.querySelector('[part="terminal-output"]')!.textContent).to.equal(SUBAGENT_OUTPUT);
  expect(terminal.querySelector('[part="terminal-exit"] span')!.textContent!.trim()).to.equal('Exit code 0');
  // Opened, it shows.
  card.querySelector('summary')!.click();
  await until(() => card.open && (rows as HTMLElement).offsetHeight > 0, `${how}: opened`);
  card.querySelector('summary')!.click();
  await until(() => !card.open, `${how}: folded again`);
}

describe('subagents in their Task card (real bridge, reference agent, Claude shapes)', function () {
  this.timeout(120_000);
  let bridge: TestBridge;
  const services: AgentsService[] = [];
  const service = (databaseName = `silo-subagent-${crypto.randomUUID()}`) => {
    const s = createAgentsService({ databaseName });
    services.push(s);
    return s;
  };
  before(async () => {
    bridge = await startBridge();
  });
  after(async () => {
    for (const s of services) await s.dispose();
    if (bridge) await stopBridge(bridge.id);
  });

  it('in the session: live, restored by a load into an empty journal, offline, and from an export', async () => {
    const first = service();
    const session = await first.connect({ bridge, cwd: CWD });
    const el = document.createElement('silo-transcript');
    el.session = session;
    let unmount = mount(el, 800);
    expect(await session.prompt(scenarioPrompt('subagent'))).to.equal('end_turn');
    await expectSubagent(el, 't:sub-agent', 'live');
    const card = el.model.get('t:sub-agent');
    expect(card?.type === 'tool' && card.toolCall.status).to.equal('completed');
    const { sessionId } = session;
    await session.close();
    unmount();

    // Another browser: an empty journal, so the agent replays the session (with its subagent's text).
    const fresh = service();
    const loaded = await fresh.connect({ bridge, cwd: CWD, resume: { sessionId } });
    expect(loaded.resumeOutcome).to.equal('loaded');
    const reloaded = document.createElement('silo-transcript');
    reloaded.session = loaded;
    unmount = mount(reloaded, 800);
    await expectSubagent(reloaded, 't:sub-agent', 'loaded into an empty journal');
    await loaded.close();
    unmount();

    const offline = document.createElement('silo-transcript');
    offline.service = first;
    offline.sessionId = sessionId;
    unmount = mount(offline, 800);
    await expectSubagent(offline, 't:sub-agent', 'offline from the journal');
    unmount();

    const exported = document.createElement('silo-transcript');
    exported.updates = parseJsonl(await first.exportJsonl(sessionId));
    unmount = mount(exported, 800);
    await expectSubagent(exported, 't:sub-agent', 'from the export');
    unmount();
  });

  it('as an ACP child session: its card with its task, work, state and answer; journaled, so resumed the same', async () => {
    const databaseName = `silo-subagent-${crypto.randomUUID()}`;
    const first = service(databaseName);
    const session = await first.connect({ bridge, cwd: CWD });
    const el = document.createElement('silo-transcript');
    el.session = session;
    let unmount = mount(el, 800);
    expect(await session.prompt(scenarioPrompt('subagent', 'rfd'))).to.equal('end_turn');
    const key = 't:subagent:agent-sub-agent';
    await expectSubagent(el, key, 'live');
    const row = logRow(el, key)!;
    expect(row.querySelector('[part="subagent-task"]')!.textContent).to.include(SUBAGENT_PROMPT);
    await until(() => row.querySelector('[part="subagent-answer"]'), 'the answer');
    expect(row.querySelector('[part="subagent-answer"]')!.textContent).to.include(SUBAGENT_REPORT);
    expect(row.querySelector('[part="subagent-summary"]')!.textContent).to.include('Done');
    expect(row.querySelector('[part~="tool-status"]')!.textContent).to.equal('Completed');
    const { sessionId } = session;
    await session.close();
    unmount();

    const again = await first.connect({ bridge, cwd: CWD, resume: { sessionId } });
    expect(again.resumeOutcome).to.equal('resumed');
    const resumed = document.createElement('silo-transcript');
    resumed.session = again;
    unmount = mount(resumed, 800);
    await expectSubagent(resumed, key, 'resumed');
    await again.close();
    unmount();
  });
});
