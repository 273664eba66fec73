// The rendering bounds of agent text (components/content/text-budget.ts): where Markdown ends, how
// plain text is cut into pieces, and that both read no more of a huge text than the limits allow.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HUGE_TEXT_SHAPES, hugeText } from '../../agent/huge-text.ts';
import {
  clipLabel,
  lineDepth,
  MARKDOWN_LIMITS,
  markdownCut,
  PIECE_CHARS,
  plainCut,
  plainPieces,
} from '../../components/content/text-budget.ts';

const L = MARKDOWN_LIMITS;

describe('markdownCut', () => {
  test('keeps a text within the limits whole', () => {
    const text =
      '# Title\n\nA paragraph with *emphasis* and `code`.\n\n- one\n  - two\n\n```ts\nconst a = 1;\n```\n';
    assert.equal(markdownCut(text), text.length);
    assert.equal(markdownCut(''), 0);
  });

  test('cuts before the line that passes the characters', () => {
    const line = `${'word '.repeat(15)}\n`;
    const text = line.repeat(Math.ceil((L.chars * 2) / line.length));
    const cut = markdownCut(text);
    assert.ok(cut <= L.chars && cut > L.chars - line.length, String(cut));
    assert.equal(cut % line.length, 0, 'at a line start');
  });

  test('cuts before a line longer than lineChars, even the first', () => {
    assert.equal(markdownCut('x'.repeat(L.lineChars + 1)), 0);
    assert.equal(markdownCut('x'.repeat(L.lineChars)), L.lineChars);
    assert.equal(markdownCut(`short\n${'x'.repeat(L.lineChars + 1)}\nafter`), 'short\n'.length);
  });

  test('cuts before a line nested deeper than depth, and when the nesting adds up past depthSum', () => {
    const deep = Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n');
    const cut = markdownCut(deep);
    const kept = deep.slice(0, cut).split('\n').filter(Boolean);
    assert.equal(lineDepth(kept.at(-1)!), L.depth, 'the deepest line kept is at the limit');
    assert.equal(lineDepth(`${'> '.repeat(5)}- - x`), 7);
    assert.equal(lineDepth('    code, not a list'), 0);
    const wide = `${'- '.repeat(L.depth)}x\n`;
    const sum = markdownCut(wide.repeat(L.depthSum), { ...L, elements: Number.POSITIVE_INFINITY });
    assert.equal(sum, wide.length * Math.floor(L.depthSum / L.depth));
    // Each of those lines is also 25 elements (a block, two per level): that limit comes first.
    assert.equal(markdownCut(wide.repeat(L.depthSum)), wide.length * Math.floor(L.elements / 25));
  });

  test('cuts when the estimated elements pass the limit: cells, emphasis, links', () => {
    const row = '|a|b|c|d|\n';
    const cut = markdownCut(`|h|h|h|h|\n|-|-|-|-|\n${row.repeat(2000)}`);
    assert.ok(cut < row.length * 500, `a table of 2,000 rows is cut (at ${cut})`);
    const em = `- ${'*a* '.repeat(7)}\n`;
    assert.ok(markdownCut(em.repeat(1000)) < em.length * 300);
  });

  test('counts fenced code as characters only, but not past what could end it', () => {
    const code = `\`\`\`ts\n${'const a_b = x[i] * y | z; // <T>\n'.repeat(900)}\`\`\`\n`;
    assert.ok(code.length < L.chars);
    assert.equal(markdownCut(code), code.length, 'a 30 KB code block is Markdown whole');
    // Code in a list item ends where a less indented line ends the item: those lines count again.
    const escaped = `- item\n  \`\`\`\n  code\n${'|a|b|c|d|e|f|g|h|\n'.repeat(1000)}`;
    assert.ok(markdownCut(escaped) < escaped.length);
    // A fence indented 4 or more is not a fence: its lines count.
    const fake = `    \`\`\`\n${'|a|b|c|d|e|f|g|h|\n'.repeat(1000)}`;
    assert.ok(markdownCut(fake) < fake.length);
  });

  test('reads no further than the limits: every hostile shape costs what its first 32 KiB cost', () => {
    for (const shape of HUGE_TEXT_SHAPES) {
      const text = hugeText(shape);
      const t0 = performance.now();
      const cut = markdownCut(text);
      const ms = performance.now() - t0;
      assert.ok(cut <= L.chars, `${shape}: Markdown part ${cut} ≤ ${L.chars}`);
      assert.ok(ms < 200, `${shape}: ${ms.toFixed(1)} ms`);
    }
  });
});

describe('plainPieces', () => {
  test('cuts plain text into pieces that join back into it, at newlines where it can', () => {
    const text = `${'a line of text\n'.repeat(1000)}${'x'.repeat(10_000)}`;
    const pieces = plainPieces(text);
    assert.equal(pieces.join(''), text);
    assert.ok(pieces.every((p) => p.length <= PIECE_CHARS));
    assert.ok(
      pieces.slice(0, 3).every((p) => p.endsWith('\n')),
      'lines stay whole',
    );
    assert.deepEqual(plainPieces(text, 10).join(''), text.slice(10));
    assert.deepEqual(plainPieces(''), []);
  });

  test('never splits a surrogate pair', () => {
    const text = `x${'😀'.repeat(5000)}`;
    for (const p of plainPieces(text)) {
      assert.notEqual(p.charCodeAt(p.length - 1) & 0xfc00, 0xd800, 'no piece ends in a high surrogate');
    }
    assert.equal(plainPieces(text).join(''), text);
    const cut = plainCut(`x${'😀'.repeat(40_000)}`);
    assert.ok(cut % 2 === 1, 'the shown part ends after a whole pair');
  });

  test('labels are clipped with an ellipsis', () => {
    assert.equal(clipLabel('short'), 'short');
    assert.equal(clipLabel('x'.repeat(5000)), `${'x'.repeat(1000)}…`);
  });
});
