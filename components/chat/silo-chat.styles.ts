/** Styles of `<silo-chat>` (see its class docs for the public custom properties and parts). */
import { css } from 'lit';

export const chatStyles = css`
  :host {
    display: flex;
    flex-direction: column;
    height: var(--silo-chat-height, 100%);
    min-height: 24rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    overflow: hidden;
  }
  header {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 4px 8px;
    padding: 8px var(--_space);
    border-bottom: 1px solid var(--_border);
    background: var(--_surface);
    flex: none;
  }
  /* The title takes what the state and the actions leave (flex-basis 0), so they share its line. */
  .title {
    font-weight: 600;
    flex: 1 1 0;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .state {
    font-size: 0.8em;
    color: var(--_muted);
    display: inline-flex;
    align-items: center;
    gap: 6px;
  }
  .state::before {
    content: '';
    width: 8px;
    height: 8px;
    border-radius: 50%;
    background: var(--_muted);
  }
  .state[data-state='connected']::before {
    background: var(--_success);
  }
  .state[data-state='failed']::before,
  .state[data-state='closed']::before {
    background: var(--_danger);
  }
  .state[data-state='connecting']::before,
  .state[data-state='reconnecting']::before,
  .state[data-state='read-only']::before {
    background: var(--_warning);
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    min-width: 0;
  }
  .actions button {
    font-size: 0.85em;
    padding: 2px 8px;
    white-space: nowrap;
  }
  /* The exports' menu: a summary that opens its options over the transcript. */
  details.menu {
    position: relative;
  }
  details.menu > summary {
    list-style: none;
    cursor: pointer;
    font-size: 0.85em;
    padding: 2px 8px;
    border: 1px solid var(--_border);
    border-radius: 6px;
    background: var(--_bg);
    white-space: nowrap;
  }
  details.menu > summary::-webkit-details-marker {
    display: none;
  }
  details.menu > summary::after {
    content: ' ▾';
  }
  details.menu > summary:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 1px;
  }
  .menu-items {
    position: absolute;
    top: calc(100% + 4px);
    right: 0;
    z-index: 3;
    display: flex;
    flex-direction: column;
    gap: 2px;
    padding: 4px;
    min-width: max-content;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: 0 4px 16px var(--_shadow);
  }
  .menu-items button {
    text-align: start;
    border-color: transparent;
  }
  .banner {
    padding: 8px var(--_space);
    border-bottom: 1px solid var(--_border);
    background: var(--_surface);
    display: flex;
    gap: 8px;
    align-items: center;
    flex-wrap: wrap;
  }
  .banner.error {
    color: var(--_danger);
  }
  .banner .text {
    flex: 1 1 10rem;
  }
  .banner button {
    color: var(--_fg);
  }
  silo-transcript {
    flex: 1 1 auto;
    min-height: 0;
    --silo-transcript-min-height: 8rem;
  }
  .composer {
    border-top: 1px solid var(--_border);
    padding: 8px var(--_space) var(--_space);
    position: relative;
    flex: none;
  }
  .pickers {
    display: flex;
    flex-wrap: wrap;
    gap: 10px;
    margin-bottom: 6px;
    font-size: 0.85em;
    color: var(--_muted);
  }
  .pickers label {
    display: inline-flex;
    align-items: center;
    gap: 4px;
  }
  .pickers select {
    border: 1px solid var(--_border);
    border-radius: 6px;
    background: var(--_bg);
    padding: 1px 4px;
  }
  .input-row {
    display: flex;
    gap: 8px;
    align-items: flex-end;
  }
  textarea {
    flex: 1 1 auto;
    min-width: 0;
    resize: none;
    min-height: 2.6em;
    max-height: 12em;
    padding: 8px 10px;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_bg);
    line-height: 1.4;
    field-sizing: content;
  }
  textarea:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 0;
  }
  .input-row button {
    padding: 8px 16px;
    border-radius: var(--_radius);
  }
  .note {
    margin: 0 0 6px;
    font-size: 0.85em;
    color: var(--_warning);
  }
  .attachments {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    margin: 0 0 6px;
    padding: 0;
    list-style: none;
  }
  .attachment {
    display: inline-flex;
    align-items: center;
    gap: 6px;
    max-width: 100%;
    padding: 2px 4px 2px 8px;
    border: 1px solid var(--_border);
    border-radius: 6px;
    background: var(--_surface);
    font-size: 0.85em;
  }
  .attachment img {
    width: 2rem;
    height: 2rem;
    object-fit: cover;
    border-radius: 4px;
  }
  .attachment .name {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .attachment .size {
    color: var(--_muted);
  }
  .attachment button {
    border: none;
    background: none;
    padding: 0 6px;
    font-size: 1.1em;
  }
  .commands {
    position: absolute;
    bottom: calc(100% - 4px);
    left: var(--_space);
    right: var(--_space);
    max-height: 16rem;
    overflow: auto;
    margin: 0;
    padding: 4px;
    list-style: none;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: 0 4px 16px var(--_shadow);
    z-index: 2;
  }
  .commands li {
    padding: 4px 8px;
    border-radius: 6px;
    cursor: pointer;
    display: flex;
    gap: 8px;
    align-items: baseline;
  }
  .commands li[aria-selected='true'] {
    background: var(--_user-bg);
  }
  .commands .name {
    font-family: var(--_mono);
    font-weight: 600;
    flex: none;
  }
  .commands .hint,
  .command-hint .hint {
    font-family: var(--_mono);
    font-style: italic;
    color: var(--_muted);
    flex: none;
  }
  .command-hint {
    margin: 0 0 6px;
    font-size: 0.85em;
  }
  .command-hint .name {
    font-family: var(--_mono);
    font-weight: 600;
  }
  .commands .desc {
    color: var(--_muted);
    font-size: 0.9em;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .status-row {
    display: flex;
    flex-wrap: wrap;
    gap: 4px 12px;
    align-items: center;
    margin: 0 0 6px;
    font-size: 0.85em;
    color: var(--_muted);
  }
  .working {
    display: inline-flex;
    gap: 6px;
    align-items: center;
  }
  .working::before {
    content: '';
    width: 8px;
    height: 8px;
    border-radius: 50%;
    background: var(--_accent);
    animation: silo-pulse 1.2s ease-in-out infinite;
  }
  @media (prefers-reduced-motion: reduce) {
    .working::before {
      animation: none;
    }
  }
  @keyframes silo-pulse {
    50% {
      opacity: 0.3;
    }
  }
  .elapsed {
    font-variant-numeric: tabular-nums;
  }
  .queued {
    display: inline-flex;
    gap: 6px;
    align-items: center;
    min-width: 0;
    max-width: 100%;
  }
  .queued .text {
    color: var(--_fg);
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    min-width: 0;
  }
  .queued button {
    font-size: 0.95em;
    padding: 1px 8px;
  }
  /* A short window: less padding around the header, the banner and the composer, for the transcript. */
  @media (max-height: 560px) {
    header,
    .banner {
      padding-block: 4px;
    }
    .composer {
      padding-block: 6px 8px;
    }
  }
  /* Phones: a smaller header and composer padding. */
  @media (max-width: 480px) {
    header {
      padding: 6px 8px;
    }
    .actions button,
    details.menu > summary {
      padding: 1px 6px;
      font-size: 0.8em;
    }
    .composer {
      padding: 6px 8px 8px;
    }
  }
`;
