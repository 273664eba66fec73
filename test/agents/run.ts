/**
 * `npm run test:agents`: Silo against real ACP agents. Each agent is installed at its pinned version
 * into a cache outside the repository (install.ts), started offline through the real `silo-bridge`
 * against the mock model server (models/), with a private HOME and working directory, and driven in
 * `<silo-chat>` in Debian's Chromium (checks.ts). Prints a table of every check per agent and exits
 * 1 if any failed.
 *
 *   npm run test:agents                          every agent
 *   npm run test:agents -- --agents claude-agent-acp,codex-acp
 *   npm run test:agents -- --wire                 also keep each agent's whole wire log and the
 *                                                 bodies of its model requests
 *   npm run test:agents -- --keep                 keep each agent's temporary HOME and cwd
 *   npm run test:agents -- --probe claude-agent-acp   no browser: what it sends a client that
 *                                                 advertises terminal output and subagents (probe.ts)
 *
 * Each run writes into `~/.cache/silo-agents/runs/<time>/` (or `$SILO_AGENTS_CACHE/runs/…`):
 * `results.json`, each agent's `<name>.handshake.json` (what it answered to `initialize`,
 * `session/new`, `session/load`…), `<name>.bridge.log` and, with `--wire`, `<name>.wire.jsonl`.
 * @packageDocumentation
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BridgeProcess, startBridgeProcess } from '../support/bridge-process.mjs';
import { AGENTS } from './agents/index.ts';
import { type AgentSpec, CHECKS, type CheckName } from './agents/spec.ts';
import { launchBrowser, startPageServer } from './browser.ts';
import { type CheckResult, runChecks } from './checks.ts';
import { cacheDir, ensureInstalled } from './install.ts';
import { startModelServer } from './models/server.ts';
import { probe } from './probe.ts';
import { handshake } from './shapes.ts';
import { readWire } from './wire.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
/** `--probe <agent>`: no browser; what the agent sends to a client advertising #27's capabilities (probe.ts). */
const probing = option('--probe');
const wanted = probing ? [probing] : option('--agents')?.split(',');
const keepWire = args.includes('--wire');
/** Keep each agent's temporary HOME and working directory (to look into an agent's own files). */
const keepPlace = args.includes('--keep');
const specs = AGENTS.filter((a) => !wanted || wanted.includes(a.name));
if (wanted && specs.length !== wanted.length) {
  console.error(`unknown agent in ${wanted.join(',')}; known: ${AGENTS.map((a) => a.name).join(', ')}`);
  process.exit(2);
}

const out = join(cacheDir(), 'runs', new Date().toISOString().replace(/[:.]/g, '-'));
mkdirSync(out, { recursive: true });
const log = (line: string) => console.log(`[agents] ${line}`);

/** One agent's run: its results, and the model requests nothing answered. */
interface AgentRun {
  readonly spec: AgentSpec;
  readonly results: Map<CheckName, CheckResult>;
  readonly unrouted: string[];
}

async function runAgent(
  spec: AgentSpec,
  origin: string,
  browser: Awaited<ReturnType<typeof launchBrowser>> | undefined,
): Promise<AgentRun> {
  const results = new Map<CheckName, CheckResult>();
  let dir: string;
  try {
    dir = ensureInstalled(spec, log);
  } catch (e) {
    for (const c of CHECKS)
      results.set(c, { status: 'fail', detail: `install: ${(e as Error).message.split('\n')[0]}` });
    return { spec, results, unrouted: [] };
  }
  const place = mkdtempSync(join(tmpdir(), `silo-agent-${spec.name}-`));
  const home = join(place, 'home');
  const cwd = join(place, 'work');
  mkdirSync(join(home, 'tmp'), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const model = await startModelServer(spec.tools(cwd), keepWire);
  const wireLog = join(place, 'wire.jsonl');
  let bridge: BridgeProcess | undefined;
  try {
    const launch = spec.prepare({ dir, home, cwd, modelUrl: model.url });
    const launchFile = join(place, 'launch.json');
    writeFileSync(launchFile, JSON.stringify({ cwd, env: launch.env }));
    const tap = [process.execPath, join(HERE, 'wire-tap.mjs'), wireLog, launchFile, '--'];
    if (!browser) {
      log(`  probe: the prompts ended ${(await probe(launch, tap, cwd)).join(', ')}`);
      return { spec, results, unrouted: [] };
    }
    bridge = await startBridgeProcess({
      agentCommand: [...tap, ...launch.command],
      allowOrigin: [origin],
    });
    const url = `${origin}/?bridge=${encodeURIComponent(bridge.connection)}&cwd=${encodeURIComponent(cwd)}`;
    const running = bridge;
    const agents = () => running.agentPids().length;
    const checked = await runChecks({ spec, browser, url, cwd, wireLog, log, agents });
    for (const [k, v] of checked) results.set(k, v);
  } catch (e) {
    for (const c of CHECKS)
      if (!results.has(c)) results.set(c, { status: 'fail', detail: (e as Error).message.split('\n')[0] });
  } finally {
    await bridge?.stop();
    await model.close();
    const name = browser ? spec.name : `${spec.name}.probe`;
    if (bridge) writeFileSync(join(out, `${name}.bridge.log`), bridge.log.join('\n'));
    writeFileSync(join(out, `${name}.handshake.json`), JSON.stringify(handshake(readWire(wireLog)), null, 2));
    if ((keepWire || !browser) && existsSync(wireLog)) copyFileSync(wireLog, join(out, `${name}.wire.jsonl`));
    if (keepPlace) log(`  kept ${place}`);
    else rmSync(place, { recursive: true, force: true });
  }
  const unrouted = [...new Set(model.requests.filter((r) => !r.api).map((r) => `${r.method} ${r.path}`))];
  writeFileSync(join(out, `${spec.name}.model-requests.json`), JSON.stringify(model.requests, null, 1));
  return { spec, results, unrouted };
}

/** The table: one row per agent, one column per check. */
function table(runs: readonly AgentRun[]): string {
  const mark = (r?: CheckResult) =>
    r?.status === 'pass'
      ? 'pass'
      : r?.status === 'fail'
        ? 'FAIL'
        : r?.status === 'agent-lost'
          ? 'lost'
          : r
            ? '—'
            : '?';
  const head = ['agent', 'version', ...CHECKS];
  const rows = runs.map((r) => [r.spec.name, r.spec.version, ...CHECKS.map((c) => mark(r.results.get(c)))]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const started = Date.now();
if (probing) {
  await runAgent(specs[0]!, '', undefined);
  log(`wire log and handshake in ${out}`);
  process.exit(0);
}
const page = await startPageServer();
const browser = await launchBrowser();
const runs: AgentRun[] = [];
try {
  for (const spec of specs) {
    log(`${spec.name} ${spec.version}`);
    const run = await runAgent(spec, page.origin, browser);
    if (run.unrouted.length) log(`  model requests with no route: ${run.unrouted.join(', ')}`);
    runs.push(run);
  }
} finally {
  await browser.close();
  await page.close();
}
writeFileSync(
  join(out, 'results.json'),
  JSON.stringify(
    runs.map((r) => ({
      agent: r.spec.name,
      version: r.spec.version,
      checks: Object.fromEntries(r.results),
      unrouted: r.unrouted,
    })),
    null,
    2,
  ),
);
console.log(`\n${table(runs)}\n`);
for (const r of runs)
  for (const [name, res] of r.results)
    if (res.status !== 'pass') console.log(`${r.spec.name} ${name}: ${res.status} — ${res.detail ?? ''}`);
const failed = runs.some((r) => [...r.results.values()].some((res) => res.status === 'fail'));
console.log(`\n[agents] ${((Date.now() - started) / 1000).toFixed(0)} s; results and handshakes in ${out}`);
process.exit(failed ? 1 : 0);
