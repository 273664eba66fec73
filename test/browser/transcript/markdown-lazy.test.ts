// Agent Markdown before and after its chunk loads (components/content/markdown.lazy.ts): this file imports
// the directive alone (not the components entry, which starts the load), so the first render
// happens before the chunk is there. Until then the text is plain, escaped text; then the sanitized
// Markdown replaces it in place, its code blocks highlighted.
import { expect } from 'chai';
import { html, render } from 'lit';
import { loadMarkdown, markdown } from '../../../components/content/markdown.lazy.ts';
import { until } from '../../support/until.ts';
import { mount } from '../fixtures/mount.ts';

const CODE = '```ts\nconst answer = 42;\n```';

describe('markdown directive (lazy Markdown chunk)', () => {
  it('shows the text as plain text until the chunk loads, then its sanitized Markdown', async () => {
    const text =
      '**bold** <img src="https://t.example/p.png" onerror="window.__lazyXss=1"> [ok](https://e.example/)';
    const box = document.createElement('div');
    const unmount = mount(box);
    try {
      render(
        html`<div class="md">${markdown('k#0', {}, text)}</div><div class="code">${markdown('k#1', {}, CODE)}</div>`,
        box,
      );
      // Before the chunk: the text itself, as text.
      const md = box.querySelector('.md')!;
      expect(md.querySelector('.plain')?.textContent).to.equal(text);
      expect(md.querySelector('img, strong, a')).to.equal(null);
      // Then the Markdown, under the sanitizer's policy (the image became a link, nothing loads).
      await loadMarkdown();
      await until(() => md.querySelector('strong') !== null, 'the Markdown replaces the plain text');
      expect(md.querySelector('strong')!.textContent).to.equal('bold');
      expect(md.querySelector('.plain')).to.equal(null);
      expect(md.querySelector('img')).to.equal(null);
      const hrefs = Array.from(md.querySelectorAll('a')).map((a) => a.getAttribute('href'));
      expect(hrefs).to.deep.equal(['https://t.example/p.png', 'https://e.example/']);
      expect((window as { __lazyXss?: number }).__lazyXss).to.equal(undefined);
      // The code block the swap brought is highlighted too (the swap is not a render of its element,
      // so no element directive sees it: the swap itself asks for the highlighter).
      await until(
        () => box.querySelector('.code pre > code span.hljs-keyword') !== null,
        'the swapped-in code block is highlighted',
      );
      expect(box.querySelector('.code pre > code span.hljs-keyword')!.textContent).to.equal('const');
      expect(box.querySelector('.code code')!.textContent).to.equal('const answer = 42;\n');
    } finally {
      unmount();
    }
  });
});
