/** Summaries of repeated runs: every headline figure is a median with its min, max and the runs. */

export interface Figure {
  median: number;
  min: number;
  max: number;
  runs: number[];
  unit: string;
}

export function figure(runs: readonly number[], unit: string): Figure {
  const clean = runs.filter((r) => Number.isFinite(r));
  const sorted = [...clean].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const median =
    sorted.length === 0
      ? Number.NaN
      : sorted.length % 2
        ? sorted[Math.floor(mid)]!
        : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0] ?? Number.NaN, max: sorted.at(-1) ?? Number.NaN, runs: [...runs], unit };
}

/** Nearest-rank quantile (0…1). */
export function quantile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

/** Ratios of paired runs (run i of `a` over run i of `b`), so each ratio compares like with like in time. */
export function pairedRatios(a: readonly number[], b: readonly number[]): number[] {
  return a.map((x, i) => x / b[i]!);
}

export function formatNumber(n: number, digits = 0): string {
  if (!Number.isFinite(n)) return '–';
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
