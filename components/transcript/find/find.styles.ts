/**
 * Styles of find in `<silo-transcript>`: the matches' highlights and the current match's row
 * (highlight.ts), light and dark. Part of the element's styles, in the first paint, while find's code
 * is a chunk. The colours are theme tokens (`--silo-color-find`, `--silo-color-find-active`,
 * `--silo-color-find-fg`) named here, with their defaults, rather than through the theme's private
 * `--_*` variables: a `::highlight()` rule is not sure to see the host's variables in every engine.
 * @packageDocumentation
 */
import { css } from 'lit';

/** Find's highlights and the current match's row (highlight.ts). */
export const findStyles = css`
  ::highlight(silo-find) {
    background-color: var(--silo-color-find, #fde68a);
    color: var(--silo-color-find-fg, #1a1a1a);
  }
  ::highlight(silo-find-active) {
    background-color: var(--silo-color-find-active, #f59e0b);
    color: var(--silo-color-find-fg, #1a1a1a);
  }
  .row[data-find='active'] {
    box-shadow: inset 3px 0 0 var(--silo-color-find-active, #f59e0b);
  }
  @media (prefers-color-scheme: dark) {
    ::highlight(silo-find) {
      background-color: var(--silo-color-find, #5c4a00);
      color: var(--silo-color-find-fg, #fff7d6);
    }
    ::highlight(silo-find-active) {
      background-color: var(--silo-color-find-active, #b45309);
      color: var(--silo-color-find-fg, #fff7d6);
    }
    .row[data-find='active'] {
      box-shadow: inset 3px 0 0 var(--silo-color-find-active, #b45309);
    }
  }
`;
