// Agent Markdown before and after its chunk loads (components/markdown-lazy.ts): this file imports
// the directive alone (not the components entry, which starts the load), so the first render
// happens before the chunk is there. Until then the text is plain, escaped text; then the sanitized
// Markdown replaces it in place.
import { expect } from 'chai';
import { html, render } from 'lit';
import { loadMarkdown, markdown } from '../../components/markdown-lazy.ts';
import { until } from '../support/until.ts';

describe('markdown directive (lazy Markdown chunk)', () => {
  it('shows the text as plain text until the chunk loads, then its sanitized Markdown', async () => {
    const text =
      '**bold** <img src="https://t.example/p.png" onerror="window.__lazyXss=1"> [ok](https://e.example/)';
    const box = document.createElement('div');
    document.body.append(box);
    try {
      render(html`<div class="md">${markdown('k#0', {}, text)}</div>`, box);
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
    } finally {
      box.remove();
    }
  });
});
