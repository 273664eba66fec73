// Streaming Markdown (components/content/markdown-stream.ts): a growing message is rendered block by block,
// complete blocks once. At every prefix of every document the blocks are exactly what the whole-text
// renderer (components/content/markdown.ts, whose policy markdown-policy.test.ts checks) gives for that prefix,
// the XSS corpus included; in <silo-transcript> a complete block keeps its DOM while the message grows, and a
// long answer's complete blocks sit in a few wrappers laid out exactly as the whole answer.
import { expect } from 'chai';
import '../../../components/index.ts';
import { renderMarkdown } from '../../../components/content/markdown.ts';
import { MarkdownStream } from '../../../components/content/markdown-stream.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import { until } from '../../support/until.ts';
import { XSS_PAYLOADS } from '../../support/xss-corpus.ts';
import { mount } from '../fixtures/dom.ts';
import { chunk, userPrompt } from '../fixtures/transcript-data.ts';

/** Markdown that changes meaning as it grows: every block type, and what can turn one into another. */
const DOCUMENT = [
  '# Plan\n\nFirst a paragraph with **bold**, `code`, a [ref link][docs] and https://x.test/a.',
  'A paragraph that becomes\na setext heading\n===\n',
  '- item one\n- item two\n\n  continued in item two\n\n- item three, loose list\n',
  '1. first\n2. second\n\nThen text.',
  '```ts\nconst a = 1 < 2;\n\n\nconsole.log(`<b>`);\n```',
  '    indented code\n\n    still code',
  '> quote\nlazy continuation\n\n> another',
  '| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |',
  'Text with <kbd>inline</kbd> HTML and <details>\n\nafter the open tag\n\n</details>',
  '<div>\n\nraw block\n\n</div>',
  '***\n\n![image](https://x.test/i.png) and ~~gone~~',
  '[docs]: https://docs.test/ "Docs"',
  'Windows line\r\nendings\r\n\r\nhere.',
].join('\n\n');

/** Feeds `text` in chunks of `size` and checks every prefix against the whole-text renderer. */
function streamEqualsWhole(text: string, size: number): void {
  const stream = new MarkdownStream();
  for (let end = Math.min(size, text.length); ; end = Math.min(end + size, text.length)) {
    const prefix = text.slice(0, end);
    const blocks = stream.render(prefix);
    const whole = renderMarkdown(prefix.replace(/\r\n?/g, '\n'));
    if (blocks.join('') !== whole) {
      expect({ prefix, blocks: blocks.join('') }).to.deep.equal({ prefix, blocks: whole });
    }
    if (end === text.length) return;
  }
}

describe('streaming Markdown', () => {
  it('gives, at every prefix, exactly the whole-text rendering, block by block', () => {
    for (const size of [1, 3, 17, 120]) streamEqualsWhole(DOCUMENT, size);
    const stream = new MarkdownStream();
    const once = stream.render(DOCUMENT.slice(0, 200));
    // Written out: the first 200 characters hold the heading, the first paragraph and the setext
    // heading (complete: one piece, rendered together) and the start of the list (open).
    expect(once).to.have.length(2);
    expect(once[0]).to.equal(
      '<h1>Plan</h1>\n<p>First a paragraph with <strong>bold</strong>, <code>code</code>, a [ref link][docs] and <a href="https://x.test/a" target="_blank" rel="noopener noreferrer nofollow">https://x.test/a</a>.</p>\n<h1>A paragraph that becomes\na setext heading</h1>\n',
    );
    // The rest at once: the pieces before stay as they were, the blocks it completes come as one
    // piece (the lists, code, quotes and table), and the paragraph with inline HTML and all after it
    // stay open (raw HTML can wrap what follows). A reference definition at the end re-renders all.
    const rest = stream.render(DOCUMENT.slice(0, DOCUMENT.indexOf('[docs]:')));
    expect(rest).to.have.length(3);
    expect(rest[0]).to.equal(once[0]);
    expect(rest[1]).to.match(/^<ul>\n<li><p>item one<\/p>[\s\S]*<\/table>\n$/);
    expect(rest[2]).to.match(/^<p>Text with <kbd>inline<\/kbd> HTML and <\/p><details>/);
    const all = stream.render(DOCUMENT);
    expect(all).to.have.length(2);
    expect(all[0]).to.include('<a href="https://docs.test/" title="Docs"');
  });

  it('sanitizes the XSS corpus streamed in chunks exactly as the whole-text renderer does', () => {
    for (const payload of XSS_PAYLOADS) {
      streamEqualsWhole(payload, 1);
      streamEqualsWhole(`Intro paragraph.\n\n${payload}\n\nTail paragraph.`, 5);
    }
  });

  it('starts over when the text does not extend what it rendered', () => {
    const stream = new MarkdownStream();
    stream.render('# One\n\nfirst');
    expect(stream.render('Other *text*').join('')).to.equal('<p>Other <em>text</em></p>\n');
  });

  it('holds a long streamed answer in a few wrappers, laid out exactly as the whole answer', async () => {
    // 60 paragraphs, one per frame: 60 complete pieces. Grouped, the message's element has 3 wrappers
    // of 16 and the last few pieces as its children, so a frame's layout does not walk every block
    // (npm run bench's streaming figure); ungrouped it would have 60.
    const paragraphs = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1} with **bold** text.\n\n`);
    const streamed: SiloTranscript = document.createElement('silo-transcript');
    const whole: SiloTranscript = document.createElement('silo-transcript');
    streamed.updates = [userPrompt('go', 'u')];
    whole.updates = [userPrompt('go', 'u'), chunk(paragraphs.join(''), 'a')];
    const cleanups = [mount(streamed, 250), mount(whole, 250)];
    try {
      const agent = (t: SiloTranscript): HTMLElement | null =>
        t.shadowRoot!.querySelector<HTMLElement>('[part~="message-agent"] .md');
      for (const p of paragraphs) {
        streamed.appendUpdates([chunk(p, 'a')]);
        await streamed.updateComplete;
      }
      const md = await until(
        () => (agent(streamed)?.querySelectorAll('p').length === 60 ? agent(streamed) : null),
        'all paragraphs streamed',
      );
      const other = await until(
        () => (agent(whole)?.querySelectorAll('p').length === 60 ? agent(whole) : null),
        'whole answer rendered',
      );
      expect(md.children.length, 'direct children of the streamed message').to.be.at.most(3 + 16);
      expect(md.querySelectorAll(':scope > .md-group').length, 'full groups of 16').to.equal(3);
      expect(md.textContent, 'same text').to.equal(other.textContent);
      expect(
        md.getBoundingClientRect().height,
        'same height: margins collapse across the wrappers',
      ).to.be.closeTo(other.getBoundingClientRect().height, 0.5);
      const top = (m: HTMLElement, i: number) =>
        m.querySelectorAll('p')[i]!.getBoundingClientRect().top - m.getBoundingClientRect().top;
      for (const i of [0, 15, 16, 47, 48, 59])
        expect(top(md, i), `paragraph ${i + 1}'s offset (px)`).to.be.closeTo(top(other, i), 0.5);
    } finally {
      for (const c of cleanups) c();
    }
  });

  it('keeps the DOM of complete blocks in <silo-transcript> while the message grows', async () => {
    const el: SiloTranscript = document.createElement('silo-transcript');
    el.updates = [userPrompt('go', 'u'), chunk('# Title\n\nFirst paragraph.', 'a')];
    const cleanup = mount(el);
    try {
      const agent = () => el.shadowRoot!.querySelector('[part~="message-agent"]');
      const heading = await until(() => agent()?.querySelector('h1'), 'heading rendered');
      const first = await until(
        () =>
          agent()?.querySelector('.md p')?.textContent === 'First paragraph.'
            ? agent()!.querySelector('.md p')
            : null,
        'first paragraph rendered',
      );
      el.appendUpdates([chunk('\n\nSecond ', 'a')]);
      el.appendUpdates([chunk('paragraph, **growing**.', 'a')]);
      await until(() => agent()?.querySelector('strong')?.textContent === 'growing', 'last chunk rendered');
      el.appendUpdates([chunk('\n\n- a list', 'a')]);
      await until(() => agent()?.querySelector('li')?.textContent === 'a list', 'list rendered');
      // Compared by identity (not passed to chai: it would try to print a DOM tree on failure).
      expect(agent()!.querySelector('h1') === heading, 'same heading element').to.equal(true);
      expect(agent()!.querySelector('.md p') === first, 'same first paragraph element').to.equal(true);
      expect(
        Array.from(agent()!.querySelectorAll('.md > *'), (e) => e.tagName),
        'one of each block',
      ).to.deep.equal(['H1', 'P', 'P', 'UL']);
    } finally {
      cleanup();
    }
  });
});
