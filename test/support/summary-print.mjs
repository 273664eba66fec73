// Prints the totals of the reliability and security suite (records appended by test/support/summary.ts
// and the silo-report command) at the end of `npm test`. Returns false when updates were lost.
import { existsSync, readFileSync } from 'node:fs';

/** @param {string} file @param {boolean} long */
export function printSummary(file, long) {
  const records = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
  const sum = (category) => records.filter((r) => r.category === category).reduce((a, r) => a + r.n, 0);
  const by = (category) => {
    const m = new Map();
    for (const r of records.filter((x) => x.category === category))
      m.set(r.engine, (m.get(r.engine) ?? 0) + r.n);
    return [...m].map(([e, n]) => `${e} ${n}`).join(', ');
  };
  const lost = sum('lost');
  const lines = [
    '',
    `[silo] Reliability and security summary${long ? ' (long variants)' : ' (default; npm test -- --long for the long variants)'}`,
    `  faults survived:   ${sum('faults')}  (${by('faults') || 'none recorded'})`,
    `  bad inputs tried:  ${sum('inputs')}  (${by('inputs') || 'none recorded'})`,
    `  attacks refused:   ${sum('attacks')}  (${by('attacks') || 'none recorded'})`,
    `  updates lost:      ${lost}${lost === 0 ? '' : '  <-- MUST BE 0'}`,
  ];
  const figures = records.filter((r) => r.category === 'figure');
  if (figures.length) {
    lines.push('  figures:');
    for (const f of figures)
      lines.push(
        `    ${f.engine.padEnd(8)} ${f.name}: ${f.n.toLocaleString('en-US')}${f.unit ? ` ${f.unit}` : ''}`,
      );
  }
  console.log(lines.join('\n'));
  return lost === 0;
}
