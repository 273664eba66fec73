// Tool cards in <silo-transcript>, in a real browser: one line per call that opens and closes by
// keyboard, +/− counts and line numbers of a known diff, a permission drawn inside its call's card and
// answered by keyboard, output never cut, and code that shows as plain text at once and is highlighted
// once the lazily loaded highlighter arrives. The first test must stay first: it watches the
// highlighter's first load in this page.
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import { expect } from 'chai';
import { expectAccessible } from '../fixtures/axe.ts';
import '../../../components/index.ts';
import { loadHighlighter } from '../../../components/content/highlighter.chunk.ts';
import { loadDiffer } from '../../../components/content/line-diff.chunk.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import type { AgentPermissionRequest } from '../../../src/api.ts';
import type { AgentSessionUpdate } from '../../../src/types.ts';
import { until } from '../../support/until.ts';
import { mount } from '../fixtures/dom.ts';
import { chunk, permissionRow, TestPermission, tool, userPrompt } from '../fixtures/transcript-data.ts';

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

async function show(updates: readonly AgentSessionUpdate[]): Promise<SiloTranscript> {
  const el = document.createElement('silo-transcript');
  el.updates = updates;
  cleanup = mount(el, 700);
  await el.updateComplete;
  await until(() => el.shadowRoot!.querySelector('.row'), 'rows rendered');
  return el;
}

/** The innermost focused element, through shadow roots. */
function deepActive(): Element | null {
  let a: Element | null = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a;
}

const card = (el: SiloTranscript, key: string) =>
  el.shadowRoot!.querySelector<HTMLElement>(`.row[data-key="${key}"]`);

/** An edit of a.ts: line 2 changed, line 4 added (old 3 lines, new 4). */
const EDIT = {
  toolCallId: 'edit-1',
  title: 'Edit a.ts',
  kind: 'edit',
  status: 'completed',
  content: [
    {
      type: 'diff',
      path: '/src/a.ts',
      oldText: 'const a = 1;\nlet b = 2;\nexport { a };\n',
      newText: 'const a = 1;\nconst b = 3;\nexport { a };\nexport { b };\n',
    },
  ],
};

describe('tool cards', () => {
  it('code shows as plain text at once, then highlighted once the highlighter is loaded', async () => {
    const source = 'const answer: number = 42; // the answer';
    // The Markdown chunk is in (fixtures/dom.ts), so the code block is in the first render.
    const el = await show([userPrompt('code', 'u'), chunk(`Here:\n\n\`\`\`ts\n${source}\n\`\`\`\n`, 'm')]);
    const code = el.shadowRoot!.querySelector<HTMLElement>('.md pre > code')!;
    // First paint: the text, as written, with no highlighting yet (the highlighter is still loading).
    expect(code.textContent).to.equal(`${source}\n`);
    expect(code.querySelector('span')).to.equal(null);
    await until(() => code.querySelector('span.hljs-keyword'), 'highlighted');
    expect(
      Array.from(code.querySelectorAll('span[class^="hljs-"]'), (s) => [s.className, s.textContent]),
    ).to.deep.include.members([
      ['hljs-keyword', 'const'],
      ['hljs-built_in', 'number'],
      ['hljs-number', '42'],
      ['hljs-comment', '// the answer'],
    ]);
    // Copying takes the text, unchanged by the highlighting.
    expect(code.textContent).to.equal(`${source}\n`);
  });

  it('a completed call is one closed line that opens and closes by keyboard; a failed one starts open', async () => {
    const el = await show([
      userPrompt('edit', 'u'),
      tool(EDIT, true),
      tool(
        { toolCallId: 'bad', title: 'npm test', kind: 'execute', status: 'failed', rawOutput: 'boom' },
        true,
      ),
    ]);
    const row = card(el, 't:edit-1')!;
    const details = row.querySelector('details')!;
    const summary = details.querySelector('summary')!;
    expect(details.open, 'completed: closed').to.equal(false);
    expect(summary.querySelector('[part="tool-title"]')!.textContent).to.equal('Edit a.ts');
    expect(summary.querySelector('[part="tool-status"]')!.textContent).to.equal('Completed');
    expect(card(el, 't:bad')!.querySelector('details')!.open, 'failed: open').to.equal(true);
    summary.focus();
    expect(deepActive()).to.equal(summary);
    await sendKeys({ press: 'Enter' });
    await until(() => details.open, 'opened by Enter');
    expect(row.querySelector<HTMLElement>('[part="diff"]')!.offsetHeight).to.be.greaterThan(0);
    await sendKeys({ type: ' ' });
    await until(() => !details.open, 'closed by Space');
  });

  it('writes out the +/− counts and the old and new line numbers of a known diff', async () => {
    const el = await show([userPrompt('edit', 'u'), tool(EDIT, true)]);
    const row = card(el, 't:edit-1')!;
    const counts = await until(() => row.querySelector('summary [part="tool-counts"]'), 'counts');
    expect(counts.querySelector('.plus')!.textContent).to.equal('+2');
    expect(counts.querySelector('.minus')!.textContent).to.equal('−1');
    expect(counts.querySelector('.sr-only')!.textContent).to.equal('2 lines added, 1 removed');
    const lines = await until(() => {
      const found = Array.from(row.querySelectorAll<HTMLElement>('.line'));
      return found.length === 5 ? found : undefined;
    }, 'diff lines');
    const numbers = lines.map((l) => {
      const ln = l.querySelector('.ln')!;
      return [l.className.replace('line ', ''), ln.getAttribute('data-old'), ln.getAttribute('data-new')];
    });
    expect(numbers).to.deep.equal([
      ['ctx', '1', '1'],
      ['del', '2', ''],
      ['add', '', '2'],
      ['ctx', '3', '3'],
      ['add', '', '4'],
    ]);
    // Drawn by CSS (never part of the copied text), and not selectable.
    const ln = lines[4]!.querySelector('.ln')!;
    // (Chromium resolves the pseudo-element's content, Firefox reports the attr() it comes from.)
    expect(getComputedStyle(ln, '::after').content).to.be.oneOf(['"4"', 'attr(data-new)']);
    expect(ln.getBoundingClientRect().width).to.be.greaterThan(0);
    expect(getComputedStyle(ln).userSelect).to.equal('none');
    expect(ln.textContent).to.equal('');
    // The diff's lines are highlighted as TypeScript (a.ts).
    await until(() => lines[4]!.querySelector('span.hljs-keyword'), 'diff highlighted');
    expect(lines[4]!.querySelector('span.hljs-keyword')!.textContent).to.equal('export');
  });

  it('never cuts output: 30,000 characters of it are all there, wrapped inside the card', async () => {
    const output = `${'x'.repeat(29_990)}0123456789`;
    const el = await show([
      userPrompt('run', 'u'),
      tool(
        { toolCallId: 'long', title: 'cat big', kind: 'execute', status: 'failed', rawOutput: output },
        true,
      ),
    ]);
    const pre = card(el, 't:long')!.querySelector<HTMLElement>('[part="tool-output"]')!;
    expect(pre.textContent).to.equal(output);
    expect(getComputedStyle(pre).whiteSpace).to.equal('pre-wrap');
  });

  it('draws a permission inside its tool call’s card, with no row of its own, answered by keyboard', async () => {
    const el = await show([
      userPrompt('delete it', 'u'),
      tool({ toolCallId: 'rm', title: 'rm -rf build', kind: 'delete', status: 'pending' }, true),
    ]);
    const req = new TestPermission(
      'perm-k',
      { toolCallId: 'rm', title: 'Delete the build', rawInput: { command: ['rm', '-rf', 'build'] } },
      [
        { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
        { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'no', name: 'Reject', kind: 'reject_once' },
      ],
    );
    el.appendUpdates([permissionRow(req)]);
    el.permissionRequests = [req];
    const prompt = await until(
      () =>
        card(el, 't:rm')?.querySelector<HTMLElement>('details[open] [data-prompt="perm-k"][data-pending]'),
      'the prompt inside the open card',
    );
    expect(el.shadowRoot!.querySelectorAll('[part~="row"][part~="permission"]')).to.have.length(0);
    expect(el.shadowRoot!.querySelectorAll('.row')).to.have.length(2);
    const buttons = Array.from(prompt.querySelectorAll('button'));
    expect(buttons.map((b) => [b.textContent!.trim(), b.classList.contains('primary')])).to.deep.equal([
      ['Always allow', false],
      ['Allow once', true],
      ['Reject', false],
    ]);
    expect(prompt.getAttribute('aria-keyshortcuts')).to.equal('Y N Escape');
    // The preview: what the agent asks, and the command it would run.
    expect(prompt.querySelector('.ask')!.textContent).to.equal('The agent asks permission: Delete the build');
    expect(prompt.querySelector('[part="permission-command"]')!.textContent).to.equal('rm -rf build');
    await until(() => deepActive() === prompt, 'focus on the prompt in the card');
    await sendKeys({ press: 'y' });
    await until(() => req.chosen.length > 0, 'answered');
    expect(req.chosen).to.deep.equal(['once']);
    await until(
      () => prompt.querySelector('[part="permission-resolution"]')?.textContent?.includes('Allow once'),
      'the answer shown in the card',
    );
  });

  it('Y and N choose by kind: "once" before any other, else the first allow or reject option', async () => {
    const cases: [string, AgentPermissionRequest['options'], string][] = [
      [
        'n',
        [
          { optionId: 'never', name: 'Always reject', kind: 'reject_always' },
          { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
          { optionId: 'no', name: 'Reject', kind: 'reject_once' },
          { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
        ],
        'no',
      ],
      [
        'y',
        [
          { optionId: 'never', name: 'Always reject', kind: 'reject_always' },
          { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
          { optionId: 'no', name: 'Reject', kind: 'reject_once' },
          { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
        ],
        'once',
      ],
      [
        'n',
        [
          { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
          { optionId: 'never', name: 'Always reject', kind: 'reject_always' },
        ],
        'never',
      ],
      [
        'y',
        [
          { optionId: 'never', name: 'Always reject', kind: 'reject_always' },
          { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
        ],
        'always',
      ],
    ];
    for (const [key, options, want] of cases) {
      const el = await show([
        userPrompt('delete it', 'u'),
        tool({ toolCallId: 'rm', title: 'rm -rf build', kind: 'delete', status: 'pending' }, true),
      ]);
      const req = new TestPermission(`perm-${key}-${want}`, { toolCallId: 'rm', title: 'Delete' }, options);
      el.appendUpdates([permissionRow(req)]);
      el.permissionRequests = [req];
      const prompt = await until(
        () => card(el, 't:rm')?.querySelector<HTMLElement>(`[data-prompt="${req.id}"][data-pending]`),
        'the live prompt',
      );
      await until(() => deepActive() === prompt, 'focus on the prompt');
      await sendKeys({ press: key });
      await until(() => req.chosen.length > 0, `${key} answered`);
      expect(req.chosen, `${key} among ${options.map((o) => o.kind).join(', ')}`).to.deep.equal([want]);
      cleanup?.();
      cleanup = undefined;
    }
  });

  it('passes axe, light (and dark in Chromium): open cards with highlighted diffs and code that scroll, a live permission in its card', async () => {
    await Promise.all([loadHighlighter(), loadDiffer()]);
    const long = `const long = '${'x'.repeat(300)}';`;
    const el = await show([
      userPrompt('edit', 'u'),
      chunk(`Look:\n\n\`\`\`ts\nconst a: number = 1; // one\n${long}\nexport { a };\n\`\`\`\n`, 'm'),
      tool(EDIT, true),
      tool(
        {
          toolCallId: 'bad',
          title: 'npm test',
          kind: 'execute',
          status: 'failed',
          rawOutput: `${'boom\n'.repeat(100)}${long}`,
        },
        true,
      ),
      tool(
        {
          ...EDIT,
          toolCallId: 'edit-long',
          title: 'Edit b.ts',
          content: [{ type: 'diff', path: '/src/b.ts', oldText: 'a\n', newText: `a\n${long}\n` }],
        },
        true,
      ),
      tool({ toolCallId: 'rm', title: 'rm -rf build', kind: 'delete', status: 'pending' }, true),
    ]);
    const req = new TestPermission('perm-axe', { toolCallId: 'rm', title: 'rm -rf build' }, [
      { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    ]);
    el.appendUpdates([permissionRow(req)]);
    el.permissionRequests = [req];
    await until(
      () => card(el, 't:rm')?.querySelector('details[open] [data-pending]'),
      'live prompt in its card',
    );
    card(el, 't:edit-1')!.querySelector('details')!.open = true;
    card(el, 't:edit-long')!.querySelector('details')!.open = true;
    await until(() => card(el, 't:edit-1')!.querySelector('.line.add span.hljs-keyword'), 'diff highlighted');
    await until(() => el.shadowRoot!.querySelector('.md code span.hljs-keyword'), 'code highlighted');
    // What scrolls can be reached by keyboard (axe's scrollable-region-focusable): the code block
    // with its long line, the long output, the diff with its long line.
    const scrolling = [
      el.shadowRoot!.querySelector('.md pre'),
      card(el, 't:bad')!.querySelector('pre.raw-output'),
      await until(() => card(el, 't:edit-long')!.querySelector('.lines'), 'long diff drawn'),
    ];
    for (const [i, e] of scrolling.entries()) {
      expect(
        e!.scrollWidth > e!.clientWidth || e!.scrollHeight > e!.clientHeight,
        `region ${i} scrolls`,
      ).to.equal(true);
      expect((e as HTMLElement).tabIndex, `region ${i} is in the tab order`).to.equal(0);
    }
    const check = async (scheme: string) => {
      await expectAccessible(el, scheme);
    };
    await check('light');
    // Dark needs the color scheme emulated, which only Chromium's test driver (CDP) can do here.
    if (!navigator.userAgent.includes('Firefox')) {
      await emulateMedia({ colorScheme: 'dark' });
      try {
        await check('dark');
      } finally {
        await emulateMedia({ colorScheme: 'light' });
      }
    }
  });
});
