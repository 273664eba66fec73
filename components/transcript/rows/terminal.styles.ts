/**
 * Styles of a tool card's terminal (transcript/rows/terminal-block.ts): the output block, its note and
 * "Show all", the status line, the exit badge in the card's summary, and the ANSI colour classes
 * `ansi_up` writes (content/ansi.ts), whose colours are theme tokens (`--silo-color-ansi-*`,
 * `--silo-color-terminal-bg` / `-fg`, shared/theme.styles.ts). A coloured background takes the
 * terminal's background as its text colour.
 * @packageDocumentation
 */
import { css } from 'lit';

/** The terminal block's styles (after the tool cards'). */
export const terminalStyles = css`
  .terminal {
    margin: 8px 0 0;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.7);
    background: var(--_terminal-bg);
    color: var(--_terminal-fg);
    overflow: hidden;
  }
  .terminal-output {
    margin: 0;
    padding: 6px 8px;
    font-family: var(--_mono);
    font-size: 0.85em;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    max-height: 24rem;
    overflow: auto;
    background: transparent;
  }
  .terminal-output:empty,
  .terminal-output code:empty {
    display: none;
  }
  .terminal-earlier,
  .terminal-status {
    display: flex;
    gap: 8px;
    align-items: center;
    padding: 2px 8px;
    font-size: 0.8em;
    color: var(--_muted);
    border-bottom: 1px solid var(--_border);
  }
  .terminal-status {
    border-bottom: 0;
    border-top: 1px solid var(--_border);
  }
  .terminal[data-status='failed'] .terminal-status span {
    color: var(--_danger);
  }
  .terminal[data-status='ok'] .terminal-status span {
    color: var(--_success);
  }
  .terminal-status .copy,
  .terminal-earlier button {
    margin-inline-start: auto;
  }
  .tool-head .exit {
    flex: none;
    font-family: var(--_mono);
    font-size: 0.8em;
    color: var(--_muted);
  }
  .tool-head .exit[data-status='failed'] {
    color: var(--_danger);
  }
  .ansi-bold {
    font-weight: bold;
  }
  .ansi-faint {
    opacity: 0.7;
  }
  .ansi-italic {
    font-style: italic;
  }
  .ansi-underline {
    text-decoration: underline;
  }
  /* Backgrounds first: a run with a colour of its own keeps it over a background's text colour. */
  .ansi-black-bg {
    background-color: var(--_ansi-black);
    color: var(--_terminal-bg);
  }
  .ansi-red-bg {
    background-color: var(--_ansi-red);
    color: var(--_terminal-bg);
  }
  .ansi-green-bg {
    background-color: var(--_ansi-green);
    color: var(--_terminal-bg);
  }
  .ansi-yellow-bg {
    background-color: var(--_ansi-yellow);
    color: var(--_terminal-bg);
  }
  .ansi-blue-bg {
    background-color: var(--_ansi-blue);
    color: var(--_terminal-bg);
  }
  .ansi-magenta-bg {
    background-color: var(--_ansi-magenta);
    color: var(--_terminal-bg);
  }
  .ansi-cyan-bg {
    background-color: var(--_ansi-cyan);
    color: var(--_terminal-bg);
  }
  .ansi-white-bg {
    background-color: var(--_ansi-white);
    color: var(--_terminal-bg);
  }
  .ansi-bright-black-bg {
    background-color: var(--_ansi-bright-black);
    color: var(--_terminal-bg);
  }
  .ansi-bright-red-bg {
    background-color: var(--_ansi-bright-red);
    color: var(--_terminal-bg);
  }
  .ansi-bright-green-bg {
    background-color: var(--_ansi-bright-green);
    color: var(--_terminal-bg);
  }
  .ansi-bright-yellow-bg {
    background-color: var(--_ansi-bright-yellow);
    color: var(--_terminal-bg);
  }
  .ansi-bright-blue-bg {
    background-color: var(--_ansi-bright-blue);
    color: var(--_terminal-bg);
  }
  .ansi-bright-magenta-bg {
    background-color: var(--_ansi-bright-magenta);
    color: var(--_terminal-bg);
  }
  .ansi-bright-cyan-bg {
    background-color: var(--_ansi-bright-cyan);
    color: var(--_terminal-bg);
  }
  .ansi-bright-white-bg {
    background-color: var(--_ansi-bright-white);
    color: var(--_terminal-bg);
  }
  .ansi-black-fg {
    color: var(--_ansi-black);
  }
  .ansi-red-fg {
    color: var(--_ansi-red);
  }
  .ansi-green-fg {
    color: var(--_ansi-green);
  }
  .ansi-yellow-fg {
    color: var(--_ansi-yellow);
  }
  .ansi-blue-fg {
    color: var(--_ansi-blue);
  }
  .ansi-magenta-fg {
    color: var(--_ansi-magenta);
  }
  .ansi-cyan-fg {
    color: var(--_ansi-cyan);
  }
  .ansi-white-fg {
    color: var(--_ansi-white);
  }
  .ansi-bright-black-fg {
    color: var(--_ansi-bright-black);
  }
  .ansi-bright-red-fg {
    color: var(--_ansi-bright-red);
  }
  .ansi-bright-green-fg {
    color: var(--_ansi-bright-green);
  }
  .ansi-bright-yellow-fg {
    color: var(--_ansi-bright-yellow);
  }
  .ansi-bright-blue-fg {
    color: var(--_ansi-bright-blue);
  }
  .ansi-bright-magenta-fg {
    color: var(--_ansi-bright-magenta);
  }
  .ansi-bright-cyan-fg {
    color: var(--_ansi-bright-cyan);
  }
  .ansi-bright-white-fg {
    color: var(--_ansi-bright-white);
  }
`;
