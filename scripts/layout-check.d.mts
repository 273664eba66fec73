/** Types for scripts/layout-check.mjs. */
export interface LayoutBox {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly width: number;
  readonly height: number;
}

/** What {@link measureLayout} finds in a page. */
export interface LayoutMeasure {
  readonly vw: number;
  readonly vh: number;
  readonly horizontalScroll: boolean;
  readonly verticalScroll: boolean;
  readonly overlaps: string[];
  readonly clipped: string[];
  readonly log?: LayoutBox;
  readonly chat?: LayoutBox;
  readonly composerInner?: number;
  readonly textarea?: LayoutBox;
  readonly send?: LayoutBox;
}

/** Runs in the page (`page.evaluate(measureLayout)`). */
export declare function measureLayout(): LayoutMeasure;
export declare function layoutProblems(m: LayoutMeasure): string[];
