/**
 * The one theme of Silo's elements (`<silo-chat>`, `<silo-transcript>`, `<silo-elicitation>`):
 * documented CSS custom properties with light and dark defaults (`prefers-color-scheme`), resolved
 * into private `--_*` variables on `:host`. Every colour an element draws is one of them (the
 * highlighter's token colours included, each at least 4.5:1 against code, diff and card backgrounds,
 * and the 16 ANSI colours of terminal output, each at least 4.5:1 against the terminal's background),
 * but find's highlights, whose `::highlight()` rules name their tokens themselves
 * (transcript/find/find.styles.ts). Inherited properties
 * are set explicitly on `:host` so the host page's typography does not leak in.
 * @packageDocumentation
 */
import { css } from 'lit';

export const theme = css`
  :host {
    --_bg: var(--silo-color-bg, #ffffff);
    --_fg: var(--silo-color-fg, #1d2129);
    --_muted: var(--silo-color-muted, #5c6370);
    --_border: var(--silo-color-border, #d9dde3);
    --_accent: var(--silo-color-accent, #2457c5);
    --_accent-fg: var(--silo-color-accent-fg, #ffffff);
    --_user-bg: var(--silo-color-user-bg, #eef3fd);
    --_agent-bg: var(--silo-color-agent-bg, transparent);
    --_surface: var(--silo-color-surface, #f6f7f9);
    --_code-bg: var(--silo-color-code-bg, #f1f3f5);
    --_added: var(--silo-color-added, #e3f6e8);
    --_removed: var(--silo-color-removed, #fde7e7);
    --_info: var(--silo-color-info, #2457c5);
    --_warning: var(--silo-color-warning, #9a5b00);
    --_danger: var(--silo-color-danger, #b42318);
    --_success: var(--silo-color-success, #1a7f37);
    --_warning-bg: var(--silo-color-warning-bg, #fff4ce);
    --_shadow: var(--silo-color-shadow, rgb(0 0 0 / 0.2));
    --_hl-keyword: var(--silo-color-code-keyword, #b3261e);
    --_hl-string: var(--silo-color-code-string, #0a3069);
    --_hl-comment: var(--silo-color-code-comment, #57606a);
    --_hl-number: var(--silo-color-code-number, #0550ae);
    --_hl-title: var(--silo-color-code-title, #6639ba);
    --_hl-type: var(--silo-color-code-type, #8a3500);
    --_terminal-bg: var(--silo-color-terminal-bg, #f1f3f5);
    --_terminal-fg: var(--silo-color-terminal-fg, #1d2129);
    --_ansi-black: var(--silo-color-ansi-black, #24292f);
    --_ansi-red: var(--silo-color-ansi-red, #c4111b);
    --_ansi-green: var(--silo-color-ansi-green, #116329);
    --_ansi-yellow: var(--silo-color-ansi-yellow, #6b4700);
    --_ansi-blue: var(--silo-color-ansi-blue, #0550ae);
    --_ansi-magenta: var(--silo-color-ansi-magenta, #8250df);
    --_ansi-cyan: var(--silo-color-ansi-cyan, #0f6470);
    --_ansi-white: var(--silo-color-ansi-white, #5c6370);
    --_ansi-bright-black: var(--silo-color-ansi-bright-black, #57606a);
    --_ansi-bright-red: var(--silo-color-ansi-bright-red, #a40e26);
    --_ansi-bright-green: var(--silo-color-ansi-bright-green, #1a7f37);
    --_ansi-bright-yellow: var(--silo-color-ansi-bright-yellow, #7d4e00);
    --_ansi-bright-blue: var(--silo-color-ansi-bright-blue, #0969da);
    --_ansi-bright-magenta: var(--silo-color-ansi-bright-magenta, #7b3fc4);
    --_ansi-bright-cyan: var(--silo-color-ansi-bright-cyan, #136c78);
    --_ansi-bright-white: var(--silo-color-ansi-bright-white, #4d535c);
    --_radius: var(--silo-radius, 10px);
    --_space: var(--silo-spacing, 12px);
    --_mono: var(--silo-font-family-mono, ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace);
    color-scheme: light dark;
    font-family: var(--silo-font-family, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    font-size: var(--silo-font-size, 14px);
    font-weight: normal;
    font-style: normal;
    line-height: 1.5;
    letter-spacing: normal;
    text-align: start;
    text-transform: none;
    color: var(--_fg);
    background: var(--_bg);
    box-sizing: border-box;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_bg: var(--silo-color-bg, #15171c);
      --_fg: var(--silo-color-fg, #e4e7ec);
      --_muted: var(--silo-color-muted, #9aa3b2);
      --_border: var(--silo-color-border, #2f343e);
      --_accent: var(--silo-color-accent, #7aa2f7);
      --_accent-fg: var(--silo-color-accent-fg, #0d1117);
      --_user-bg: var(--silo-color-user-bg, #1f2a44);
      --_surface: var(--silo-color-surface, #1c1f26);
      --_code-bg: var(--silo-color-code-bg, #23262e);
      --_added: var(--silo-color-added, #173d24);
      --_removed: var(--silo-color-removed, #4a1d1d);
      --_info: var(--silo-color-info, #7aa2f7);
      --_warning: var(--silo-color-warning, #e0af68);
      --_danger: var(--silo-color-danger, #f7768e);
      --_success: var(--silo-color-success, #73daca);
      --_warning-bg: var(--silo-color-warning-bg, #4a3c00);
      --_shadow: var(--silo-color-shadow, rgb(0 0 0 / 0.5));
      --_hl-keyword: var(--silo-color-code-keyword, #ff7b72);
      --_hl-string: var(--silo-color-code-string, #a5d6ff);
      --_hl-comment: var(--silo-color-code-comment, #9aa3b2);
      --_hl-number: var(--silo-color-code-number, #79c0ff);
      --_hl-title: var(--silo-color-code-title, #d2a8ff);
      --_hl-type: var(--silo-color-code-type, #ffa657);
      --_terminal-bg: var(--silo-color-terminal-bg, #23262e);
      --_terminal-fg: var(--silo-color-terminal-fg, #e4e7ec);
      --_ansi-black: var(--silo-color-ansi-black, #8b949e);
      --_ansi-red: var(--silo-color-ansi-red, #ff7b72);
      --_ansi-green: var(--silo-color-ansi-green, #3fb950);
      --_ansi-yellow: var(--silo-color-ansi-yellow, #d29922);
      --_ansi-blue: var(--silo-color-ansi-blue, #58a6ff);
      --_ansi-magenta: var(--silo-color-ansi-magenta, #bc8cff);
      --_ansi-cyan: var(--silo-color-ansi-cyan, #39c5cf);
      --_ansi-white: var(--silo-color-ansi-white, #b1bac4);
      --_ansi-bright-black: var(--silo-color-ansi-bright-black, #8b949e);
      --_ansi-bright-red: var(--silo-color-ansi-bright-red, #ffa198);
      --_ansi-bright-green: var(--silo-color-ansi-bright-green, #56d364);
      --_ansi-bright-yellow: var(--silo-color-ansi-bright-yellow, #e3b341);
      --_ansi-bright-blue: var(--silo-color-ansi-bright-blue, #79c0ff);
      --_ansi-bright-magenta: var(--silo-color-ansi-bright-magenta, #d2a8ff);
      --_ansi-bright-cyan: var(--silo-color-ansi-bright-cyan, #56d4dd);
      --_ansi-bright-white: var(--silo-color-ansi-bright-white, #f0f6fc);
    }
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  [hidden] {
    display: none !important;
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
  button,
  select,
  textarea {
    font: inherit;
    color: inherit;
  }
  button {
    cursor: pointer;
    border: 1px solid var(--_border);
    background: var(--_surface);
    border-radius: calc(var(--_radius) * 0.7);
    padding: 4px 12px;
  }
  button:hover:not(:disabled) {
    border-color: var(--_accent);
  }
  button:disabled {
    cursor: default;
    opacity: 0.55;
  }
  button.primary {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_accent-fg);
  }
  :focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }
`;
