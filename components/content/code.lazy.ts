/**
 * Code that is drawn at once and upgraded later: the syntax highlighter (content/highlighter.ts) and the line
 * differ (content/line-diff.ts, with the `diff` package) are loaded with `import()` the first time a code
 * block or a diff is drawn, so neither is in the first paint's bundle. Until one arrives its code
 * shows as plain text; when it arrives, only the parts that asked for it re-render (Lit async
 * directives), never the whole transcript. A chunk that fails to load leaves the plain text and is
 * tried again by the next part that asks.
 * @packageDocumentation
 */
import { type ChildPart, type ElementPart, html, noChange, nothing, type TemplateResult } from 'lit';
import { AsyncDirective, directive, type PartInfo, PartType } from 'lit/async-directive.js';
import type { Chunk } from '../shared/chunk.ts';
import { type Highlighter, highlighterChunk, loadHighlighter } from './highlighter.chunk.ts';
import type { HighlightNode } from './highlighter.ts';
import { type Differ, differChunk } from './line-diff.chunk.ts';

/**
 * Renders `view(module)` once `chunk` is loaded, and `fallback` until then. Re-rendered with new
 * arguments, it draws the newest ones. The swap is not a render of the element that holds it, so the
 * code blocks it brings (a Markdown chunk's) are highlighted here ({@link highlightCodeIn}).
 */
class WhenLoaded extends AsyncDirective {
  #view: ((m: never) => unknown) | undefined;
  #waiting = false;
  #parent: Node | undefined;

  override update(part: ChildPart, args: Parameters<this['render']>): unknown {
    this.#parent = part.parentNode;
    return super.update(part, args);
  }

  render<T>(chunk: Chunk<T>, view: (m: T) => unknown, fallback: unknown): unknown {
    if (chunk.value !== undefined) return view(chunk.value);
    this.#view = view as (m: never) => unknown;
    if (!this.#waiting) {
      this.#waiting = true;
      chunk.load().then(
        (m) => {
          this.#waiting = false;
          if (!this.isConnected || !this.#view) return;
          this.setValue(this.#view(m as never));
          const parent = this.#parent;
          if (parent instanceof Element) queueMicrotask(() => highlightCodeIn(parent));
        },
        () => {
          this.#waiting = false;
        },
      );
    }
    return fallback;
  }
}
const whenLoadedDirective = directive(WhenLoaded);

/** `view(module)` once `chunk` is loaded, `fallback` until then (see {@link WhenLoaded}). */
export function whenLoaded<T>(chunk: Chunk<T>, view: (m: T) => unknown, fallback: unknown): unknown {
  return whenLoadedDirective(chunk as Chunk<unknown>, view as (m: unknown) => unknown, fallback);
}

/** `view(lineDiff module)` once the differ is loaded, `fallback` until then. */
export function withDiffer(view: (m: Differ) => unknown, fallback: unknown = nothing): unknown {
  return whenLoaded(differChunk, view, fallback);
}

/** `view(highlighter module)` once the highlighter is loaded, `fallback` until then. */
export function withHighlighter(view: (m: Highlighter) => unknown, fallback: unknown): unknown {
  return whenLoaded(highlighterChunk, view, fallback);
}

/** Highlighted nodes as Lit templates: text through text bindings, classes through an attribute binding. */
export function highlightTemplate(nodes: readonly HighlightNode[]): unknown[] {
  return nodes.map((n): string | TemplateResult =>
    typeof n === 'string' ? n : html`<span class=${n.classes}>${highlightTemplate(n.children)}</span>`,
  );
}

/** `text` highlighted as `language` once the highlighter is loaded; plain `text` until then (and when unknown). */
export function highlightedText(text: string, language: string | undefined): unknown {
  if (!language) return text;
  return withHighlighter((h) => {
    const nodes = h.highlight(text, language);
    return nodes ? highlightTemplate(nodes) : text;
  }, text);
}

/** Highlighted nodes as DOM: text nodes and `<span class>` only. */
function highlightNodes(doc: Document, nodes: readonly HighlightNode[]): Node[] {
  return nodes.map((n) => {
    if (typeof n === 'string') return doc.createTextNode(n);
    const span = doc.createElement('span');
    span.className = n.classes;
    span.append(...highlightNodes(doc, n.children));
    return span;
  });
}

/** Code elements already highlighted (the rendered Markdown keeps the DOM of blocks that did not change). */
const done = new WeakSet<Element>();

/** The language a sanitized Markdown code block names (`<code class="language-ts">`). */
function languageOf(code: Element): string | undefined {
  return /(?:^|\s)language-([\w+#.-]+)/.exec(code.className)?.[1];
}

/** Highlights the code blocks (`pre > code` naming a language) under `root` (loads the highlighter). */
export function highlightCodeIn(root: Element): void {
  const blocks = Array.from(root.querySelectorAll('pre > code')).filter(
    (code) => !done.has(code) && languageOf(code) !== undefined,
  );
  if (blocks.length === 0) return;
  void loadHighlighter().then(
    (h) => {
      for (const code of blocks) {
        if (done.has(code) || !code.isConnected) continue;
        done.add(code);
        const text = code.textContent ?? '';
        const nodes = h.highlight(text, languageOf(code));
        if (nodes) code.replaceChildren(...highlightNodes(code.ownerDocument, nodes));
      }
    },
    () => undefined,
  );
}

/**
 * An element directive for an element that holds rendered Markdown: after each render, its code
 * blocks that name a language are highlighted (once the highlighter arrives). Only text is read from
 * them (`textContent`); what is written back is text nodes and `hljs-*` spans.
 */
class HighlightCode extends AsyncDirective {
  constructor(part: PartInfo) {
    super(part);
    if (part.type !== PartType.ELEMENT) throw new Error('highlightCode() goes on an element');
  }
  render(): unknown {
    return noChange;
  }
  override update(part: ElementPart): unknown {
    const el = part.element;
    // The element's own content renders after this part: look once the render is done.
    queueMicrotask(() => {
      if (el.isConnected && el.querySelector('pre > code')) highlightCodeIn(el);
    });
    return noChange;
  }
}

/** Use as `<div class="md" ${highlightCode()}>`: see {@link HighlightCode}. */
export const highlightCode = directive(HighlightCode);
