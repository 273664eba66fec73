// The terminal block on its own (updates given directly, no agent): agent output never becomes HTML
// (markup, a hyperlink escape, odd escapes), its colours come only from the theme's ANSI classes or
// rebuilt rgb() values, and a huge output draws only its end until "Show all".
import { expect } from 'chai';
import { TAIL_LINES } from '../../../components/transcript/rows/terminal-block.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import type { AgentSessionUpdate } from '../../../src/index.ts';
import { normalizeAll } from '../../../worker/normalize.ts';
import { until } from '../../support/until.ts';
import '../../../components/index.ts';
import { mount } from '../fixtures/dom.ts';
import { unmountAll } from '../fixtures/mount.ts';

afterEach(unmountAll);

const ESC = '\u001b';

/** A completed command whose terminal printed `data` (Codex's shape). */
function command(id: string, data: string): AgentSessionUpdate[] {
  return normalizeAll([
    {
      sessionUpdate: 'tool_call',
      toolCallId: id,
      kind: 'execute',
      title: 'run',
      status: 'in_progress',
      content: [{ type: 'terminal', terminalId: id }],
      _meta: { terminal_info: { terminal_id: id } },
    },
    {
      sessionUpdate: 'tool_call_update',
      toolCallId: id,
      _meta: { terminal_output_delta: { terminal_id: id, data } },
    },
    {
      sessionUpdate: 'tool_call_update',
      toolCallId: id,
      status: 'failed',
      _meta: { terminal_exit: { terminal_id: id, exit_code: null, signal: 'SIGTERM' } },
    },
  ]);
}

async function shown(
  updates: AgentSessionUpdate[],
  id: string,
): Promise<{ el: SiloTranscript; block: HTMLElement }> {
  const el = document.createElement('silo-transcript');
  el.updates = updates;
  mount(el, 700);
  const block = await until(
    () =>
      el
        .shadowRoot!.querySelector('[part="log"]')
        ?.querySelector<HTMLElement>(`:scope > .row figure[part="terminal"][data-terminal="${id}"]`),
    'the terminal block',
  );
  return { el, block };
}

describe('terminal block', () => {
  it('agent output is text: no element from its markup or a hyperlink escape; colours only from ANSI classes and rgb()', async () => {
    const data =
      `<img src=x onerror="window.__pwned=1"><b>bold?</b>\n` +
      `${ESC}]8;;javascript:alert(1)${ESC}\\click me${ESC}]8;;${ESC}\\\n` +
      `${ESC}[38;2;10;20;30mtrue colour${ESC}[0m ${ESC}[1;4;31mloud${ESC}[0m ${ESC}[2Kcleared${ESC}[?25l\n`;
    const { block } = await shown(command('c1', data), 'c1');
    const out = await until(() => {
      const o = block.querySelector<HTMLElement>('[part="terminal-output"]');
      return o?.querySelector('.ansi-red-fg') ? o : undefined;
    }, 'coloured');
    expect(out.querySelector('img, b, a, script')).to.equal(null);
    expect((window as { __pwned?: number }).__pwned).to.equal(undefined);
    expect(out.textContent).to.equal(
      '<img src=x onerror="window.__pwned=1"><b>bold?</b>\nclick me\ntrue colour loud cleared\n',
    );
    for (const span of Array.from(out.querySelectorAll('span'))) {
      for (const c of Array.from(span.classList)) expect(c).to.match(/^ansi-[a-z-]+$/);
      const style = span.getAttribute('style') ?? '';
      expect(style).to.match(/^(?:(?:color|background-color): rgb\(\d+, \d+, \d+\)(?:; )?)*$/);
    }
    expect(out.querySelector('[style]')!.textContent).to.equal('true colour');
    const loud = out.querySelector('.ansi-red-fg')!;
    expect(loud.textContent).to.equal('loud');
    expect(Array.from(loud.classList).sort()).to.deep.equal(['ansi-bold', 'ansi-red-fg', 'ansi-underline']);
    // Ended by a signal, no exit code.
    expect(block.querySelector('[part="terminal-exit"] span')!.textContent!.trim()).to.equal(
      'Ended by SIGTERM',
    );
  });

  it('a huge output draws only its last lines, says how much is not drawn, and "Show all" draws it', async () => {
    const total = TAIL_LINES * 3;
    const data = Array.from({ length: total }, (_, i) => `line ${i + 1}\n`).join('');
    const { block } = await shown(command('big', data), 'big');
    const out = block.querySelector<HTMLElement>('[part="terminal-output"]')!;
    const lines = () => out.textContent!.split('\n').filter(Boolean);
    expect(lines()).to.have.length(TAIL_LINES);
    expect(lines()[0]).to.equal(`line ${total - TAIL_LINES + 1}`);
    expect(lines().at(-1)).to.equal(`line ${total}`);
    const earlier = block.querySelector('[part="terminal-earlier"]')!;
    const hidden = data.length - data.indexOf(`line ${total - TAIL_LINES + 1}\n`);
    expect(earlier.textContent).to.include(
      `${(data.length - hidden).toLocaleString('en')} earlier characters not shown`,
    );
    block.querySelector<HTMLButtonElement>('[part="terminal-show-all"]')!.click();
    await until(() => lines().length === total, 'every line drawn');
    expect(block.querySelector('[part="terminal-earlier"]')).to.equal(null);
  });
});
