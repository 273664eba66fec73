/**
 * Styles of `<silo-transcript>`'s tool cards (transcript/rows/tool-card.ts): the one-line summary, the body, output,
 * diffs with line numbers, and the highlighter's token classes (their colors are theme tokens,
 * `--_hl-*` in shared/theme.styles.ts).
 * @packageDocumentation
 */
import { css } from 'lit';

/** The tool cards' styles (after `transcriptRowBaseStyles`). */
export const toolCardStyles = css`
  .card.tool {
    padding: 0;
  }
  .tool-head {
    display: flex;
    gap: 8px;
    align-items: center;
    min-width: 0;
    padding: 6px 12px;
    cursor: pointer;
    list-style: none;
    border-radius: var(--_radius);
  }
  .tool-head::-webkit-details-marker {
    display: none;
  }
  .tool-head::before {
    content: '▸';
    flex: none;
    color: var(--_muted);
    transition: transform 0.1s;
  }
  .card.tool[open] > .tool-head::before {
    transform: rotate(90deg);
  }
  .tool-head:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: -2px;
  }
  .kind-icon {
    flex: none;
    color: var(--_muted);
  }
  .kind {
    font-size: 0.75em;
    font-weight: 700;
    text-transform: uppercase;
    letter-spacing: 0.04em;
    color: var(--_muted);
    flex: none;
  }
  .tool-head .title {
    font-family: var(--_mono);
    font-size: 0.92em;
    flex: 1 1 auto;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .tool-head .counts {
    flex: none;
    font-family: var(--_mono);
    font-size: 0.85em;
  }
  .status {
    flex: none;
    font-size: 0.78em;
    padding: 1px 8px;
    border-radius: 999px;
    border: 1px solid currentColor;
    color: var(--_muted);
  }
  .status-completed {
    color: var(--_success);
  }
  .status-failed {
    color: var(--_danger);
  }
  .status-in_progress {
    color: var(--_info);
  }
  .status-cancelled,
  .status-interrupted {
    color: var(--_warning);
  }
  .tool-body {
    padding: 0 12px 8px;
    min-width: 0;
  }
  .locations {
    list-style: none;
    margin: 4px 0 0;
    padding: 0;
    font-size: 0.85em;
    color: var(--_muted);
  }
  .tool-content {
    margin-top: 6px;
    max-height: 24rem;
    overflow: auto;
  }
  pre.output,
  .output pre {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    max-height: 24rem;
    overflow: auto;
  }
  .diff {
    margin: 8px 0 0;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.7);
    overflow: hidden;
  }
  .diff figcaption {
    display: flex;
    gap: 8px;
    align-items: center;
    padding: 4px 8px;
    background: var(--_code-bg);
    font-size: 0.85em;
  }
  .diff .counts {
    margin-inline-start: auto;
  }
  .plus {
    color: var(--_success);
  }
  .minus {
    color: var(--_danger);
  }
  .lines {
    font-family: var(--_mono);
    font-size: 0.85em;
    max-height: 24rem;
    overflow: auto;
    background: var(--_bg);
  }
  .line {
    white-space: pre;
    padding: 0 8px 0 0;
    min-height: 1.4em;
    width: max-content;
    min-width: 100%;
    box-sizing: border-box;
  }
  .line .ln {
    display: inline-flex;
    user-select: none;
    -webkit-user-select: none;
    color: var(--_muted);
    margin-inline-end: 6px;
    border-inline-end: 1px solid var(--_border);
  }
  .line .ln::before,
  .line .ln::after {
    display: inline-block;
    width: 4ch;
    padding-inline-end: 1ch;
    text-align: end;
  }
  .line .ln::before {
    content: attr(data-old);
  }
  .line .ln::after {
    content: attr(data-new);
  }
  .line .op {
    display: inline-block;
    width: 1.2em;
    color: var(--_muted);
    user-select: none;
    -webkit-user-select: none;
  }
  .line.add {
    background: var(--_added);
  }
  .line.del {
    background: var(--_removed);
  }
  .line .clipped {
    color: var(--_muted);
    font-style: italic;
    margin-inline-start: 1ch;
    user-select: none;
    -webkit-user-select: none;
  }
  .line.more,
  .line.loading {
    color: var(--_muted);
    font-style: italic;
    padding-inline-start: 8px;
  }
  .hljs-keyword,
  .hljs-selector-tag,
  .hljs-deletion,
  .hljs-doctag {
    color: var(--_hl-keyword);
  }
  .hljs-string,
  .hljs-regexp,
  .hljs-addition,
  .hljs-symbol {
    color: var(--_hl-string);
  }
  .hljs-comment,
  .hljs-quote,
  .hljs-meta {
    color: var(--_hl-comment);
    font-style: italic;
  }
  .hljs-number,
  .hljs-literal,
  .hljs-attr,
  .hljs-attribute,
  .hljs-variable,
  .hljs-template-variable,
  .hljs-selector-attr,
  .hljs-selector-class,
  .hljs-selector-id {
    color: var(--_hl-number);
  }
  .hljs-title,
  .hljs-section,
  .hljs-name,
  .hljs-tag {
    color: var(--_hl-title);
  }
  .hljs-built_in,
  .hljs-type,
  .hljs-params,
  .hljs-property {
    color: var(--_hl-type);
  }
`;
