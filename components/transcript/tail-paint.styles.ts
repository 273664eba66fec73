/** Styles of `<silo-transcript>`'s tail paint layer (tail-paint.ts); part of the element's styles. */
import { css } from 'lit';

/** The layer's styles. */
export const tailPaintStyles = css`
  .tail-paint {
    position: absolute;
    inset-inline: 0;
    display: flex;
    flex-direction: column;
    justify-content: flex-end;
    overflow: hidden;
    background: var(--_bg);
    pointer-events: none;
  }
`;
