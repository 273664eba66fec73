// The source tree's rules (docs/architecture.md, "The tree"), read from every module's imports
// (static, type-only, `export … from`, and `import()`):
// - no import circle in components/, src/ or worker/ (a type-only edge counts: it ties the files
//   together for a reader as much as a value does);
// - an element's folder (components/chat/, components/transcript/, components/elicitation/) is
//   entered from outside only through its public modules: at the folder's top level, the element's
//   class module (`silo-chat.ts`), its registration (`silo-chat.define.ts`) and its chunk loaders
//   (`*.chunk.ts`). components/content/ and components/shared/ enter no element's folder at all;
// - the first-paint boundary has one name: `import()` of a component module only in a `*.chunk.ts`;
// - `css` templates only in `*.styles.ts`; `…Controller` classes only in `*.controller.ts`, and
//   each `*.controller.ts` exports one; events fired only through `SiloElement.emit`.
// Tests (test/) may import any module: they test the rooms from inside.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '../..');

/** The TypeScript modules under `dir` (repository-relative, `/`-separated), declarations apart. */
function modules(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => posix.join(dir, f.split('\\').join('/')))
    .sort();
}

interface Edge {
  to: string;
  dynamic: boolean;
}

/** The relative imports of `file`, resolved to repository-relative paths. */
function importsOf(file: string, text = readFileSync(join(ROOT, file), 'utf8')): Edge[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles
    .filter((i) => i.fileName.startsWith('.'))
    .map((i) => ({
      to: posix.normalize(posix.join(posix.dirname(file), i.fileName)),
      // `import(` right before the specifier: a call or a `typeof import()` type.
      dynamic: /\bimport\s*\(\s*$/.test(text.slice(0, i.pos)),
    }));
}

/** The import circles among `files` (each once, as the list of its files), by Tarjan's algorithm. */
export function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const part: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      part.push(w);
    } while (w !== v);
    if (part.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(part.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const ELEMENTS = ['chat', 'transcript', 'elicitation'];

/** The element folder `file` is in (`chat`, `transcript`, `elicitation`), if any. */
function elementOf(file: string): string | undefined {
  const [top, folder] = file.split('/');
  return top === 'components' && ELEMENTS.includes(folder!) ? folder : undefined;
}

/**
 * Whether `file`, in an element's folder, is one of its public modules: at the folder's top level,
 * the element's class module, its registration, or a chunk loader.
 */
export function isPublicModule(file: string): boolean {
  const folder = elementOf(file);
  if (!folder) return true;
  const rest = file.slice(`components/${folder}/`.length);
  if (rest.includes('/')) return false;
  return rest === `silo-${folder}.ts` || rest === `silo-${folder}.define.ts` || rest.endsWith('.chunk.ts');
}

/** What breaks the folder rules in `edges` (`from` → its imports): one line each. */
export function boundaryBreaks(edges: Map<string, Edge[]>): string[] {
  const out: string[] = [];
  for (const [from, list] of edges) {
    const own = elementOf(from);
    const library = /^components\/(content|shared)\//.test(from);
    for (const { to, dynamic } of list) {
      const target = elementOf(to);
      if (target && target !== own && (library || !isPublicModule(to)))
        out.push(
          `${from} → ${to}: ${library ? 'content/ and shared/ enter no element' : 'not a public module'}`,
        );
      if (dynamic && to.startsWith('components/') && !from.endsWith('.chunk.ts') && !isTypeOnlyUse(from, to))
        out.push(`${from} → ${to}: import() outside a *.chunk.ts`);
    }
  }
  return out;
}

/** Whether every `import('…to…')` in `from` is a `typeof import()` type, not a load. */
function isTypeOnlyUse(from: string, to: string): boolean {
  const text = readFileSync(join(ROOT, from), 'utf8');
  const spec = relative(dirname(join(ROOT, from)), join(ROOT, to))
    .split('\\')
    .join('/');
  const calls = [...text.matchAll(/(typeof\s+)?import\s*\(\s*['"]([^'"]+)['"]/g)].filter(
    (m) => m[2]!.replace(/^\.\//, '') === spec.replace(/^\.\//, ''),
  );
  return calls.every((m) => m[1]);
}

const SOURCE = [...modules('components'), ...modules('src'), ...modules('worker')];
const EDGES = new Map(SOURCE.map((f) => [f, importsOf(f)]));

describe('the source tree', () => {
  test('has no import circle in components/, src/ or worker/', () => {
    const graph = new Map([...EDGES].map(([f, list]) => [f, list.map((e) => e.to)]));
    assert.deepEqual(circles(graph), []);
  });

  test("enters an element's folder only through its public modules, and loads chunks only in *.chunk.ts", () => {
    assert.deepEqual(boundaryBreaks(EDGES), []);
  });

  test('keeps styles in *.styles.ts, controllers in *.controller.ts, and fires events through emit()', () => {
    const breaks: string[] = [];
    for (const file of modules('components')) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      if (/\bcss`/.test(text) && !file.endsWith('.styles.ts'))
        breaks.push(`${file}: css outside *.styles.ts`);
      const controllers = [...text.matchAll(/export class (\w+Controller)\b/g)].map((m) => m[1]);
      if (controllers.length && !file.endsWith('.controller.ts'))
        breaks.push(`${file}: ${controllers.join(', ')} outside *.controller.ts`);
      if (file.endsWith('.controller.ts') && controllers.length !== 1)
        breaks.push(`${file}: exports ${controllers.length} …Controller classes, not one`);
      if (/\bdispatchEvent\s*\(/.test(text) && file !== 'components/shared/silo-element.ts')
        breaks.push(`${file}: dispatchEvent outside SiloElement.emit`);
    }
    assert.deepEqual(breaks, []);
  });

  test('the checks see a planted circle, a reach into an element, and a stray import()', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    assert.deepEqual(circles(graph), [['a.ts', 'b.ts', 'c.ts']]);
    assert.equal(isPublicModule('components/transcript/silo-transcript.ts'), true);
    assert.equal(isPublicModule('components/transcript/rows.chunk.ts'), true);
    assert.equal(isPublicModule('components/transcript/rows/rows.ts'), false);
    assert.equal(isPublicModule('components/elicitation/fields.ts'), false);
    const planted = new Map<string, Edge[]>([
      ['components/chat/silo-chat.ts', [{ to: 'components/transcript/rows/rows.ts', dynamic: false }]],
      ['components/shared/parts.ts', [{ to: 'components/chat/silo-chat.ts', dynamic: false }]],
    ]);
    assert.equal(boundaryBreaks(planted).length, 2);
  });
});
