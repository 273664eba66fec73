/**
 * The loader of Silo's lazy chunks (Markdown, the transcript's rows, find, the find bar, the
 * highlighter, the differ): a module loaded with `import()` once, on first use. Its own module, with
 * no Lit in it, so the first paint can start and await loads without the directives of content/code.lazy.ts.
 * @packageDocumentation
 */

/** A chunk loaded once, on first use; a failed load is forgotten so that the next use tries again. */
export class Chunk<T> {
  value: T | undefined;
  #loading: Promise<T> | undefined;
  constructor(private readonly importer: () => Promise<T>) {}
  load(): Promise<T> {
    this.#loading ??= this.importer().then(
      (m) => {
        this.value = m;
        return m;
      },
      (error: unknown) => {
        this.#loading = undefined;
        throw error;
      },
    );
    return this.#loading;
  }
}
