/**
 * Highlighting for find in `<silo-transcript>`: the ranges of a query's occurrences in a rendered row
 * (text nodes only; nothing is injected), the page's two shared CSS Custom Highlight API highlights
 * (`silo-find`, `silo-find-active`; their styles are in transcript/silo-transcript.styles.ts, in the first paint),
 * bringing the current match into view, and where the view starts.
 * @packageDocumentation
 */
import { fold } from './text.ts';

/** A `Highlight` as the set of ranges it is (spelled out: not every TypeScript lib set declares it). */
type RangeSet = Highlight & { add(range: Range): unknown; delete(range: Range): boolean };

let shared: { all: RangeSet; active: RangeSet } | null | undefined;

/** The page's two find highlights (shared by every transcript), or null without the API. */
export function highlights(): { all: RangeSet; active: RangeSet } | null {
  if (shared !== undefined) return shared;
  const registry = (typeof CSS !== 'undefined' ? CSS.highlights : undefined) as
    | Map<string, RangeSet>
    | undefined;
  if (!registry || typeof Highlight !== 'function') {
    shared = null;
    return shared;
  }
  const get = (name: string, priority: number) => {
    let h = registry.get(name);
    if (!h) {
      h = new Highlight() as RangeSet;
      h.priority = priority;
      registry.set(name, h);
    }
    return h;
  };
  shared = { all: get('silo-find', 0), active: get('silo-find-active', 1) };
  return shared;
}

/** Text that is not the row's content: controls, screen-reader-only labels, decorations. */
const SKIP = 'button, .sr-only, [aria-hidden="true"], style, script, template';

/** Ranges of every occurrence of `query` (folded) in the text of `root` (its own shadow tree only). */
export function textMatches(root: Element, query: string): Range[] {
  const nodes: Text[] = [];
  const starts: number[] = [];
  let text = '';
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement?.closest(SKIP) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
    nodes.push(n);
    starts.push(text.length);
    text += fold(n.data);
  }
  const out: Range[] = [];
  let node = 0;
  const locate = (offset: number, end: boolean): [Text, number] => {
    // Offsets only grow, so the node search goes on from the last one.
    while (node + 1 < nodes.length && (end ? starts[node + 1]! < offset : starts[node + 1]! <= offset))
      node++;
    return [nodes[node]!, offset - starts[node]!];
  };
  for (let i = text.indexOf(query); i !== -1; i = text.indexOf(query, i + query.length)) {
    const range = document.createRange();
    const [sn, so] = locate(i, false);
    range.setStart(sn, so);
    const [en, eo] = locate(i + query.length, true);
    range.setEnd(en, eo);
    out.push(range);
  }
  return out;
}

/**
 * Opens every closed `<details>` around `range` (a thought, a folded output) and scrolls the log so
 * the range is in view (a row taller than the view may hold it below the fold).
 */
export function bringIntoView(range: Range, log: HTMLElement | null): void {
  for (let el = range.startContainer.parentElement; el && el !== log; el = el.parentElement) {
    if (
      el instanceof HTMLDetailsElement &&
      !el.open &&
      !el.querySelector(':scope > summary')?.contains(range.startContainer)
    )
      el.open = true;
  }
  if (!log) return;
  const r = range.getBoundingClientRect();
  const view = log.getBoundingClientRect();
  if (r.height === 0 && r.width === 0) return;
  if (r.top < view.top || r.bottom > view.bottom) log.scrollTop += r.top - view.top - log.clientHeight / 3;
}

/** The index of the first rendered row at least partly in the log's view (0 before the first render). */
export function firstRowInView(log: HTMLElement | null): number {
  if (!log) return 0;
  const top = log.getBoundingClientRect().top;
  let first = Number.POSITIVE_INFINITY;
  for (const el of Array.from(log.querySelectorAll<HTMLElement>(':scope > .row[data-index]'))) {
    if (el.getBoundingClientRect().bottom > top + 1) first = Math.min(first, Number(el.dataset.index));
  }
  return Number.isFinite(first) ? first : 0;
}
