/**
 * The rows of `<silo-transcript>` without their code in the first paint: rows/log.ts (the
 * virtualizer, the row templates, tool cards, permission prompts) is its own chunk (rows.chunk.ts).
 * This is its stand-in: the components entry starts loading it as soon as it is imported, beside the first
 * paint, so it is normally in before a journal's first rows are. Until then a transcript draws its
 * frame (the empty log region, the usage header, the empty text) and keeps every row in its model; it
 * draws them on the render after the chunk arrives, and adopts the rows' styles (which come with the
 * chunk) in that render, before the rows are drawn.
 * @packageDocumentation
 */
import { adoptStyles, type ReactiveElement, supportsAdoptingStyleSheets } from 'lit';
import { logChunk, type TranscriptLog } from './rows.chunk.ts';

/** Shadow roots that hold the rows' styles already. */
const styled = new WeakSet<ShadowRoot>();

/**
 * Adds the chunk's row styles to `host`'s shadow root, after the element's own (once per root): with
 * adopted style sheets, the element's styles then the rows'; without, `<style>` elements appended
 * after the ones Lit added.
 */
function adoptRowStyles(host: ReactiveElement, log: TranscriptLog): void {
  const root = host.renderRoot;
  if (!(root instanceof ShadowRoot) || styled.has(root)) return;
  styled.add(root);
  const own = (host.constructor as typeof ReactiveElement).elementStyles;
  adoptStyles(root, supportsAdoptingStyleSheets ? [...own, ...log.rowStyles] : [...log.rowStyles]);
}

/**
 * Called in `host`'s render: the rows chunk, if it is loaded, with its row styles adopted into the
 * host's shadow root. If not, starts (or joins) its load, asks `host` to render again once it arrives,
 * and returns undefined: the caller draws its frame meanwhile. A failed load asks nothing; the next
 * call (the next render) tries again. Loses nothing: the rows stay in the caller's model.
 */
export function transcriptLog(host: ReactiveElement): TranscriptLog | undefined {
  if (logChunk.value) {
    adoptRowStyles(host, logChunk.value);
    return logChunk.value;
  }
  logChunk.load().then(
    () => host.requestUpdate(),
    () => undefined,
  );
  return undefined;
}
