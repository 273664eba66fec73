// highlight.js's pure-ESM build (`@highlightjs/cdn-assets/es/`, published with every highlight.js
// release) ships no declarations: the part of its API that highlighter.ts uses.
declare module '@highlightjs/cdn-assets/es/core.js' {
  /** A language definition (the default export of `es/languages/<name>.min.js`). */
  export type LanguageFn = (hljs: HighlightApi) => object;

  export interface HighlightApi {
    registerLanguage(name: string, language: LanguageFn): void;
    registerAliases(aliases: string | string[], options: { languageName: string }): void;
    getLanguage(name: string): object | undefined;
    /** Throws on an unknown language. */
    highlight(code: string, options: { language: string; ignoreIllegals?: boolean }): { value: string };
  }

  const hljs: HighlightApi;
  export default hljs;
}

declare module '@highlightjs/cdn-assets/es/languages/*' {
  import type { LanguageFn } from '@highlightjs/cdn-assets/es/core.js';

  const language: LanguageFn;
  export default language;
}
