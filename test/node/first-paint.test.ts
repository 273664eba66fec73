// The components entry's module graph, split by esbuild the way any bundler splits `import()`: what
// the first paint loads (the entry and the chunks it imports statically) must not hold the syntax
// highlighter (highlight.js's pure-ESM build, @highlightjs/cdn-assets), the ANSI colouring (ansi_up),
// the `diff` package, the Markdown parser (marked), the sanitizer
// (markdown-sanitize.ts), the virtualizer (@lit-labs/virtualizer), the transcript's row templates (tool cards,
// permission prompts, content blocks) and their styles, the transcript's find and the chat's find
// bar, the attachments' reading, checks and chips, the async directives that swap chunks in, or the
// modules that wrap them; the chunks loaded on demand must. A static import of any of them anywhere on the first-paint path fails here. As in
// scripts/build.mjs, the components take the page API from its own bundles: the main entry
// (src/index.ts → silo.js) and its sub-entries, export (src/export.ts → export.js, with `diff`) and
// elicitation (src/elicitation/index.ts → elicitation.js, the validators). The components import
// the page API only through those entries; they load the sub-entries with `import()` only (or from a
// chunk that is itself loaded so), and the main entry reaches neither of them, nor the highlighter,
// marked or the sanitizer. The transcript entry (components/transcript.ts) holds nothing of the chat.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { build, type Metafile, type Plugin } from 'esbuild';

const ROOT = join(import.meta.dirname, '../..');

/**
 * The outputs reachable from `entry`: through static imports only, or also through `import()`; and
 * the external modules (the page API's bundles) those outputs import, statically or, with `dynamic`,
 * either way.
 */
function closure(
  meta: Metafile,
  entry: string,
  dynamic: boolean,
): { outputs: Set<string>; externals: Set<string> } {
  const seen = new Set([entry]);
  const externals = new Set<string>();
  const queue = [entry];
  while (queue.length) {
    const out = meta.outputs[queue.shift()!]!;
    for (const i of out.imports) {
      if (i.kind === 'dynamic-import' && !dynamic) continue;
      if (i.external) externals.add(i.path);
      if (i.external || seen.has(i.path)) continue;
      seen.add(i.path);
      queue.push(i.path);
    }
  }
  return { outputs: seen, externals };
}

const inputsOf = (meta: Metafile, outputs: Set<string>) =>
  [...outputs].flatMap((o) => Object.keys(meta.outputs[o]!.inputs));

/** The page API's public entries, and the sibling bundle each is taken from (scripts/build.mjs). */
const PAGE_API: Record<string, string> = {
  'src/index.ts': './silo.js',
  'src/export.ts': './export.js',
  'src/elicitation/index.ts': './elicitation.js',
};

/** The components import the page API's entries from their own bundles, as the build does. */
const pageApiApart: Plugin = {
  name: 'page-api-apart',
  setup(b) {
    b.onResolve({ filter: /\/src\/[\w/-]+\.ts$/ }, (args) => {
      if (!args.importer.includes('/components/')) return undefined;
      const file = relative(ROOT, join(args.resolveDir, args.path));
      return file in PAGE_API ? { path: PAGE_API[file]!, external: true } : undefined;
    });
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
  const first = closure(metafile, entry, false);
  const all = closure(metafile, entry, true);
  return {
    first: inputsOf(metafile, first.outputs),
    all: inputsOf(metafile, all.outputs),
    firstExternals: [...first.externals].sort(),
    allExternals: [...all.externals].sort(),
  };
}

const LAZY = [
  /^node_modules\/@highlightjs\/cdn-assets\/es\//,
  /^node_modules\/diff\//,
  /^components\/content\/highlighter\.ts$/,
  /^components\/content\/line-diff\.ts$/,
  /^node_modules\/marked\//,
  /^components\/content\/markdown-sanitize\.ts$/,
  /^components\/content\/markdown\.ts$/,
  /^components\/content\/markdown-render\.ts$/,
  /^node_modules\/@lit-labs\/virtualizer\//,
  /^components\/transcript\/rows\/log\.ts$/,
  /^components\/transcript\/rows\/rows\.ts$/,
  /^components\/transcript\/rows\/tool-card\.ts$/,
  /^components\/transcript\/rows\/permission-prompt\.ts$/,
  /^components\/transcript\/rows\/content-blocks\.ts$/,
  /^components\/transcript\/rows\/rows\.styles\.ts$/,
  /^components\/transcript\/rows\/cards\.styles\.ts$/,
  /^components\/transcript\/rows\/tool-card\.styles\.ts$/,
  /^components\/transcript\/find\/find\.controller\.ts$/,
  /^components\/transcript\/find\/text\.ts$/,
  /^components\/transcript\/find\/highlight\.ts$/,
  /^components\/chat\/find-bar\.controller\.ts$/,
  /^components\/content\/code\.lazy\.ts$/,
  /^components\/chat\/attachment-files\.ts$/,
  /^node_modules\/lit-html\/async-directive\.js$/,
  /^node_modules\/ansi_up\//,
  /^components\/content\/ansi\.ts$/,
  /^components\/transcript\/rows\/terminal-block\.ts$/,
  /^components\/transcript\/rows\/subagent-view\.ts$/,
  /^components\/transcript\/rows\/navigation\.ts$/,
  /^components\/chat\/attention\.controller\.ts$/,
  /^components\/elicitation\/silo-elicitation\.ts$/,
];

describe('first paint', () => {
  test('the components entry loads the highlighter, the differ, the Markdown code, the rows and the sub-entries of the page API only on demand', async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'silo-first-paint-'));
    try {
      const { first, all, firstExternals, allExternals } = await graph('components/index.ts', outdir, [
        pageApiApart,
      ]);
      // Sanity: the first paint does hold the transcript's element and its frame.
      assert.ok(first.includes('components/transcript/silo-transcript.ts'));
      assert.ok(first.includes('components/transcript/view.ts'));
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
        assert.ok(
          all.includes(`node_modules/@highlightjs/cdn-assets/es/languages/${language}.min.js`),
          language,
        );
      // The components take the page API from its entries only (no second copy of any of its
      // modules), and the first paint takes only the main one: the sub-entries come with `import()`.
      assert.deepEqual(
        all.filter((i) => i.startsWith('src/')),
        [],
      );
      assert.deepEqual(firstExternals, ['./silo.js']);
      assert.deepEqual(allExternals, ['./elicitation.js', './export.js', './silo.js']);
      const page = await graph('src/index.ts', outdir, []);
      // Sanity: the main entry does hold the service and the elicitation messages.
      assert.ok(page.first.includes('src/service.ts'));
      assert.ok(page.first.includes('src/elicitation/issues.ts'));
      assert.deepEqual(
        page.all.filter((i) =>
          /highlight|marked|markdown|node_modules\/diff\/|^src\/export\.ts$|^src\/elicitation\/index\.ts$/.test(
            i,
          ),
        ),
        [],
      );
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });

  test('the transcript entry holds none of the chat, at first paint or on demand, and the same lazy chunks', async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'silo-transcript-entry-'));
    try {
      const { first, all } = await graph('components/transcript.ts', outdir, [pageApiApart]);
      // Sanity: it does hold the transcript's element and, on demand, the rows and Markdown.
      assert.ok(first.includes('components/transcript/silo-transcript.ts'));
      assert.ok(all.includes('components/transcript/rows/rows.ts'));
      assert.ok(all.includes('components/content/markdown-render.ts'));
      assert.deepEqual(
        all.filter((i) => i.startsWith('components/chat/') || i === 'components/shared/strings/chat.ts'),
        [],
      );
      for (const lazy of LAZY.filter((l) => !l.source.includes('chat')))
        assert.deepEqual(
          first.filter((i) => lazy.test(i)),
          [],
          `${lazy} is not in the transcript entry's first paint`,
        );
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });

  test('the worker takes JSONL from src/jsonl.ts, without the diff package of the Markdown export', async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'silo-worker-size-'));
    try {
      const { all } = await graph('worker/index.ts', outdir, []);
      // Sanity: it does hold the JSONL half of the export.
      assert.ok(all.includes('src/jsonl.ts'));
      assert.deepEqual(
        all.filter((i) => /^node_modules\/diff\/|^src\/export\.ts$/.test(i)),
        [],
      );
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
