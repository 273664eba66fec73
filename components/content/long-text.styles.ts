/** Styles of long text (long-text.ts); added to the styles of the element that renders it. */
import { css } from 'lit';

/**
 * Plain text in pieces, each laid out only while on screen (`content-visibility: auto`; a piece's
 * last measured size stands in for it after that, an estimate before), and the bar of a collapsed
 * rest.
 */
export const longTextStyles = css`
  .piece {
    display: block;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
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
