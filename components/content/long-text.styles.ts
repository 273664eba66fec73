/** Styles of long text (long-text.ts); added to the styles of the element that renders it. */
import { css } from 'lit';

/**
 * Plain text in pieces, each (when there are more than one) laid out only while on screen
 * (`content-visibility: auto`; a piece's last measured size stands in for it after that, an
 * estimate before), and the bar of a collapsed rest.
 */
export const longTextStyles = css`
  .piece {
    display: block;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  /* A text of one piece is laid out as it is: skipping it saves nothing, and Firefox's sizing of a
     skipped piece as it comes on screen can end in "ResizeObserver loop completed with undelivered
     notifications" on the page. */
  .piece:not(:only-child) {
    content-visibility: auto;
    contain-intrinsic-block-size: auto 40em;
  }
  .long-text {
    margin: 0.5em 0;
    padding-inline-start: 8px;
    border-inline-start: 3px solid var(--_border);
  }
  .long-text-bar {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    align-items: baseline;
    font-size: 0.9em;
    color: var(--_muted);
  }
  .long-text[data-long-text='open'] > .long-text-bar {
    margin-bottom: 0.5em;
  }
`;
