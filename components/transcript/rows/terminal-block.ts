/**
 * A command's terminal in its tool card: the output with its ANSI colours (content/ansi.lazy.ts; plain
 * text until the chunk is in), then how it ended (exit code or signal) or that it still runs. The
 * output scrolls inside the block and follows its bottom while it grows, until the user scrolls up
 * in it (back at the bottom, it follows again). However long the output, only its end is drawn (the
 * last {@link TAIL_LINES} lines, at most {@link TAIL_CHARS} characters), with a note saying how much
 * is not and "Show all" (which draws up to {@link ALL_CHARS}); Copy copies the whole output.
 * @packageDocumentation
 */
import { type ElementPart, html, noChange, nothing, type TemplateResult } from 'lit';
import { AsyncDirective } from 'lit/async-directive.js';
import { Directive, directive, type PartInfo, PartType } from 'lit/directive.js';
import { overwriteLines, type TerminalState } from '../../../src/index.ts';
import { ansiText } from '../../content/ansi.lazy.ts';
import { copyButton } from '../../content/copy.ts';
import { formatNumber } from '../../shared/format.ts';
import { ALL_CHARS, TAIL_CHARS, TAIL_LINES } from '../../shared/terminal-limits.ts';
import type { RowContext } from './row-context.ts';

export { ALL_CHARS, TAIL_CHARS, TAIL_LINES } from '../../shared/terminal-limits.ts';

/** Terminals the user asked to see whole, by row key and terminal id (bounded: the oldest goes first). */
const shownWhole = new Set<string>();
const SHOWN_WHOLE_CAPACITY = 200;

/** Where the drawn part of `output` starts: at most `chars` and `lines` from its end, at a line start. */
export function tailStart(output: string, chars: number, lines: number): number {
  let start = Math.max(0, output.length - chars);
  // A final newline ends the last line rather than starting one.
  let at = output.endsWith('\n') ? output.length - 1 : output.length;
  for (let n = 0; n < lines && at > start; n++) {
    const nl = output.lastIndexOf('\n', at - 1);
    if (nl < start) break;
    at = nl;
    if (n === lines - 1) start = nl + 1;
  }
  if (start > 0 && output[start - 1] !== '\n') {
    const nl = output.indexOf('\n', start);
    if (nl >= 0 && nl < output.length - 1) start = nl + 1;
  }
  return start;
}

/** Scroll state of each output element: whether it follows its bottom. */
const following = new WeakMap<HTMLElement, { follow: boolean }>();

/**
 * On a scrolling element: after each render, scrolls it to its bottom unless the user scrolled up in
 * it (a scroll that leaves it short of its bottom stops the following; one back to it resumes it).
 */
class FollowBottom extends Directive {
  constructor(part: PartInfo) {
    super(part);
    if (part.type !== PartType.ELEMENT) throw new Error('followBottom() goes on an element');
  }
  render(): unknown {
    return noChange;
  }
  override update(part: ElementPart): unknown {
    const el = part.element as HTMLElement;
    let state = following.get(el);
    if (!state) {
      const s = { follow: true };
      state = s;
      following.set(el, s);
      el.addEventListener(
        'scroll',
        () => {
          s.follow = el.scrollHeight - el.scrollTop - el.clientHeight < 4;
        },
        { passive: true },
      );
    }
    const s = state;
    // The element's content renders after this part: scroll once the render is done.
    queueMicrotask(() => {
      if (s.follow && el.isConnected) el.scrollTop = el.scrollHeight;
    });
    return noChange;
  }
}
const followBottom = directive(FollowBottom);

/** `running`, `ok` (exit code 0), `failed` (another code, or a signal), or `ended` (neither known). */
export function terminalStatus(t: TerminalState): 'running' | 'ok' | 'failed' | 'ended' {
  if (!t.exited) return 'running';
  if (t.signal || (typeof t.exitCode === 'number' && t.exitCode !== 0)) return 'failed';
  return t.exitCode === 0 ? 'ok' : 'ended';
}

/** How the command ended, or that it runs. */
export function ending(t: TerminalState, ctx: RowContext): string {
  const s = ctx.strings;
  if (!t.exited) return s.terminalRunning;
  if (t.signal) return s.terminalSignal(t.signal);
  if (typeof t.exitCode === 'number') return s.terminalExit(formatNumber(t.exitCode, ctx.locale));
  return s.terminalEnded;
}

/**
 * The terminal's content, as a directive so that "Show all" redraws this block alone (no render of the
 * element that holds it).
 */
class TerminalView extends AsyncDirective {
  #args: [TerminalState, string, RowContext] | undefined;

  render(t: TerminalState, rowKey: string, ctx: RowContext): unknown {
    this.#args = [t, rowKey, ctx];
    return this.view(t, rowKey, ctx);
  }

  private view(t: TerminalState, rowKey: string, ctx: RowContext): TemplateResult {
    const s = ctx.strings;
    const id = `${rowKey}\n${t.id}`;
    const whole = shownWhole.has(id);
    const start = whole
      ? tailStart(t.output, ALL_CHARS, Number.POSITIVE_INFINITY)
      : tailStart(t.output, TAIL_CHARS, TAIL_LINES);
    const shown = overwriteLines(start > 0 ? t.output.slice(start) : t.output);
    const showAll = () => {
      shownWhole.add(id);
      if (shownWhole.size > SHOWN_WHOLE_CAPACITY) shownWhole.delete(shownWhole.values().next().value!);
      if (this.#args) this.setValue(this.view(...this.#args));
    };
    return html`${
      start > 0
        ? html`<div class="terminal-earlier" part="terminal-earlier">
            <span>${s.terminalEarlier(formatNumber(start, ctx.locale))}</span>
            ${whole ? nothing : html`<button type="button" part="terminal-show-all" @click=${showAll}>${s.terminalShowAll}</button>`}
          </div>`
        : nothing
    }
      <pre class="terminal-output" part="terminal-output" tabindex="0" aria-label=${s.terminal(t.id)} ${followBottom()}><code>${ansiText(shown)}</code></pre>
      <figcaption class="terminal-status" part="terminal-exit" data-exit-code=${t.exitCode ?? ''}>
        <span>${ending(t, ctx)}</span>
        ${t.output ? copyButton(() => t.output, s) : nothing}
      </figcaption>`;
  }
}
const terminalView = directive(TerminalView);

/** One terminal of the card with key `rowKey`. */
export function terminalBlock(t: TerminalState, rowKey: string, ctx: RowContext): TemplateResult {
  return html`<figure class="terminal" part="terminal" data-terminal=${t.id} data-status=${terminalStatus(t)}>
    ${terminalView(t, rowKey, ctx)}
  </figure>`;
}
