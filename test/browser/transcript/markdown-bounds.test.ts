// What one block of agent text may cost in <silo-transcript> (components/content/text-budget.ts,
// content/long-text.ts): each hostile shape of issue #25 §3 — a 2 MiB line, a 9 MiB and a 1 MiB
// nested list, `*a` × 100,000, nested quotes, a flat list, unclosed tags — as an agent message, a
// thought, a user message, a tool's output, a resource, a diff and a title, renders a bounded DOM
// without holding the main thread; the rest is collapsed plain text that "Show all" draws a few pieces
// per frame, "Copy all" copies whole, and find reaches. The same inputs through the real bridge, live
// and reopened from the journal: test/browser/reliability/huge-text.test.ts.
import { expect } from 'chai';
import '../../../components/index.ts';
import { HUGE_TEXT_SHAPES, hugeText } from '../../../agent/huge-text.ts';
import { PIECES_PER_FRAME } from '../../../components/content/long-text.ts';
import {
  MARKDOWN_LIMITS,
  markdownCut,
  PIECE_CHARS,
  PLAIN_SHOWN,
} from '../../../components/content/text-budget.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import type { AgentSessionUpdate } from '../../../src/index.ts';
import { watchMainThread } from '../../support/main-thread.ts';
import { frame, until } from '../../support/until.ts';
import { mount } from '../fixtures/dom.ts';
import { capturingClipboard, DIFF_ELEMENTS, expectBounded, holdBound } from '../fixtures/text-bounds.ts';
import { chunk, tool, userPrompt } from '../fixtures/transcript-data.ts';

/** Every shape at its default size, and the 1 MiB nested list of the issue. */
const INPUTS: { name: string; text: string }[] = [
  ...HUGE_TEXT_SHAPES.map((shape) => ({ name: shape, text: hugeText(shape) })),
  { name: 'nested-list 1 MiB', text: hugeText('nested-list', 1024 * 1024) },
];

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** The drawn row of the model's first message in `t`, once it is drawn. */
function messageRow(t: SiloTranscript): Promise<HTMLElement> {
  return until(() => {
    const key = t.model.rows.find((r) => r.type === 'message')?.key;
    return key ? t.shadowRoot!.querySelector<HTMLElement>(`.row[data-key="${CSS.escape(key)}"]`) : null;
  }, 'the message drawn');
}

/** Mounts a transcript showing `updates`; resolves to it and its first message's row once drawn. */
async function show(updates: AgentSessionUpdate[]): Promise<{ t: SiloTranscript; row: HTMLElement }> {
  const t = document.createElement('silo-transcript');
  cleanups.push(mount(t, 600));
  t.updates = updates;
  await t.updateComplete;
  return { t, row: await messageRow(t) };
}

/** The collapsed rest of a row, and the number of characters it says it holds. */
function restOf(row: Element) {
  const rest = row.querySelector<HTMLElement>('[part~="long-text"]');
  const count = Number(rest?.querySelector('.long-text-note')?.textContent?.replace(/\D/g, ''));
  return { rest, count };
}

/** An ordinary message, whose hold in the same run scales the hold bound (fixtures/text-bounds.ts). */
const ORDINARY = hugeText('items', 4 * 1024);

describe('huge agent text in <silo-transcript>', function () {
  this.timeout(120_000);
  let bound = 0;
  before(async () => {
    const watch = watchMainThread();
    await show([chunk(ORDINARY, crypto.randomUUID())]);
    await frame();
    bound = holdBound(watch.stop());
    for (const c of cleanups.splice(0)) c();
  });

  for (const { name, text } of INPUTS) {
    it(`${name} (${text.length.toLocaleString('en')} characters) as an agent message: a bounded DOM, the rest collapsed`, async () => {
      const watch = watchMainThread();
      const { row } = await show([chunk(text, crypto.randomUUID())]);
      await frame();
      const held = watch.stop();
      const size = expectBounded(row, name);
      const { rest, count } = restOf(row);
      expect(rest, `${name}: a collapsed rest`).to.not.equal(null);
      expect(rest!.dataset.longText).to.equal('closed');
      // Markdown part and rest are the whole text: what the bar counts is what was not drawn.
      expect(count, `${name}: the rest's size`).to.be.greaterThan(text.length - MARKDOWN_LIMITS.chars - 1);
      expect(held, `${name}: main thread held (${watch.kind}, ms); ${size.elements} elements`).to.be.below(
        bound,
      );
    });
  }

  it('bounds a thought, a user message, a tool output, a resource, a diff and a tool title the same way', async () => {
    const line = hugeText('line');
    const nested = hugeText('nested-list');
    const updates: AgentSessionUpdate[] = [
      userPrompt(line),
      chunk(nested, 't1', 'agent_thought_chunk'),
      tool(
        {
          toolCallId: 'c1',
          title: line,
          kind: 'read',
          status: 'completed',
          content: [{ type: 'content', content: { type: 'text', text: hugeText('emphasis') } }],
        },
        true,
      ),
      tool({ toolCallId: 'c2', title: 'raw', kind: 'execute', status: 'completed', rawOutput: line }, true),
      tool(
        {
          toolCallId: 'c3',
          title: 'diff',
          kind: 'edit',
          status: 'failed',
          content: [{ type: 'diff', path: '/tmp/a.md', oldText: 'before\n', newText: nested }],
        },
        true,
      ),
      tool(
        {
          toolCallId: 'c4',
          title: 'resource',
          kind: 'read',
          status: 'failed',
          content: [
            { type: 'content', content: { type: 'resource', resource: { uri: 'file:///a', text: line } } },
          ],
        },
        true,
      ),
    ];
    const watch = watchMainThread();
    const drawn: HTMLElement[] = [];
    for (const update of updates) {
      // One transcript each: the log draws only what is in view, and each of these rows is tall.
      const t = document.createElement('silo-transcript');
      const unmount = mount(t, 500);
      t.updates = [userPrompt('Go.'), update];
      await t.updateComplete;
      const row = await until(
        () => t.shadowRoot!.querySelector<HTMLElement>('.row[data-index="1"]'),
        `the row of update ${drawn.length} (${update.kind}) drawn`,
      );
      // Cards start closed (a failed one open); closed or open, what they hold is in the DOM.
      if (row.querySelector('[part~="diff"]')) {
        await until(() => row.querySelector('.line.more'), 'the diff says how many lines it does not show');
        expectBounded(row, 'a diff', DIFF_ELEMENTS);
      } else expectBounded(row, row.getAttribute('part')!);
      const title = row.querySelector('[part~="tool-title"]');
      if (title) {
        expect(title.textContent!.length).to.be.at.most(1001);
        expect(title.getAttribute('title')!.length).to.be.at.most(1001);
      }
      drawn.push(row);
      // Unmounted before the next: a log below the window's view draws nothing.
      unmount();
    }
    const held = watch.stop();
    const user = drawn.find((r) => r.matches('[part~="message-user"]'))!;
    expect(user.querySelectorAll('.piece')).to.have.length(PLAIN_SHOWN / PIECE_CHARS);
    expect(restOf(user).count).to.equal(line.length - PLAIN_SHOWN);
    const thought = drawn.find((r) => r.matches('[part~="thought"]'))!;
    expect(thought.querySelector('[part~="long-text"]')).to.not.equal(null);
    expect(held, `main thread held (${watch.kind}, ms)`).to.be.below(bound);
  });

  it('"Show all" draws the rest a few pieces per frame, without holding the page; "Copy all" and Copy copy all of it', async () => {
    const text = `A short introduction.\n\n${hugeText('line')}`;
    const { t, row } = await show([chunk(text, crypto.randomUUID())]);
    const { rest, count } = restOf(row);
    const toggle = rest!.querySelector<HTMLButtonElement>('[part~="long-text-toggle"]')!;
    expect(toggle.getAttribute('aria-expanded')).to.equal('false');
    const pieces = Math.ceil(count / PIECE_CHARS);
    const watch = watchMainThread();
    toggle.click();
    let frames = 0;
    let drawn = 0;
    while (rest!.dataset.longText !== 'open') {
      const now = rest!.querySelectorAll('.piece').length;
      expect(now - drawn, 'pieces added in one frame').to.be.at.most(Math.max(8, PIECES_PER_FRAME));
      drawn = now;
      frames++;
      await frame();
      expect(frames, 'frames to draw it all').to.be.below(pieces);
    }
    const held = watch.stop();
    expect(toggle.getAttribute('aria-expanded')).to.equal('true');
    const all = Array.from(rest!.querySelectorAll('.piece'), (p) => p.textContent).join('');
    expect(all.length).to.equal(count);
    expect(text.endsWith(all), 'the pieces are the rest of the text').to.equal(true);
    expect(held, `main thread held while showing all (${watch.kind}, ms)`).to.be.below(bound);
    await capturingClipboard(async (written) => {
      rest!.querySelector<HTMLButtonElement>('[part~="long-text-copy"]')!.click();
      row.querySelector<HTMLButtonElement>('.who [part~="copy"]')!.click();
      await until(() => written.length === 2, 'both copied');
      expect(written[0], 'Copy all').to.equal(text);
      expect(written[1], "the message's Copy").to.equal(text);
    });
    // It stays open when the log draws the row again; "Show less" collapses it.
    t.updates = [...t.updates!];
    await t.updateComplete;
    toggle.click();
    await until(() => rest!.dataset.longText === 'closed', 'collapsed again');
    expect(rest!.querySelectorAll('.piece')).to.have.length(0);
  });

  it('find counts a match in the collapsed part, opens it and highlights the match', async () => {
    const text = `Intro.\n\n${'x'.repeat(3 * 1024 * 1024)} needle at the end`;
    const { t, row } = await show([chunk(text, crypto.randomUUID())]);
    const result = await t.find('needle');
    expect(result.total).to.equal(1);
    expect(result.current).to.equal(1);
    const { rest } = restOf(row);
    await until(() => rest!.dataset.longText === 'open', 'the rest opened by find');
    expect(row.dataset.find).to.equal('active');
    if (CSS.highlights) {
      const active = await until(() => {
        const ranges = [...((CSS.highlights.get('silo-find-active') as unknown as Set<Range>) ?? [])];
        return ranges.length === 1 ? ranges[0] : undefined;
      }, 'the match highlighted');
      expect(active.toString().toLowerCase()).to.equal('needle');
      expect(active.startContainer.parentElement?.closest('.piece')).to.not.equal(null);
    }
    t.clearFind();
  });

  it('a message streamed past the limits keeps the bounds while it grows', async () => {
    const text = hugeText('nested-list', 2 * 1024 * 1024);
    const t = document.createElement('silo-transcript');
    cleanups.push(mount(t, 600));
    t.updates = [];
    await t.updateComplete;
    const watch = watchMainThread();
    const size = 64 * 1024;
    const id = crypto.randomUUID();
    for (let at = 0; at < text.length; at += size) {
      t.appendUpdates([chunk(text.slice(at, at + size), id)]);
      await t.updateComplete;
      await frame();
      expectBounded(await messageRow(t), `after ${at + size} characters`);
    }
    const held = watch.stop();
    const row = await messageRow(t);
    expect(restOf(row).count, 'the rest is all the Markdown part does not hold').to.equal(
      text.length - markdownCut(text),
    );
    expect(held, `main thread held while streaming (${watch.kind}, ms)`).to.be.below(bound);
  });

  it('a text within the limits is Markdown whole, with no collapsed part', async () => {
    const text = Array.from({ length: 200 }, (_, i) => `- item **${i}** with \`code\``).join('\n');
    const { row } = await show([chunk(text, crypto.randomUUID())]);
    expect(row.querySelector('[part~="long-text"]')).to.equal(null);
    expect(row.querySelectorAll('.md li')).to.have.length(200);
    expect(row.querySelectorAll('.md strong')).to.have.length(200);
  });
});
