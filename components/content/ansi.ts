/**
 * Terminal output with its ANSI colours, loaded on demand (`import()` in content/ansi.lazy.ts, its own
 * chunk): `ansi_up` turns the escape sequences into HTML, which is never put into the page. It is
 * parsed in an inert `<template>` and read back as runs of text ({@link AnsiRun}) with only the
 * `ansi-*` colour classes `ansi_up` writes, a bold / faint / italic / underline flag, and an RGB
 * colour rebuilt from its numbers; links (OSC 8) keep their text only, whatever their scheme. Whatever the agent sent, only
 * text (escaped wherever it is drawn), those class names and `rgb(n, n, n)` values come out.
 * @packageDocumentation
 */
import { AnsiUp } from 'ansi_up';

/** One run of output in one style. */
export interface AnsiRun {
  readonly text: string;
  /** Space-separated: `ansi-<colour>-fg`, `ansi-<colour>-bg` (the 16 colours), `ansi-bold`, `ansi-faint`, `ansi-italic`, `ansi-underline`. */
  readonly classes: string;
  /** `color: rgb(…)` and `background-color: rgb(…)` for 256-colour and true-colour runs, else ''. */
  readonly style: string;
}

const COLOUR_CLASS = /^ansi-(?:bright-)?(?:black|red|green|yellow|blue|magenta|cyan|white)-(?:fg|bg)$/;
const RGB = /^rgb\((\d{1,3}),\s*(\d{1,3}),\s*(\d{1,3})\)$/;
const FLAGS: readonly [string, RegExp][] = [
  ['ansi-bold', /^font-weight:\s*bold$/],
  ['ansi-faint', /^opacity:/],
  ['ansi-italic', /^font-style:\s*italic$/],
  ['ansi-underline', /^text-decoration:\s*underline$/],
];

/** An RGB colour rebuilt from its three numbers (each 0–255), or undefined. */
function rgb(value: string): string | undefined {
  const m = RGB.exec(value.trim());
  if (!m) return undefined;
  const n = m.slice(1, 4).map(Number);
  return n.every((x) => x <= 255) ? `rgb(${n.join(', ')})` : undefined;
}

/** The run a span of `ansi_up`'s output stands for. */
function runOf(span: Element): AnsiRun {
  const classes = (span.getAttribute('class') ?? '').split(/\s+/).filter((c) => COLOUR_CLASS.test(c));
  const styles: string[] = [];
  for (const decl of (span.getAttribute('style') ?? '').split(';')) {
    const [name = '', ...rest] = decl.split(':');
    const prop = name.trim();
    const value = rest.join(':');
    const flag = FLAGS.find(([, test]) => test.test(`${prop}:${value.trim()}`));
    if (flag) classes.push(flag[0]);
    const colour = prop === 'color' || prop === 'background-color' ? rgb(value) : undefined;
    if (colour) styles.push(`${prop}: ${colour}`);
  }
  return { text: span.textContent ?? '', classes: classes.join(' '), style: styles.join('; ') };
}

/**
 * The runs of `output`: its text in order, each with the style its escape sequences gave it (other
 * sequences, cursor moves and the like, are dropped). A fresh converter each call: no state carries
 * from one output to another. Never throws on any input.
 */
export function ansiRuns(output: string): AnsiRun[] {
  const converter = new AnsiUp();
  converter.use_classes = true;
  // Every scheme passes, so that a link's text is kept (ansi_up drops the text of one it refuses);
  // the link itself never is: only its text is read back.
  converter.url_allowlist = new Proxy({}, { get: () => 1 });
  const template = document.createElement('template');
  template.innerHTML = converter.ansi_to_html(output);
  const runs: AnsiRun[] = [];
  for (const node of Array.from(template.content.childNodes)) {
    if (node.nodeType === Node.TEXT_NODE) runs.push({ text: node.textContent ?? '', classes: '', style: '' });
    else if (node instanceof Element && node.localName === 'span') runs.push(runOf(node));
    else runs.push({ text: node.textContent ?? '', classes: '', style: '' });
  }
  return runs;
}
