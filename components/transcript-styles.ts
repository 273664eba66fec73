/**
 * Styles of `<silo-transcript>` (see its class docs for the public custom properties and parts): the
 * layout, message bubbles and Markdown; the cards (tools, diffs, plan, notices, prompts, turn ends)
 * are in `transcript-card-styles.ts`.
 * @packageDocumentation
 */
import { type CSSResultGroup, css } from 'lit';
import { toolCardStyles } from './tool-card-styles.ts';
import { transcriptCardStyles } from './transcript-card-styles.ts';

/** The layout, usage header, log, rows, bubbles and Markdown. */
export const transcriptBaseStyles = css`
  :host {
    display: flex;
    flex-direction: column;
    position: relative;
    height: 100%;
    min-height: var(--silo-transcript-min-height, 16rem);
    overflow: hidden;
  }
  .usage {
    display: flex;
    align-items: center;
    gap: 8px;
    padding: 6px var(--_space);
    border-bottom: 1px solid var(--_border);
    font-size: 0.85em;
    color: var(--_muted);
    flex: none;
  }
  .usage meter {
    width: 8rem;
    height: 0.6rem;
  }
  .cost {
    margin-inline-start: auto;
  }
  /* The virtualizer sets the same inline (position, contain, overflow, min-height) once the rows chunk
     is in: here they hold for the frame before it, so the log's box does not move when it arrives. */
  .log {
    flex: 1 1 auto;
    position: relative;
    contain: size layout;
    min-height: 150px;
    overflow: auto;
    outline-offset: -2px;
  }
  .empty {
    position: absolute;
    inset-inline: 0;
    top: 3rem;
    text-align: center;
    padding: var(--_space);
    color: var(--_muted);
  }
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
  .md > :first-child {
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

/**
 * Every style of `<silo-transcript>`: layout and messages here, cards in `transcript-card-styles.ts`,
 * tool cards and diffs in `tool-card-styles.ts`.
 */
export const transcriptStyles: CSSResultGroup = [transcriptBaseStyles, transcriptCardStyles, toolCardStyles];
