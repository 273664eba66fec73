/**
 * The styles of `<silo-elicitation>`, on top of the shared {@link theme} (its `--silo-*` tokens and
 * `--_*` variables): one theme for every element, so a re-themed chat re-themes its questions too.
 * @packageDocumentation
 */
import { css } from 'lit';

export const elicitationStyles = css`
    :host {
      display: block;
      background: transparent;
    }
    [part~='base'] {
      background: var(--_bg);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      padding: var(--_space);
      display: grid;
      gap: var(--_space);
    }
    [part~='header'] {
      display: grid;
      gap: calc(var(--_space) / 3);
    }
    .asks,
    [part~='description'],
    [part~='status'] {
      color: var(--_muted);
      margin: 0;
    }
    [part~='message'] {
      margin: 0;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    form {
      display: grid;
      gap: var(--_space);
    }
    fieldset {
      border: 0;
      margin: 0;
      padding: 0;
      display: grid;
      gap: calc(var(--_space) / 3);
    }
    [part~='field'] {
      display: grid;
      gap: calc(var(--_space) / 3);
    }
    [part~='label'] {
      font-weight: 600;
      padding: 0;
    }
    .other {
      display: grid;
      gap: calc(var(--_space) / 4);
      margin-top: calc(var(--_space) / 3);
    }
    .other [part~='label'] {
      font-weight: normal;
    }
    .option,
    .check {
      display: flex;
      gap: 0.5em;
      align-items: baseline;
    }
    input:not([type='radio'], [type='checkbox']),
    select {
      font: inherit;
      color: inherit;
      background: var(--_bg);
      border: 1px solid var(--_border);
      border-radius: calc(var(--_radius) / 2);
      padding: 0.35em 0.5em;
      max-width: 100%;
    }
    [aria-invalid='true'] {
      border-color: var(--_danger);
      outline-color: var(--_danger);
    }
    [part~='required'],
    [part~='error'] {
      color: var(--_danger);
    }
    [part~='error'] {
      margin: 0;
    }
    [part~='error']:empty {
      display: none;
    }
    [part~='url'] {
      margin: 0;
      font-family: var(--_mono);
      overflow-wrap: anywhere;
    }
    [part~='url-host'] {
      font-weight: 700;
      text-decoration: underline;
    }
    [part~='warning'] {
      margin: 0;
      padding: calc(var(--_space) / 2);
      border-radius: calc(var(--_radius) / 2);
      background: var(--_warning-bg);
    }
    [part~='actions'] {
      display: flex;
      flex-wrap: wrap;
      gap: calc(var(--_space) / 2);
    }
    button {
      padding: 0.4em 0.9em;
    }
    button[part~='answer'] {
      background: var(--_accent);
      border-color: var(--_accent);
      color: var(--_accent-fg);
    }
    [part~='answers'] {
      margin: 0;
      display: grid;
      grid-template-columns: minmax(0, max-content) 1fr;
      gap: calc(var(--_space) / 3) var(--_space);
    }
    [part~='answers'] dt {
      font-weight: 600;
    }
    [part~='answers'] dd {
      margin: 0;
      overflow-wrap: anywhere;
      white-space: pre-wrap;
    }
`;
