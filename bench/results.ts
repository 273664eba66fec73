/**
 * What a run records: every figure by section, the targets judged (met or missed, and by how much),
 * notes, and the run's log (stderr).
 */
import type { Section } from './options.ts';
import { type Figure, formatNumber } from './stats.ts';

export interface Target {
  section: Section;
  /** The target's number in docs/performance.md (#32), when it is one of them. */
  id?: number;
  name: string;
  target: string;
  value: string;
  met: boolean | null;
  /** For a missed target: by how much (filled in by {@link judge}). */
  by?: string;
  /** For a missed target: what bounds it. */
  why?: string;
}

export const figures: Record<string, Record<string, unknown>> = {};
export const targets: Target[] = [];
export const notes: string[] = [];

const started = performance.now();
export const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
export const runSeconds = () => Math.round((performance.now() - started) / 1000);
export const log = (s: string) => process.stderr.write(`[bench] ${s}\n`);

export interface Judged {
  section: Section;
  id?: number;
  name: string;
  value: string;
  measured: number;
  op: '≥' | '<' | '≤' | '=';
  limit: number;
  unit: string;
  digits?: number;
  /** What bounds the figure, printed when the target is missed. */
  why?: string;
}

/**
 * Records a target and whether `measured` meets it (`op` `limit`); a miss says by how much, in
 * `unit` and as a multiple of the limit.
 */
export function judge(j: Judged): void {
  const { measured, op, limit, unit, digits = 0 } = j;
  const met =
    op === '≥'
      ? measured >= limit
      : op === '<'
        ? measured < limit
        : op === '≤'
          ? measured <= limit
          : measured === limit;
  const suffix = unit === '×' ? '×' : unit ? ` ${unit}` : '';
  const target = `${op === '=' ? '' : `${op} `}${formatNumber(limit, digits)}${suffix}`;
  let by: string | undefined;
  if (!met && Number.isFinite(measured)) {
    const diff = formatNumber(Math.abs(measured - limit), digits);
    const times = limit > 0 ? ` (${formatNumber(measured / limit, 2)}× the limit)` : '';
    by = `${diff}${suffix} ${op === '≥' ? 'short' : 'over'}${times}`;
  } else if (!met) by = 'not measured';
  targets.push({
    section: j.section,
    ...(j.id ? { id: j.id } : {}),
    name: j.name,
    target,
    value: j.value,
    met,
    ...(by ? { by } : {}),
    ...(!met && j.why ? { why: j.why } : {}),
  });
}

/** `median (min – max)` of a figure, with a unit suffix. */
export function range(f: Figure, digits: number, unit: string): string {
  const n = (x: number) => formatNumber(x, digits);
  return `${n(f.median)}${unit} (${n(f.min)} – ${n(f.max)})`;
}

export const mb = (bytes: number, digits = 1) => `${formatNumber(bytes / 2 ** 20, digits)} MB`;
