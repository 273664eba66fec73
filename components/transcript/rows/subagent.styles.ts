/**
 * Styles of a subagent's work inside its tool card (transcript/rows/subagent-view.ts): the fold, its
 * summary, the task and answer, and its rows, indented under a rule in the card's colours.
 * @packageDocumentation
 */
import { css } from 'lit';

/** The subagent view's styles (after the tool cards'). */
export const subagentStyles = css`
  .subagent {
    margin: 8px 0 0;
    border-inline-start: 2px solid var(--_border);
    padding-inline-start: 8px;
  }
  .subagent > summary {
    display: flex;
    gap: 8px;
    align-items: baseline;
    cursor: pointer;
    font-size: 0.9em;
  }
  .subagent > summary:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }
  .subagent > summary .title {
    font-weight: 600;
  }
  .subagent[data-state='failed'] > summary .title {
    color: var(--_danger);
  }
  .subagent-task,
  .subagent-answer {
    margin-top: 6px;
  }
  .subagent-task .label,
  .subagent-answer .label {
    font-size: 0.75em;
    font-weight: 700;
    text-transform: uppercase;
    letter-spacing: 0.04em;
    color: var(--_muted);
  }
  .subagent-rows > .row {
    padding: 4px 0 0;
  }
`;
