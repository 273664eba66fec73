/** Styles of the copy buttons (copy.ts); added to the styles of the element that renders them. */
import { css } from 'lit';

/** The copy buttons' styles. */
export const copyStyles = css`
  .copy {
    font: inherit;
    font-size: 0.75em;
    padding: 1px 8px;
    border: 1px solid var(--_border);
    border-radius: 6px;
    background: var(--_bg);
    color: var(--_muted);
    cursor: pointer;
  }
  .copy:hover,
  .copy:focus-visible {
    color: var(--_fg);
  }
  .copy[data-copied='true'] {
    color: var(--_success);
  }
  .who .copy {
    margin-inline-start: auto;
  }
  .code {
    position: relative;
  }
  .code > .copy {
    position: absolute;
    top: 4px;
    right: 4px;
  }
`;
