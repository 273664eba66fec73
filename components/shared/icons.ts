/**
 * The elements' icons, as inline SVG drawn with `currentColor`: they look the same on every machine,
 * with no emoji font (emoji showed as blank boxes on a machine without one) and no request. Each is
 * decorative (`aria-hidden`): whatever it stands for is written beside it or in its control's label.
 * @packageDocumentation
 */
import { html, type SVGTemplateResult, svg, type TemplateResult } from 'lit';

/** The strokes of each icon, on a 16 × 16 grid. */
const PATHS = {
  file: svg`<path d="M4 1.5h5l3 3v10H4z" /><path d="M9 1.5v3h3" /><path d="M6 8.5h4M6 11h4" />`,
  pencil: svg`<path d="M10.5 2.5l3 3-8 8h-3v-3z" /><path d="M9 4l3 3" />`,
  trash: svg`<path d="M2.5 4h11M6 4V2.5h4V4" /><path d="M4 4l.7 9.5h6.6L12 4" />`,
  move: svg`<path d="M2 8h12M5 5L2 8l3 3M11 5l3 3-3 3" />`,
  search: svg`<circle cx="7" cy="7" r="4.5" /><path d="M10.5 10.5L14 14" />`,
  terminal: svg`<path d="M2.5 4l4 4-4 4M8.5 12.5h5" />`,
  thought: svg`<path d="M2.5 3h11v7.5H7L4 13.5v-3H2.5z" />`,
  globe: svg`<circle cx="8" cy="8" r="6" /><path d="M2 8h12M8 2c2.2 2.4 2.2 9.6 0 12M8 2c-2.2 2.4-2.2 9.6 0 12" />`,
  swap: svg`<path d="M2 5h10M9.5 2.5L12 5 9.5 7.5M14 11H4M6.5 8.5L4 11l2.5 2.5" />`,
  wrench: svg`<path d="M9.5 2.2a3.5 3.5 0 0 0-2.9 4.7L2.4 11.1a1.7 1.7 0 0 0 2.5 2.5l4.2-4.2a3.5 3.5 0 0 0 4.7-2.9l-2.2 1-2-2 1-2.2z" />`,
  check: svg`<path d="M3 8.5l3 3 7-7" />`,
  half: svg`<circle cx="8" cy="8" r="5.5" /><path d="M8 2.5a5.5 5.5 0 0 1 0 11z" fill="currentColor" />`,
  close: svg`<path d="M4 4l8 8M12 4l-8 8" />`,
} satisfies Record<string, SVGTemplateResult>;

/** The name of one icon. */
export type IconName = keyof typeof PATHS;

/** Icons by ACP tool kind; an unknown kind gets `other`'s. */
export const TOOL_KIND_ICONS: Readonly<Record<string, IconName>> = {
  read: 'file',
  edit: 'pencil',
  delete: 'trash',
  move: 'move',
  search: 'search',
  execute: 'terminal',
  think: 'thought',
  fetch: 'globe',
  switch_mode: 'swap',
  other: 'wrench',
};

/** One icon, `1em` square in `currentColor` (class `icon`, plus `className`), hidden from assistive technology. */
export function icon(name: IconName, className = ''): TemplateResult {
  return html`<svg
    class="icon ${className}"
    viewBox="0 0 16 16"
    width="1em"
    height="1em"
    fill="none"
    stroke="currentColor"
    stroke-width="1.5"
    stroke-linecap="round"
    stroke-linejoin="round"
    aria-hidden="true"
    focusable="false"
  >${PATHS[name]}</svg>`;
}
