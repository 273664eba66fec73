/**
 * Styles of `<silo-transcript>`'s cards: badges, the plan, notices, permission prompts, turn ends,
 * unknown rows and images (tool cards and diffs: `transcript/rows/tool-card.styles.ts`).
 * @packageDocumentation
 */
import { css } from 'lit';

/** The cards' styles (after `transcriptRowBaseStyles`). */
export const transcriptCardStyles = css`
  .card {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    padding: 8px 12px;
  }
  .badge {
    font-size: 0.75em;
    font-weight: 600;
    padding: 1px 6px;
    border-radius: 999px;
    background: var(--_code-bg);
    color: var(--_muted);
  }
  .badge.new {
    color: var(--_success);
  }
  .badge.excluded {
    color: var(--_danger);
  }
  .label {
    font-weight: 600;
    font-size: 0.85em;
    color: var(--_muted);
    margin-bottom: 4px;
  }
  .checklist {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .checklist li {
    display: flex;
    gap: 8px;
    align-items: baseline;
  }
  .check {
    flex: none;
    display: inline-grid;
    place-items: center;
    width: 1.1em;
    height: 1.1em;
    border: 1.5px solid var(--_muted);
    border-radius: 4px;
    font-size: 0.8em;
    line-height: 1;
  }
  li[data-status='completed'] .check {
    background: var(--_success);
    border-color: var(--_success);
    color: var(--_bg);
  }
  li[data-status='completed'] .entry {
    text-decoration: line-through;
    color: var(--_muted);
  }
  li[data-status='in_progress'] .check {
    border-color: var(--_info);
    color: var(--_info);
  }
  .notice {
    border-inline-start: 4px solid var(--_info);
    background: var(--_surface);
    padding: 6px 10px;
    border-radius: 4px;
  }
  .notice.warning {
    border-color: var(--_warning);
  }
  .notice.error {
    border-color: var(--_danger);
  }
  .notice.other {
    border-color: var(--_muted);
  }
  .description {
    color: var(--_muted);
    white-space: pre-wrap;
  }
  .prompt.open {
    border-color: var(--_accent);
    box-shadow: 0 0 0 1px var(--_accent);
  }
  .ask {
    font-weight: 600;
  }
  .options {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    margin-top: 8px;
  }
  .options button.allow {
    border-color: var(--_accent);
  }
  .options button.primary {
    background: var(--_accent);
    color: var(--_accent-fg);
    font-weight: 600;
  }
  .options button.reject {
    border-color: var(--_danger);
    color: var(--_danger);
  }
  .prompt.in-card {
    margin: 2px 0 8px;
  }
  .keys {
    display: block;
    margin: 6px 0 0;
    font-size: 0.8em;
  }
  .resolution {
    color: var(--_muted);
    margin-top: 4px;
  }
  .error {
    color: var(--_danger);
  }
  .turn-start,
  .turn-end {
    display: flex;
    align-items: center;
    gap: 8px;
    font-size: 0.8em;
    color: var(--_muted);
  }
  .turn-start::before,
  .turn-start::after,
  .turn-end::before,
  .turn-end::after {
    content: '';
    flex: 1;
    border-top: 1px solid var(--_border);
  }
  .turn-end .branch {
    font: inherit;
    padding: 0 0.5em;
  }
  .turn-end[data-stop-reason='refusal'],
  .turn-end[data-stop-reason='interrupted'],
  .turn-end[data-stop-reason='error'] {
    color: var(--_danger);
  }
  .turn-action {
    font: inherit;
    color: var(--_accent);
    background: none;
    border: 1px solid var(--_border);
    border-radius: 999px;
    padding: 1px 10px;
    cursor: pointer;
  }
  .turn-action:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 1px;
  }
  .turn-end[data-stop-reason='cancelled'],
  .turn-end[data-stop-reason='max_tokens'],
  .turn-end[data-stop-reason='max_turn_requests'] {
    color: var(--_warning);
  }
  .placeholder,
  .unknown summary {
    color: var(--_muted);
    font-style: italic;
    font-size: 0.9em;
  }
  .muted {
    color: var(--_muted);
    margin-inline-start: 6px;
  }
  .image {
    max-width: 100%;
    max-height: 24rem;
    border-radius: calc(var(--_radius) * 0.7);
  }
  .named-image {
    margin: 4px 0;
  }
  .named-image figcaption {
    font-size: 0.85em;
    color: var(--_muted);
    overflow-wrap: anywhere;
  }
`;
