// Agent Markdown's policy (components/content/markdown.ts, docs/security.md): rendering hostile content makes
// the page fetch nothing (counted in the browser: every resource the page loads is a
// PerformanceObserver entry), and agent content cannot take on Silo's own look (no class, style, id,
// dialog, button, image or media element survives).
import { expect } from 'chai';
import '../../../components/index.ts';
import { renderMarkdown } from '../../../components/content/markdown.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import type { AgentSessionUpdate } from '../../../src/types.ts';
import { until } from '../../support/until.ts';
import { XSS_PAYLOADS } from '../../support/xss-corpus.ts';
import { collectRows, mount } from '../fixtures/dom.ts';
import { chunk, tool } from '../fixtures/transcript-data.ts';

/** Parses sanitized HTML in an inert document (nothing in it loads). */
function parse(html: string): Element[] {
  const doc = document.implementation.createHTMLDocument('');
  doc.body.innerHTML = html;
  return Array.from(doc.body.querySelectorAll('*'));
}

const ALLOWED_TAGS = new Set(
  'P BR HR H1 H2 H3 H4 H5 H6 BLOCKQUOTE PRE CODE EM STRONG B I S DEL INS SUP SUB KBD SAMP VAR ABBR Q UL OL LI DL DT DD A TABLE THEAD TBODY TFOOT TR TH TD CAPTION DETAILS SUMMARY'.split(
    ' ',
  ),
);
const ALLOWED_ATTRS = new Set([
  'href',
  'title',
  'align',
  'start',
  'colspan',
  'rowspan',
  'abbr',
  'lang',
  'dir',
  'target',
  'rel',
]);

describe('agent Markdown: no network request, no look-alike of Silo UI', function () {
  this.timeout(60_000);

  it('rendering the XSS corpus in a transcript fetches nothing (resource entries counted in the page)', async () => {
    const w = window as unknown as { __xss?: number[] };
    w.__xss = [];
    const beacons: string[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name.includes('__silo-beacon')) beacons.push(e.name);
    });
    observer.observe({ type: 'resource', buffered: true });
    const updates: AgentSessionUpdate[] = [];
    // Each payload as written (relative URLs) and with absolute URLs of this page's origin, which
    // the http(s)-only URL rule would not stop by itself.
    const absolute = XSS_PAYLOADS.map((p) =>
      p.replaceAll('/__silo-beacon/', `${location.origin}/__silo-beacon/`),
    );
    [...XSS_PAYLOADS, ...absolute].forEach((p, i) => {
      updates.push(chunk(p, `m${i}`));
      updates.push(chunk(p, `t${i}`, 'agent_thought_chunk'));
      updates.push(
        tool(
          {
            toolCallId: `c${i}`,
            title: 'tool',
            kind: 'read',
            content: [{ type: 'content', content: { type: 'text', text: p } }],
          },
          true,
        ),
      );
    });
    const el = document.createElement('silo-transcript') as SiloTranscript;
    el.updates = updates;
    const cleanup = mount(el, 600);
    try {
      await el.updateComplete;
      const rows = await collectRows(el.shadowRoot!);
      expect(rows.length).to.be.greaterThan(2 * XSS_PAYLOADS.length);
      // A request the test makes itself, after rendering: once its entry arrives, any request the
      // rendering made before it has had its round trip too.
      await fetch(`/__silo-beacon/control?${Math.random()}`).catch(() => undefined);
      await until(
        () => beacons.some((n) => n.includes('/__silo-beacon/control')),
        'the control request observed',
      );
      expect(beacons.filter((n) => !n.includes('/__silo-beacon/control'))).to.deep.equal([]);
      expect(w.__xss).to.deep.equal([]);
    } finally {
      observer.disconnect();
      cleanup();
    }
  });

  it('keeps only text-structure elements and attributes; the only URL is a link href', () => {
    for (const payload of XSS_PAYLOADS) {
      for (const e of parse(renderMarkdown(payload))) {
        expect(ALLOWED_TAGS.has(e.tagName), `<${e.tagName}> from ${payload}`).to.equal(true);
        for (const a of Array.from(e.attributes)) {
          expect(ALLOWED_ATTRS.has(a.name), `${e.tagName} ${a.name} from ${payload}`).to.equal(true);
          if (a.name === 'href') expect(a.value).to.match(/^(https?:|mailto:)/);
        }
      }
    }
  });

  it('images become links the user may click; URL-bearing and styling attributes are removed', () => {
    const cases: [string, string][] = [
      [
        '![a pixel](https://tracker.example/p.png)',
        '<p><a href="https://tracker.example/p.png" target="_blank" rel="noopener noreferrer nofollow">a pixel</a></p>\n',
      ],
      [
        '<img src="https://tracker.example/p.png" alt="x"><img src="javascript:alert(1)" alt="j"><img src="/rel.png">',
        '<p><a href="https://tracker.example/p.png" target="_blank" rel="noopener noreferrer nofollow">x</a></p>\n',
      ],
      [
        '<table background="https://t.example/b"><tbody><tr><td background="https://t.example/c">c</td></tr></tbody></table>',
        '<table><tbody><tr><td>c</td></tr></tbody></table>',
      ],
      ['<div class="row tool" style="position:fixed" id="x">fake</div>', 'fake'],
      ['<p class="row tool" id="x" style="color:red">fake</p>', '<p>fake</p>'],
      // data-* and ARIA: Silo's own rows are found by data-prompt / data-pending (a look-alike prompt).
      ['<p data-prompt="p1" data-pending aria-label="Allow" role="button">fake</p>', '<p>fake</p>'],
      ['<dialog open>Allow? <button>Allow</button></dialog>', 'Allow? Allow'],
      [
        '<a href="https://e.example/" ping="https://t.example/">p</a>',
        '<p><a href="https://e.example/" target="_blank" rel="noopener noreferrer nofollow">p</a></p>\n',
      ],
      ['<details open><summary>s</summary>d</details>', '<details><summary>s</summary>d</details>'],
      // A fenced block keeps its language (for the highlighter) and nothing else does: not another
      // class on <code>, not a language class elsewhere, not the highlighter's own token classes.
      ['```ts\nlet a\n```', '<pre><code class="language-ts">let a\n</code></pre>\n'],
      ['<code class="language-ts row">x</code>', '<p><code>x</code></p>\n'],
      ['<pre class="language-ts">x</pre>', '<pre>x</pre>'],
      ['<span class="hljs-keyword">x</span>', '<p>x</p>\n'],
    ];
    for (const [input, expected] of cases) expect(renderMarkdown(input), input).to.equal(expected);
  });
  it('builds its output afresh: scripts, foreign content and unsafe URLs leave nothing behind', () => {
    const A = (href: string, text: string) =>
      `<a href="${href}" target="_blank" rel="noopener noreferrer nofollow">${text}</a>`;
    const cases: [string, string][] = [
      // Links: only http, https and mailto, after the parser decoded entities and the value is trimmed.
      ['[x](javascript:alert(1))', '<p><a>x</a></p>\n'],
      ['[x](data:text/html,<script>alert(1)</script>)', '<p><a>x</a></p>\n'],
      ['![p](data:image/png;base64,AAAA)', '<p><a>p</a></p>\n'],
      [
        '<a href="&#x6A;avascript:alert(1)">e</a> <a href="java&#9;script:x">t</a> <a href=" https://e.example/ " target="_self" onclick="x()">s</a>',
        `<p><a>e</a> <a>t</a> ${A('https://e.example/', 's')}</p>\n`,
      ],
      [
        '<a href="mailto:a@b.example">m</a> <a href="HTTPS://E.EXAMPLE/">u</a> <a href="//e.example/">r</a> <a href="/x">x</a>',
        `<p>${A('mailto:a@b.example', 'm')} ${A('HTTPS://E.EXAMPLE/', 'u')} <a>r</a> <a>x</a></p>\n`,
      ],
      // Nested tokens: the URL rule holds inside emphasis and raw formatting elements.
      [
        '**[x](javascript:1)** <b><i><a href="vbscript:x" title="t">y</a></i></b>',
        '<p><strong><a>x</a></strong> <b><i><a title="t">y</a></i></b></p>\n',
      ],
      // Scripts and what the inert document parses unlike the page: dropped with their content.
      ['<img src=x onerror=alert(1)>', ''],
      ['a <script>alert(1)</script> b', '<p>a  b</p>\n'],
      ['<svg><a href="https://e.example/">s</a><style>x</style></svg>t', '<p>t</p>\n'],
      ['<math><mi><a href="https://e.example/">m</a></mi></math>t', '<p>t</p>\n'],
      ['<xmp><img src=x onerror=alert(1)></xmp><template><img src=x></template>t', '<p></p>t<p></p>\n'],
      ['<!-- c --><p>x</p>', '<p>x</p>'],
      // Markup inside text-only elements stays text (escaped when serialized).
      [
        '<p>a<textarea><img src=x onerror=alert(1)></textarea></p>',
        '<p>a&lt;img src=x onerror=alert(1)&gt;</p>',
      ],
      // Forms, frames, media: gone, fallback text kept.
      [
        '<form action="https://e.example/"><input value="v"><button formaction="https://e.example/">b</button></form>',
        'b',
      ],
      [
        '<iframe src="https://e.example/">i</iframe><object data="https://e.example/">o</object><video poster="https://e.example/p"><source src="https://e.example/v"></video>',
        'o',
      ],
      // GFM tables and lists keep their structure attributes; handlers and styles go.
      [
        '| a | b |\n|:-|-:|\n| 1 | [l](https://e.example/) |',
        `<table>\n<thead>\n<tr>\n<th align="left">a</th>\n<th align="right">b</th>\n</tr>\n</thead>\n<tbody><tr>\n<td align="left">1</td>\n<td align="right">${A('https://e.example/', 'l')}</td>\n</tr>\n</tbody></table>\n`,
      ],
      ['3. x\n4. y', '<ol start="3">\n<li>x</li>\n<li>y</li>\n</ol>\n'],
      [
        '<ol start="3" onclick="x"><li lang="en" dir="rtl" style="x">x</li></ol>',
        '<ol start="3"><li lang="en" dir="rtl">x</li></ol>',
      ],
    ];
    for (const [input, expected] of cases) expect(renderMarkdown(input), input).to.equal(expected);
  });
});
