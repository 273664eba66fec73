/**
 * `npm run test:mutants [-- --only a,b] [--list] [--check] [--markdown] [--no-baseline]`: plants each
 * mutant of `scripts/mutants.list.mjs` — a small bug a user would lose something to — one at a time,
 * runs the narrowest tests declared for it, and prints whether a test failed (killed, with the test)
 * or none did (survived). Not part of `npm test`; the latest result is in docs/testing.md.
 *
 * Mutants are planted only in a temporary copy of the tree (`$TMPDIR/silo-mutants-*`, its
 * `node_modules` a link to this one's), never in the working tree: an interrupted run leaves the
 * working tree as it was, and the copy is removed on exit (Ctrl+C included). Before anything runs,
 * every mutant's anchors are checked against the current sources: each `find` must occur exactly once
 * in its file, or the run stops (exit 2) naming the stale mutant, so a mutant whose code moved is never
 * reported as killed. Each declared test is first run unmutated (the baseline): a test that fails
 * without a mutant cannot kill one, so a failing baseline stops the run too.
 *
 * Exit code: 0 when every mutant run was killed, 1 when any survived, 2 for a stale anchor or a
 * failing baseline.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MUTANTS } from './mutants.list.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** A run of one test command longer than this counts as a failure (a mutant that hangs a test). */
const RUN_LIMIT_MS = 15 * 60_000;

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? new Set(args[onlyAt + 1]?.split(',')) : undefined;

/** The edits of a mutant: one `{find, replace}` or several in `edits`. */
const editsOf = (m) => m.edits ?? [{ find: m.find, replace: m.replace }];

/** How many times `needle` occurs in `text`. */
function occurrences(text, needle) {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** The mutated text of `m`'s file, or why an anchor is stale. */
function plant(m, text) {
  let out = text;
  for (const { find, replace } of editsOf(m)) {
    const n = occurrences(out, find);
    if (n !== 1) return { stale: `${JSON.stringify(find)} occurs ${n} times in ${m.file} (expected once)` };
    out = out.replace(find, () => replace);
  }
  if (out === text) return { stale: 'the edits change nothing' };
  return { text: out };
}

/** A test command's label, as printed. */
function label(t) {
  const where = t.node ?? `${t.browser} (${t.browsers ?? 'chromium'})`;
  return t.grep ? `${where} /${t.grep}/` : where;
}

/** The command and environment that run one declared test in `cwd`. */
function command(t) {
  if (t.node) {
    const pattern = t.grep ? [`--test-name-pattern=${t.grep}`] : [];
    return { argv: [process.execPath, '--import', 'tsx', '--test', ...pattern, t.node], env: {} };
  }
  return {
    argv: [
      process.execPath,
      'node_modules/@web/test-runner/dist/bin.js',
      '--config',
      'web-test-runner.config.mjs',
    ],
    env: {
      SILO_BROWSERS: t.browsers ?? 'chromium',
      SILO_TEST_FILES: t.browser,
      ...(t.grep ? { SILO_GREP: t.grep } : {}),
    },
  };
}

let current;
/** Runs one declared test in `cwd`; resolves to whether it passed and the first failing test's title. */
function run(t, cwd) {
  const { argv, env } = command(t);
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), {
      cwd,
      env: { ...process.env, ...env, FORCE_COLOR: '0', CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    current = child;
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => killGroup(child), RUN_LIMIT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      current = undefined;
      const failed =
        /^\s*not ok \d+ - (.*)$/m.exec(out)?.[1] ??
        /❌ (.*)$/m.exec(out)?.[1]?.replace(/ \(failed on .*\)$/, '');
      resolve({ passed: code === 0, failed: code === null ? 'timed out' : failed, out });
    });
  });
}

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Copies the working tree (tracked and untracked files, as they are now) to a fresh temporary dir. */
async function copyTree() {
  const dir = mkdtempSync(join(tmpdir(), 'silo-mutants-'));
  const files = await new Promise((resolve, reject) => {
    const git = spawn('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT });
    let out = '';
    git.stdout.on('data', (d) => (out += d));
    git.on('error', reject);
    git.on('close', (code) =>
      code === 0 ? resolve(out.split('\0').filter(Boolean)) : reject(new Error('git ls-files failed')),
    );
  });
  for (const f of files) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    try {
      cpSync(join(ROOT, f), join(dir, f));
    } catch {
      // deleted in the working tree but still in the index
    }
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

const selected = MUTANTS.filter((m) => !only || only.has(m.name));
if (only && selected.length !== only.size) {
  const known = new Set(MUTANTS.map((m) => m.name));
  console.error(`unknown mutant(s): ${[...only].filter((n) => !known.has(n)).join(', ')}`);
  process.exit(2);
}
if (flag('--list')) {
  for (const m of MUTANTS) console.log(`${m.name.padEnd(40)} ${m.file}  — ${m.what}`);
  process.exit(0);
}

// Every anchor first: a stale mutant stops the run before anything is planted.
const planted = new Map();
const stale = [];
for (const m of selected) {
  const p = plant(m, readFileSync(join(ROOT, m.file), 'utf8'));
  if (p.stale) stale.push(`${m.name}: ${p.stale}`);
  else planted.set(m.name, p.text);
}
if (stale.length) {
  console.error(
    `Stale mutants (their code changed; update scripts/mutants.list.mjs):\n  ${stale.join('\n  ')}`,
  );
  process.exit(2);
}
if (flag('--check')) {
  console.log(`${selected.length} mutants, every anchor found once.`);
  process.exit(0);
}

const copy = await copyTree();
const cleanup = () => rmSync(copy, { recursive: true, force: true });
process.on('exit', cleanup);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (current) killGroup(current);
    cleanup();
    process.exit(130);
  });
}
console.log(`mutants: ${selected.length}, in ${copy}`);

if (!flag('--no-baseline')) {
  const seen = new Map();
  for (const m of selected) for (const t of m.tests) seen.set(label(t), t);
  for (const [name, t] of seen) {
    const r = await run(t, copy);
    console.log(`baseline ${r.passed ? 'ok  ' : 'FAIL'} ${name}`);
    if (!r.passed) {
      console.error(
        `${r.out.slice(-4000)}\nA declared test fails without any mutant (${name}): fix it first.`,
      );
      process.exit(2);
    }
  }
}

const results = [];
for (const m of selected) {
  const path = join(copy, m.file);
  const original = readFileSync(path, 'utf8');
  const started = Date.now();
  writeFileSync(path, planted.get(m.name));
  let result = { name: m.name, what: m.what, killed: false };
  try {
    for (const t of m.tests) {
      const r = await run(t, copy);
      if (!r.passed) {
        result = { ...result, killed: true, by: label(t), test: r.failed ?? '(the run failed)' };
        break;
      }
    }
  } finally {
    writeFileSync(path, original);
  }
  result.seconds = Math.round((Date.now() - started) / 1000);
  results.push(result);
  console.log(
    `${result.killed ? 'killed  ' : 'SURVIVED'} ${m.name} (${result.seconds} s)${result.killed ? `: ${result.by} — ${result.test}` : ''}`,
  );
}

const survived = results.filter((r) => !r.killed);
console.log(`\n${results.length - survived.length} of ${results.length} mutants killed.`);
if (survived.length) console.log(`Survived: ${survived.map((r) => r.name).join(', ')}`);
if (flag('--markdown')) {
  console.log('\n| mutant | what it breaks | killed by |\n| --- | --- | --- |');
  for (const r of results)
    console.log(`| \`${r.name}\` | ${r.what} | ${r.killed ? `${r.test} (\`${r.by}\`)` : '**survived**'} |`);
}
process.exit(survived.length ? 1 : 0);
