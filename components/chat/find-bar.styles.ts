/** Styles of `<silo-chat>`'s find bar (find-bar.controller.ts); part of the chat's styles, in the first paint. */
import { css } from 'lit';

export const findBarStyles = css`
  .find {
    display: flex;
    align-items: center;
    gap: 6px;
    padding: 6px var(--_space);
    border-bottom: 1px solid var(--_border);
    background: var(--_surface);
    flex: none;
    flex-wrap: wrap;
  }
  .find input {
    flex: 1 1 8rem;
    min-width: 0;
    font: inherit;
    color: inherit;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: 6px;
    padding: 4px 8px;
  }
  .find .count {
    font-size: 0.85em;
    color: var(--_muted);
    min-width: 5.5em;
  }
  .find button {
    font: inherit;
    color: var(--_fg);
    background: transparent;
    border: 1px solid var(--_border);
    border-radius: 6px;
    min-width: 2em;
    padding: 2px 6px;
    cursor: pointer;
  }
`;
