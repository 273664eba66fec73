/**
 * Syntax highlighting, loaded on demand (`import()` in content/code.lazy.ts, its own chunk): highlight.js's
 * core with a set of common languages, from its pure-ESM build (`@highlightjs/cdn-assets/es/`; the
 * `highlight.js` package's core is CommonJS, which Rollup cannot bundle without a CommonJS plugin).
 * Its HTML output is never put into the page: it is parsed in an inert `<template>` and read back as
 * a tree of text and token classes ({@link HighlightNode}), so only text (escaped wherever it is
 * drawn) and `hljs-*` class names come out, whatever the input.
 * @packageDocumentation
 */
/// <reference path="./highlighter-modules.d.ts" />
import hljs from '@highlightjs/cdn-assets/es/core.js';
import bash from '@highlightjs/cdn-assets/es/languages/bash.min.js';
import c from '@highlightjs/cdn-assets/es/languages/c.min.js';
import cpp from '@highlightjs/cdn-assets/es/languages/cpp.min.js';
import csharp from '@highlightjs/cdn-assets/es/languages/csharp.min.js';
import css from '@highlightjs/cdn-assets/es/languages/css.min.js';
import diff from '@highlightjs/cdn-assets/es/languages/diff.min.js';
import go from '@highlightjs/cdn-assets/es/languages/go.min.js';
import java from '@highlightjs/cdn-assets/es/languages/java.min.js';
import javascript from '@highlightjs/cdn-assets/es/languages/javascript.min.js';
import json from '@highlightjs/cdn-assets/es/languages/json.min.js';
import kotlin from '@highlightjs/cdn-assets/es/languages/kotlin.min.js';
import markdown from '@highlightjs/cdn-assets/es/languages/markdown.min.js';
import php from '@highlightjs/cdn-assets/es/languages/php.min.js';
import python from '@highlightjs/cdn-assets/es/languages/python.min.js';
import ruby from '@highlightjs/cdn-assets/es/languages/ruby.min.js';
import rust from '@highlightjs/cdn-assets/es/languages/rust.min.js';
import shell from '@highlightjs/cdn-assets/es/languages/shell.min.js';
import sql from '@highlightjs/cdn-assets/es/languages/sql.min.js';
import swift from '@highlightjs/cdn-assets/es/languages/swift.min.js';
import typescript from '@highlightjs/cdn-assets/es/languages/typescript.min.js';
import xml from '@highlightjs/cdn-assets/es/languages/xml.min.js';
import yaml from '@highlightjs/cdn-assets/es/languages/yaml.min.js';

const LANGUAGES = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  kotlin,
  markdown,
  php,
  python,
  ruby,
  rust,
  shell,
  sql,
  swift,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
hljs.registerAliases(['mjs', 'cjs', 'jsx'], { languageName: 'javascript' });
hljs.registerAliases(['mts', 'cts', 'tsx'], { languageName: 'typescript' });
hljs.registerAliases(['htm', 'svg'], { languageName: 'xml' });

/** Highlighted text: a string, or a token (its `hljs-*` classes) holding more nodes. */
export type HighlightNode =
  | string
  | { readonly classes: string; readonly children: readonly HighlightNode[] };

/** Only highlight.js's own class names pass (`hljs-keyword`, `hljs-title function_`…). */
const TOKEN_CLASSES = /^(?:hljs-[a-z_-]+|[a-z]+_)(?: (?:hljs-[a-z_-]+|[a-z]+_))*$/;
/** Longer code is left plain (highlighting is linear, but a frame should not pay for megabytes). */
const MAX_CHARS = 100_000;
/**
 * Results for short texts (diff lines, small blocks) by language and text, most recently used last:
 * a re-render highlights nothing again. A Markdown block is highlighted once per element, and a
 * streaming one grows at every frame, so long texts are not kept.
 */
const cache = new Map<string, HighlightNode[] | undefined>();
const CACHE_CAPACITY = 4000;
const CACHE_MAX_CHARS = 1000;

/** A language highlight.js knows by this name or alias (case-insensitive), else undefined. */
export function knownLanguage(name: string | undefined): string | undefined {
  if (!name) return undefined;
  const lower = name.toLowerCase();
  return hljs.getLanguage(lower) ? lower : undefined;
}

/** The language of a file by its extension (`a/b.ts` → `typescript`), else undefined. */
export function languageOfPath(path: string): string | undefined {
  const name = path.split(/[\\/]/).pop() ?? '';
  const dot = name.lastIndexOf('.');
  return dot > 0 ? knownLanguage(name.slice(dot + 1)) : undefined;
}

/**
 * Highlights `text` as `language` (a name or alias), or returns undefined when the language is unknown,
 * the text too long, or highlight.js failed. Never throws.
 */
export function highlight(text: string, language: string | undefined): HighlightNode[] | undefined {
  const lang = knownLanguage(language);
  if (!lang || text.length > MAX_CHARS) return undefined;
  const key = `${lang}\u0000${text}`;
  if (text.length <= CACHE_MAX_CHARS && cache.has(key)) {
    const hit = cache.get(key);
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const nodes = compute(text, lang);
  if (text.length > CACHE_MAX_CHARS) return nodes;
  cache.set(key, nodes);
  if (cache.size > CACHE_CAPACITY) cache.delete(cache.keys().next().value!);
  return nodes;
}

function compute(text: string, lang: string): HighlightNode[] | undefined {
  let value: string;
  try {
    value = hljs.highlight(text, { language: lang, ignoreIllegals: true }).value;
  } catch {
    return undefined;
  }
  const template = document.createElement('template');
  template.innerHTML = value;
  const nodes = read(template.content);
  // The tree must spell the input exactly; anything else is shown plain.
  return flatText(nodes) === text ? nodes : undefined;
}

function read(parent: Node): HighlightNode[] {
  const out: HighlightNode[] = [];
  for (const node of Array.from(parent.childNodes)) {
    if (node.nodeType === Node.TEXT_NODE) out.push(node.textContent ?? '');
    else if (node instanceof HTMLSpanElement && TOKEN_CLASSES.test(node.className))
      out.push({ classes: node.className, children: read(node) });
    else out.push(node.textContent ?? '');
  }
  return out;
}

function flatText(nodes: readonly HighlightNode[]): string {
  return nodes.map((n) => (typeof n === 'string' ? n : flatText(n.children))).join('');
}
