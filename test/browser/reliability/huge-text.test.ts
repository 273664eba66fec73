// Agent text that used to brick the transcript (issue #25 §3), through the real bridge and the
// reference agent (`/scenario huge-text`, agent/scenarios/huge-text.ts): a 2 MiB line with no space,
// a 9 MiB and a 1 MiB nested list, and `*a` × 100,000, each streamed live in 64 KiB chunks into a
// <silo-chat>, then reopened from the journal by a new worker in a <silo-transcript>; the 9 MiB list
// also as a thought, a tool's output and a diff, and the 2 MiB line as the user's own message.
//
// What each asserts, primary first: the row's DOM stays within the rendering bounds (elements and
// characters drawn, fixtures/text-bounds.ts), the rest collapsed behind a bar that counts it; the
// journal holds the whole text, and Copy / Copy all give all of it; the tab lives on. Then the
// longest hold of the main thread (the longest task in Chromium, the longest gap between frames in
// Firefox) stays under `holdBound(baseline)`: four times the hold of an ordinary message streamed
// through the same bridge in the same run, and never under 1.5 s. Unbounded, these inputs held
// Chromium from 2.5 s to minutes or crashed its tab, so the bound still catches a freeze; measured
// against the same run's baseline it does not fail because the machine is loaded (two cores shared
// by several suites). Each hold is also recorded as a figure for the summary, with "bad inputs tried".
import { expect } from 'chai';
import '../../../components/index.ts';
import { type HugeTextShape, hugeText } from '../../../agent/huge-text.ts';
import { scenarioPrompt } from '../../../agent/scenarios.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import { markdownCut, PLAIN_SHOWN, plainCut } from '../../../components/content/text-budget.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import { type AgentSessionUpdate, type AgentsService, createAgentsService } from '../../../src/index.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { watchMainThread } from '../../support/main-thread.ts';
import { report } from '../../support/summary-browser.ts';
import { until } from '../../support/until.ts';
import { connected, transcript, turnEnds, typeAndEnter } from '../fixtures/chat.ts';
import { mount } from '../fixtures/dom.ts';
import {
  capturingClipboard,
  DIFF_ELEMENTS,
  expectBounded,
  holdBound,
  ROW_ELEMENTS,
  ROW_TEXT,
  rowSize,
} from '../fixtures/text-bounds.ts';

/** The inputs of the issue, as the scenario's arguments. */
const INPUTS: { name: string; shape: HugeTextShape; size?: number }[] = [
  { name: '2 MiB line', shape: 'line' },
  { name: '9 MiB nested list', shape: 'nested-list' },
  { name: '1 MiB nested list', shape: 'nested-list', size: 1024 * 1024 },
  { name: '*a × 100,000', shape: 'emphasis' },
];

/** An ordinary message, whose hold in the same run scales the hold bound (fixtures/text-bounds.ts). */
const ORDINARY = hugeText('items', 4 * 1024);

/** The agent's text of `kind` in a journal, joined. */
const textOf = (journal: readonly AgentSessionUpdate[], kind: string) =>
  journal
    .filter((u) => u.kind === kind)
    .map((u) => u.text ?? '')
    .join('');

/**
 * What a drawn row is waited for by: its part, a condition on it (the whole text drawn) and the
 * elements it may hold (default {@link ROW_ELEMENTS}).
 */
type RowWanted = {
  readonly part: string;
  readonly ready: (row: HTMLElement) => boolean;
  readonly what: string;
  readonly elements?: number;
};

/** The row whose long-text bar counts `rest` characters (the whole text arrived and was drawn). */
const restOf = (part: string, rest: number): RowWanted => {
  const count = `${new Intl.NumberFormat().format(rest)} more characters`;
  return {
    part,
    ready: (row) => row.querySelector('[part~="long-text"]')?.textContent?.includes(count) === true,
    what: `a ${part} row counting ${count}`,
  };
};

/** Whether `row` holds more than its bounds allow. */
const overBounds = (row: HTMLElement, elements: number) => {
  const size = rowSize(row);
  return size.elements > elements || size.text > ROW_TEXT;
};

/**
 * The drawn row `wanted` in `t`: once it is ready, or as soon as it breaks its bounds (then
 * {@link expectBounded} says how, instead of a wait for a bar that an unbounded row never draws).
 */
function drawnRow(t: SiloTranscript, wanted: RowWanted): Promise<HTMLElement> {
  const elements = wanted.elements ?? ROW_ELEMENTS;
  return until(
    () =>
      Array.from(t.shadowRoot!.querySelectorAll<HTMLElement>(`.row[part~="${wanted.part}"]`)).find(
        (row) => wanted.ready(row) || overBounds(row, elements),
      ),
    wanted.what,
    60_000,
  );
}

/** What "Copy" (or "Copy all") writes to the clipboard when `button` is clicked. */
async function copied(button: HTMLButtonElement): Promise<string> {
  let text = '';
  await capturingClipboard(async (written) => {
    button.click();
    text = await until(() => written[0], 'copied');
  });
  return text;
}

describe('huge agent text through the real bridge, live and reopened from the journal', function () {
  this.timeout(600_000);
  let bridge: TestBridge;
  const services: AgentsService[] = [];
  const cleanups: (() => void)[] = [];
  const service = (databaseName: string) => {
    const s = createAgentsService({ databaseName });
    services.push(s);
    return s;
  };

  let bound = 0;

  before(async () => {
    bridge = await startBridge();
    // The baseline: an ordinary message (a list of 4 KiB, all of it Markdown) played and reopened
    // the same way, on this machine under its load now.
    const items = ORDINARY.split('\n').filter((l) => l.startsWith('- ')).length;
    const drawn: RowWanted = {
      part: 'message-agent',
      ready: (row) => row.querySelectorAll('li').length >= items,
      what: `an ordinary message of ${items} items drawn`,
    };
    const databaseName = `silo-huge-${crypto.randomUUID()}`;
    const run = await live(
      databaseName,
      scenarioPrompt('huge-text', 'items', 'message', ORDINARY.length),
      drawn,
    );
    for (const c of cleanups.splice(0)) c();
    const again = await reopen(databaseName, run.sessionId, drawn);
    const baseline = Math.max(run.held, again.held);
    bound = holdBound(baseline);
    await report('figure', baseline, `longest ${run.kind}, an ordinary 4 KiB message (the baseline)`, 'ms');
    for (const c of cleanups.splice(0)) c();
    for (const s of services.splice(0)) await s.dispose();
  });
  after(async () => {
    await stopBridge(bridge.id);
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0)) c();
    for (const s of services.splice(0)) await s.dispose();
  });

  /**
   * Plays `prompt` live in a mounted <silo-chat> until its turn ended; resolves to the chat, its
   * session id and the longest hold of the main thread meanwhile (until the row `wanted` is drawn).
   */
  async function live(databaseName: string, prompt: string, wanted: RowWanted) {
    const chat = document.createElement('silo-chat') as SiloChat;
    chat.service = service(databaseName);
    chat.setAttribute('bridge-url', bridge.url);
    chat.setAttribute('bridge-token', bridge.token);
    chat.setAttribute('cwd', `/tmp/silo-huge-${crypto.randomUUID()}`);
    cleanups.push(mount(chat, 700));
    await connected(chat);
    const watch = watchMainThread();
    // A scenario is typed into the composer; a huge prompt is sent through the session (typing 2 MiB
    // with key presses would take the test's time, not the page's).
    if (prompt.length < 200) await typeAndEnter(chat, prompt);
    else void chat.session!.prompt(prompt);
    await until(() => turnEnds(chat).length === 1, 'the turn ended', 300_000);
    const row = await drawnRow(transcript(chat), wanted);
    const held = watch.stop();
    return { chat, sessionId: chat.session!.sessionId, held, row, kind: watch.kind };
  }

  /** Opens `sessionId` from the journal with a new worker in a <silo-transcript>; the drawn row and the hold. */
  async function reopen(databaseName: string, sessionId: string, wanted: RowWanted) {
    const offline = service(databaseName);
    const t = document.createElement('silo-transcript') as SiloTranscript;
    const watch = watchMainThread();
    t.service = offline;
    t.sessionId = sessionId;
    cleanups.push(mount(t, 700));
    const row = await drawnRow(t, wanted);
    const held = watch.stop();
    return { offline, t, row, held, kind: watch.kind };
  }

  for (const { name, shape, size } of INPUTS) {
    it(`${name}: streamed live into <silo-chat>, then reopened from the journal in <silo-transcript>`, async () => {
      const text = hugeText(shape, size);
      const rest = text.length - markdownCut(text);
      const databaseName = `silo-huge-${crypto.randomUUID()}`;
      const prompt = scenarioPrompt('huge-text', shape, 'message', size ?? '');
      // The whole text drawn: its bar counts all that the Markdown part does not hold.
      const wanted = restOf('message-agent', rest);
      const run = await live(databaseName, prompt.trim(), wanted);
      expectBounded(run.row, `${name}, live`);
      expect(await copied(run.row.querySelector<HTMLButtonElement>('.who [part~="copy"]')!), 'Copy').to.equal(
        text,
      );
      const journal = await run.chat.session!.transcript();
      expect(textOf(journal, 'agent_message_chunk'), 'the journal holds all of it').to.equal(
        `${text}After the huge text.`,
      );
      await report('figure', run.held, `longest ${run.kind}, ${name} streamed live`, 'ms');
      expect(run.held, `${name} live: main thread held (${run.kind}, ms)`).to.be.below(bound);
      cleanups.splice(0).forEach((c) => {
        c();
      });

      const again = await reopen(databaseName, run.sessionId, wanted);
      expectBounded(again.row, `${name}, reopened`);
      const copyAll = again.row.querySelector<HTMLButtonElement>('[part~="long-text-copy"]')!;
      expect(await copied(copyAll), 'Copy all').to.equal(text);
      expect(textOf(await again.offline.transcript(run.sessionId), 'agent_message_chunk')).to.equal(
        `${text}After the huge text.`,
      );
      await report('figure', again.held, `longest ${again.kind}, ${name} reopened`, 'ms');
      await report('inputs', 1, `huge text: ${name}`);
      expect(again.held, `${name} reopened: main thread held (${again.kind}, ms)`).to.be.below(bound);
    });
  }

  for (const where of ['thought', 'tool', 'diff'] as const) {
    it(`the 9 MiB nested list as a ${where}: live and reopened`, async () => {
      const text = hugeText('nested-list');
      const databaseName = `silo-huge-${crypto.randomUUID()}`;
      const wanted: RowWanted =
        where === 'diff'
          ? {
              part: 'tool',
              ready: (row) => row.querySelector('.line.more') !== null,
              what: 'the diff drawn',
              elements: DIFF_ELEMENTS,
            }
          : where === 'thought'
            ? restOf('thought', text.length - markdownCut(text))
            : // The scenario's tool is a read: its output is a file's contents, drawn as code (plain text).
              restOf('tool', text.length - plainCut(text));
      const run = await live(databaseName, scenarioPrompt('huge-text', 'nested-list', where), wanted);
      const bound = where === 'diff' ? DIFF_ELEMENTS : ROW_ELEMENTS;
      expectBounded(run.row, `${where}, live`, bound);
      const journal = await run.chat.session!.transcript();
      if (where === 'thought') expect(textOf(journal, 'agent_thought_chunk')).to.equal(text);
      else {
        const call = journal.findLast((u) => u.toolCall?.content?.length)!.toolCall!;
        const content = call.content![0] as { content?: { text?: string }; newText?: string };
        expect(where === 'diff' ? content.newText : content.content?.text).to.equal(text);
      }
      await report('figure', run.held, `longest ${run.kind}, 9 MiB nested list as a ${where}, live`, 'ms');
      expect(run.held, `${where} live (${run.kind}, ms)`).to.be.below(bound);
      cleanups.splice(0).forEach((c) => {
        c();
      });
      const again = await reopen(databaseName, run.sessionId, wanted);
      expectBounded(again.row, `${where}, reopened`, bound);
      await report('inputs', 1, `huge text: 9 MiB nested list as a ${where}`);
      expect(again.held, `${where} reopened (${again.kind}, ms)`).to.be.below(bound);
    });
  }

  it("the 2 MiB line as the user's own message: live and reopened", async () => {
    // The prompt picks a scenario on its first line (agent/scenarios.ts), so the agent does not echo it.
    const text = `${scenarioPrompt('huge-text', 'line', 'message', 16)}\n${hugeText('line')}`;
    const databaseName = `silo-huge-${crypto.randomUUID()}`;
    const wanted = restOf('message-user', text.length - PLAIN_SHOWN);
    const run = await live(databaseName, text, wanted);
    expectBounded(run.row, 'user message, live');
    expect(await copied(run.row.querySelector<HTMLButtonElement>('.who [part~="copy"]')!)).to.equal(text);
    const journal = await run.chat.session!.transcript();
    expect(textOf(journal, 'user_message_chunk')).to.equal(text);
    expect(run.held, `user message live (${run.kind}, ms)`).to.be.below(bound);
    cleanups.splice(0).forEach((c) => {
      c();
    });
    const again = await reopen(databaseName, run.sessionId, wanted);
    expectBounded(again.row, 'user message, reopened');
    await report(
      'figure',
      Math.max(run.held, again.held),
      'longest hold, 2 MiB user message live or reopened',
      'ms',
    );
    await report('inputs', 1, 'huge text: 2 MiB user message');
    expect(again.held, `user message reopened (${again.kind}, ms)`).to.be.below(bound);
  });
});
