// What the first paint of <silo-chat> loads: the page and components entries and the chunks they
// import statically. The Markdown parser (marked) and the sanitizer (DOMPurify) are not in it: they
// are a chunk the components load with import() (components/markdown-lazy.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildBench, reachable } from '../../bench/build.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Strings that only the two packages' code holds (a DOMPurify hook name, marked's error prefix).
const DOMPURIFY = 'uponSanitizeElement';
const MARKED = 'marked(): ';

test('the first paint holds neither marked nor DOMPurify; the components load them with import()', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'silo-split-'));
  try {
    await buildBench(ROOT, dir);
    const text = (file: string) => readFileSync(join(dir, file), 'utf8');
    const first = new Set([...reachable(dir, 'silo.js', false), ...reachable(dir, 'components.js', false)]);
    assert.ok(first.has('components.js') && first.has('silo.js'));
    for (const file of first) {
      assert.equal(text(file).includes(DOMPURIFY), false, `DOMPurify in the first paint (${file})`);
      assert.equal(text(file).includes(MARKED), false, `marked in the first paint (${file})`);
    }
    const lazy = reachable(dir, 'components.js', true).filter((f) => !first.has(f));
    assert.ok(
      lazy.some((f) => text(f).includes(DOMPURIFY) && text(f).includes(MARKED)),
      `a lazy chunk holds both (lazy chunks: ${lazy.join(', ')})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
