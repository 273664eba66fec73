/**
 * Styles of `<silo-transcript>`'s frame, in the first paint (see its class docs for the public custom
 * properties and parts): the layout, the usage header, the log, the empty text and "Jump to latest".
 * Find's highlights: find/find.styles.ts; the tail paint's: tail-paint.styles.ts. The rows' styles
 * (bubbles, Markdown, cards, tool cards, copy buttons) come with the rows' chunk: rows/rows.styles.ts.
 * @packageDocumentation
 */
import { css } from 'lit';

/** The layout, usage header, log, empty text and "Jump to latest". */
export const transcriptStyles = css`
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
  /* One line at any width: the meter narrows, then the text is cut with an ellipsis. */
  .usage meter {
    width: min(8rem, 18%);
    height: 0.6rem;
    flex: none;
  }
  .usage-text {
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .cost {
    margin-inline-start: auto;
    white-space: nowrap;
  }
  @media (max-height: 560px) {
    .usage {
      padding-block: 3px;
    }
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
  /* The feed's edges: focused for an instant so that Tab leaves the log (transcript/feed.controller.ts). */
  .feed-edge {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    outline: none;
  }
  .empty {
    position: absolute;
    inset-inline: 0;
    top: 3rem;
    text-align: center;
    padding: var(--_space);
    color: var(--_muted);
  }
  .jump {
    position: absolute;
    bottom: 12px;
    left: 50%;
    transform: translateX(-50%);
    box-shadow: 0 2px 8px var(--_shadow);
    border-radius: 999px;
  }
`;
