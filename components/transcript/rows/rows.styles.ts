/**
 * Styles of `<silo-transcript>`'s rows, in the rows' chunk (imported by transcript/rows/log.ts only): rows,
 * message bubbles, Markdown and thoughts here; cards in `transcript/rows/cards.styles.ts`, tool cards, diffs
 * and the highlighter's colors in `transcript/rows/tool-card.styles.ts`, copy buttons in `content/copy.styles.ts`, long text in `content/long-text.styles.ts`. A transcript adopts
 * them, after its own, when it first renders with the chunk (transcript/log.lazy.ts).
 * @packageDocumentation
 */
import { type CSSResult, css } from 'lit';
import { copyStyles } from '../../content/copy.styles.ts';
import { longTextStyles } from '../../content/long-text.styles.ts';
import { transcriptCardStyles } from './cards.styles.ts';
import { subagentStyles } from './subagent.styles.ts';
import { terminalStyles } from './terminal.styles.ts';
import { toolCardStyles } from './tool-card.styles.ts';

/** Rows, bubbles, Markdown and thoughts (after the frame's `transcriptStyles`, whose variables they use). */
export const transcriptRowBaseStyles = css`
  .row {
    width: 100%;
    padding: calc(var(--_space) / 2) var(--_space);
    max-width: var(--silo-content-max-width, 100%);
    overflow-wrap: anywhere;
  }
  .row:focus-visible {
    outline-offset: -2px;
  }
  .msg.user {
    display: flex;
    justify-content: flex-end;
  }
  .bubble {
    max-width: 100%;
  }
  .msg.user .bubble {
    background: var(--_user-bg);
    border-radius: var(--_radius);
    padding: 8px 12px;
    max-width: min(85%, 48rem);
  }
  .msg.agent .bubble {
    background: var(--_agent-bg);
  }
  .who {
    display: flex;
    gap: 8px;
    align-items: baseline;
    font-size: 0.8em;
    font-weight: 600;
    color: var(--_muted);
  }
  .who time {
    font-weight: normal;
  }
  .plain {
    white-space: pre-wrap;
  }
  .md > :first-child,
  .md > .md-group:first-child > :first-child {
    margin-top: 0.2em;
  }
  .md > :last-child {
    margin-bottom: 0;
  }
  .md p,
  .md ul,
  .md ol,
  .md pre,
  .md blockquote,
  .md table {
    margin: 0.5em 0;
  }
  .md h1,
  .md h2,
  .md h3,
  .md h4 {
    font-size: 1.05em;
    margin: 0.8em 0 0.3em;
  }
  .md a,
  .resource a {
    color: var(--_accent);
  }
  .md code,
  code {
    font-family: var(--_mono);
    font-size: 0.92em;
  }
  .md :not(pre) > code {
    background: var(--_code-bg);
    padding: 0.1em 0.35em;
    border-radius: 4px;
  }
  pre {
    background: var(--_code-bg);
    border-radius: calc(var(--_radius) * 0.7);
    padding: 8px 10px;
    overflow-x: auto;
    margin: 0.5em 0;
  }
  .md blockquote {
    border-inline-start: 3px solid var(--_border);
    padding-inline-start: 10px;
    color: var(--_muted);
  }
  .md table {
    border-collapse: collapse;
  }
  .md th,
  .md td {
    border: 1px solid var(--_border);
    padding: 2px 8px;
  }
  .thought {
    color: var(--_muted);
    font-size: 0.92em;
    border-inline-start: 2px solid var(--_border);
    padding-inline-start: 10px;
  }
  .thought summary {
    cursor: pointer;
    font-style: italic;
  }
`;

/** Every style of the rows, in order. */
export const rowStyles: readonly CSSResult[] = [
  transcriptRowBaseStyles,
  transcriptCardStyles,
  toolCardStyles,
  terminalStyles,
  subagentStyles,
  copyStyles,
  longTextStyles,
];
