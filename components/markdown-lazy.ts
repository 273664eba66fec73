/**
 * Agent Markdown without the Markdown code in the first paint: {@link markdown} is a Lit directive
 * that renders the sanitized Markdown (markdown-render.ts, its own chunk with `marked` and DOMPurify)
 * once that chunk is loaded, and until then the text itself, escaped by Lit as plain text (never as
 * HTML), then swaps in the Markdown when the chunk arrives. The components entry starts loading the
 * chunk as soon as it is imported, so a transcript rarely sees the plain stage.
 * @packageDocumentation
 */
import { type ChildPart, html, type TemplateResult } from 'lit';
import { AsyncDirective, directive } from 'lit/async-directive.js';
import { highlightCodeIn } from './code-lazy.ts';
import type { SiloCopyStrings } from './strings.ts';

type Renderer = typeof import('./markdown-render.ts');

let renderer: Renderer | undefined;
let loading: Promise<Renderer> | undefined;

/**
 * Loads the Markdown chunk (once; later calls return the same promise). Rejects if the chunk cannot be
 * loaded (a network error); the next call tries again, and text stays plain meanwhile.
 */
export function loadMarkdown(): Promise<Renderer> {
  loading ??= import('./markdown-render.ts').then(
    (m) => {
      renderer = m;
      return m;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

const plain = (text: string): TemplateResult => html`<div class="plain">${text}</div>`;

class MarkdownDirective extends AsyncDirective {
  #args: [string | undefined, object, string, SiloCopyStrings | undefined] | undefined;
  #waiting = false;
  #parent: Node | undefined;

  override update(part: ChildPart, args: Parameters<this['render']>): unknown {
    this.#parent = part.parentNode;
    return super.update(part, args);
  }

  render(key: string | undefined, owner: object, text: string, copy?: SiloCopyStrings): unknown {
    this.#args = [key, owner, text, copy];
    if (renderer) return renderer.markdownValue(key, owner, text, copy);
    if (!this.#waiting) {
      this.#waiting = true;
      loadMarkdown().then(
        (r) => {
          this.#waiting = false;
          if (!this.isConnected || !this.#args) return;
          this.setValue(r.markdownValue(...this.#args));
          // The swap is not a render of the element that holds it: its code blocks are highlighted here.
          const parent = this.#parent;
          if (parent instanceof Element) queueMicrotask(() => highlightCodeIn(parent));
        },
        () => {
          this.#waiting = false;
        },
      );
    }
    return plain(text);
  }
}

/**
 * Untrusted agent text as sanitized Markdown (policy: markdown.ts, docs/security.md): `key` names a
 * stream that grows by chunks (a row's key and part; rendered block by block, see markdown-stream.ts),
 * or is undefined for text rendered whole (cached per `owner`, a row object); `copy` labels the code
 * blocks' copy buttons (default {@link defaultCopyStrings}). Plain text until the Markdown chunk is
 * loaded.
 */
export const markdown = directive(MarkdownDirective);
