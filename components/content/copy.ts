/**
 * Copy buttons: one on every message (its text as written, Markdown included) and one on every code
 * block of rendered Markdown. A click writes plain text to the clipboard (`navigator.clipboard.
 * writeText`); agent text is only ever read as text (`textContent` or the message's own text), never
 * turned into HTML. The button says "Copied" for a moment, or "Copy failed" when the browser refused.
 * @packageDocumentation
 */
import { html, type TemplateResult } from 'lit';
import { defaultCopyStrings, type SiloCopyStrings } from '../shared/strings/strings.ts';

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

/**
 * A message's copy button (`part="copy"`): copies `text()` on a click (or Enter / Space). `as` gives
 * another label, tooltip and part (the "Copy all" of long text, content/long-text.ts).
 */
export function copyButton(
  text: () => string,
  s: SiloCopyStrings = defaultCopyStrings,
  as: { readonly label: string; readonly title: string; readonly part: string } = {
    label: s.copy,
    title: s.copyMessage,
    part: 'copy',
  },
): TemplateResult {
  return html`<button
    type="button"
    class="copy"
    part=${as.part}
    title=${as.title}
    @click=${(e: Event) => void copy(e.currentTarget as HTMLButtonElement, text(), s)}
  >${as.label}</button>`;
}

/**
 * Wraps each `<pre>` under `root` in `<div class="code" part="code-block">` followed by a copy button
 * (`part="copy copy-code"`), and makes the `<pre>` focusable (it scrolls sideways). Called by the sanitizer (content/markdown.ts) on its own DOM, after sanitizing and
 * before serializing, so the HTML is parsed once and changed as a tree, never as text: nothing the
 * agent wrote (an attribute value that spells `<pre>`, say) can move Silo's markup into its own. The
 * button works through {@link onCodeCopyClick} on the element that holds the HTML.
 */
export function wrapCodeBlocks(root: ParentNode & Node, s: SiloCopyStrings = defaultCopyStrings): void {
  const doc = root.ownerDocument ?? document;
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    const wrap = doc.createElement('div');
    wrap.className = 'code';
    wrap.setAttribute('part', 'code-block');
    const button = doc.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.setAttribute('part', 'copy copy-code');
    button.title = s.copyCode;
    button.textContent = s.copy;
    // A long line scrolls the block sideways: keyboard users reach it with Tab to scroll it.
    pre.tabIndex = 0;
    pre.replaceWith(wrap);
    wrap.append(pre, button);
  }
}

/**
 * A `click` listener for an element holding Markdown HTML with {@link wrapCodeBlocks}' buttons: a click on a code block's copy
 * button copies that block's text (`textContent`, never HTML).
 */
export function onCodeCopyClick(e: Event, s: SiloCopyStrings = defaultCopyStrings): void {
  const button = (e.target as Element | null)?.closest?.('button.copy[part~="copy-code"]');
  if (!(button instanceof HTMLButtonElement)) return;
  const pre = button.parentElement?.querySelector(':scope > pre');
  void copy(button, pre?.textContent ?? '', s);
}
