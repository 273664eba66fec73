// The components entry's module graph, split by esbuild the way any bundler splits `import()`: what
// the first paint loads (the entry and the chunks it imports statically) must not hold the syntax
// highlighter (highlight.js), the `diff` package, the Markdown parser (marked), the sanitizer
// (DOMPurify), the virtualizer (@lit-labs/virtualizer), the transcript's row templates (tool cards,
// permission prompts, content blocks) and their styles, the transcript's find and the chat's find
// bar, the async directives that swap chunks in, or the modules that wrap them; the chunks loaded on
// demand must. A static import of any of them anywhere on the first-paint path fails here. As in
// scripts/build.mjs, the components take the page API from its own bundle (silo.js), checked apart:
// it must hold none of the highlighter, marked or DOMPurify (it does hold `diff`, for the
// synchronous `toMarkdown`).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { build, type Metafile, type Plugin } from 'esbuild';

const ROOT = join(import.meta.dirname, '../..');

/** The outputs reachable from `entry`: through static imports only, or also through `import()`. */
function closure(meta: Metafile, entry: string, dynamic: boolean): Set<string> {
  const seen = new Set([entry]);
  const queue = [entry];
  while (queue.length) {
    const out = meta.outputs[queue.shift()!]!;
    for (const i of out.imports) {
      if (i.external || seen.has(i.path)) continue;
      if (i.kind === 'dynamic-import' && !dynamic) continue;
      seen.add(i.path);
      queue.push(i.path);
    }
  }
  return seen;
}

const inputsOf = (meta: Metafile, outputs: Set<string>) =>
  [...outputs].flatMap((o) => Object.keys(meta.outputs[o]!.inputs));

/** The components import the page API (`../src/index.ts`) from its own bundle, as the build does. */
const pageApiApart: Plugin = {
  name: 'page-api-apart',
  setup(b) {
    b.onResolve({ filter: /\/src\/index\.ts$/ }, (args) =>
      args.importer.includes('/components/') ? { path: './silo.js', external: true } : undefined,
    );
  },
};

async function graph(entryPoint: string, outdir: string, plugins: Plugin[]) {
  const { metafile } = await build({
    absWorkingDir: ROOT,
    entryPoints: [entryPoint],
    bundle: true,
    splitting: true,
    format: 'esm',
    target: 'es2022',
    outdir,
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins,
  });
  const entry = Object.keys(metafile.outputs).find((o) => metafile.outputs[o]!.entryPoint === entryPoint);
  assert.ok(entry, `${entryPoint} was built`);
  return {
    first: inputsOf(metafile, closure(metafile, entry, false)),
    all: inputsOf(metafile, closure(metafile, entry, true)),
  };
}

const LAZY = [
  /^node_modules\/highlight\.js\//,
  /^node_modules\/diff\//,
  /^components\/highlighter\.ts$/,
  /^components\/line-diff\.ts$/,
  /^node_modules\/marked\//,
  /^node_modules\/dompurify\//,
  /^components\/markdown\.ts$/,
  /^components\/markdown-render\.ts$/,
  /^node_modules\/@lit-labs\/virtualizer\//,
  /^components\/transcript-log\.ts$/,
  /^components\/transcript-rows\.ts$/,
  /^components\/tool-card\.ts$/,
  /^components\/permission-prompt\.ts$/,
  /^components\/content-blocks\.ts$/,
  /^components\/transcript-row-styles\.ts$/,
  /^components\/transcript-card-styles\.ts$/,
  /^components\/tool-card-styles\.ts$/,
  /^components\/transcript-find\.ts$/,
  /^components\/find-text\.ts$/,
  /^components\/find-highlight\.ts$/,
  /^components\/chat-find\.ts$/,
  /^components\/code-lazy\.ts$/,
  /^node_modules\/lit-html\/async-directive\.js$/,
];

describe('first paint', () => {
  test('the components entry loads the highlighter, the differ, the Markdown code and the rows only on demand', async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'silo-first-paint-'));
    try {
      const { first, all } = await graph('components/index.ts', outdir, [pageApiApart]);
      // Sanity: the first paint does hold the transcript's element and its frame.
      assert.ok(first.includes('components/silo-transcript.ts'));
      assert.ok(first.includes('components/transcript-view.ts'));
      for (const lazy of LAZY) {
        assert.deepEqual(
          first.filter((i) => lazy.test(i)),
          [],
          `${lazy} is not in the first paint (${relative(ROOT, outdir)})`,
        );
        assert.ok(
          all.some((i) => lazy.test(i)),
          `${lazy} is loaded on demand`,
        );
      }
      // The highlighter's languages come with it (a few of the common ones, by name).
      for (const language of ['typescript', 'python', 'bash', 'json'])
        assert.ok(all.includes(`node_modules/highlight.js/es/languages/${language}.js`), language);
      const page = await graph('src/index.ts', outdir, []);
      assert.ok(page.first.includes('src/export.ts'));
      assert.deepEqual(
        page.all.filter((i) => /highlight|marked|dompurify/.test(i)),
        [],
      );
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
