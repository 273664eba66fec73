/**
 * Copy buttons: one on every message (its text as written, Markdown included) and one on every code
 * block of rendered Markdown. A click writes plain text to the clipboard (`navigator.clipboard.
 * writeText`); agent text is only ever read as text (`textContent` or the message's own text), never
 * turned into HTML. The button says "Copied" for a moment, or "Copy failed" when the browser refused.
 * @packageDocumentation
 */
import { css, html, type TemplateResult } from 'lit';
import { defaultCopyStrings, type SiloCopyStrings } from './strings.ts';

/** Writes `text` to the clipboard and shows the outcome on `button` for 1.5 s. */
async function copy(button: HTMLButtonElement, text: string, s: SiloCopyStrings): Promise<void> {
  const label = button.textContent;
  let ok = true;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    ok = false;
  }
  button.textContent = ok ? s.copied : s.copyFailed;
  button.dataset.copied = ok ? 'true' : 'false';
  setTimeout(() => {
    button.textContent = label;
    delete button.dataset.copied;
  }, 1500);
}

/** A message's copy button (`part="copy"`): copies `text()` on a click (or Enter / Space). */
export function copyButton(text: () => string, s: SiloCopyStrings = defaultCopyStrings): TemplateResult {
  return html`<button
    type="button"
    class="copy"
    part="copy"
    title=${s.copyMessage}
    @click=${(e: Event) => void copy(e.currentTarget as HTMLButtonElement, text(), s)}
  >${s.copy}</button>`;
}

/** The last rendering per owner (a streaming message re-renders as it grows: only its latest is kept). */
const withButtons = new WeakMap<object, { html: string; nodes: Node[] }>();

/**
 * Sanitized Markdown HTML (from `renderMarkdown`) as nodes, each `<pre>` wrapped in
 * `<div class="code" part="code-block">` with a copy button (`part="copy copy-code"`) that copies the
 * block's text. The same nodes are returned for the same owner and HTML, so a re-render keeps them.
 */
export function markdownWithCopy(
  owner: object,
  sanitized: string,
  s: SiloCopyStrings = defaultCopyStrings,
): Node[] {
  const kept = withButtons.get(owner);
  if (kept?.html === sanitized) return kept.nodes;
  const template = document.createElement('template');
  template.innerHTML = sanitized;
  for (const pre of Array.from(template.content.querySelectorAll('pre'))) {
    const wrap = document.createElement('div');
    wrap.className = 'code';
    wrap.setAttribute('part', 'code-block');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.setAttribute('part', 'copy copy-code');
    button.title = s.copyCode;
    button.textContent = s.copy;
    button.addEventListener('click', () => void copy(button, pre.textContent ?? '', s));
    pre.replaceWith(wrap);
    wrap.append(pre, button);
  }
  const nodes = Array.from(template.content.childNodes);
  withButtons.set(owner, { html: sanitized, nodes });
  return nodes;
}

/** Styles for the copy buttons (add to the styles of the element that renders them). */
export const copyStyles = css`
  .copy {
    font: inherit;
    font-size: 0.75em;
    padding: 1px 8px;
    border: 1px solid var(--_border);
    border-radius: 6px;
    background: var(--_bg);
    color: var(--_muted);
    cursor: pointer;
  }
  .copy:hover,
  .copy:focus-visible {
    color: var(--_fg);
  }
  .copy[data-copied='true'] {
    color: var(--_success);
  }
  .who .copy {
    margin-inline-start: auto;
  }
  .code {
    position: relative;
  }
  .code > .copy {
    position: absolute;
    top: 4px;
    right: 4px;
  }
`;
