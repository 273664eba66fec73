/**
 * Installs each real agent at its pinned version into a cache outside the repository:
 * `~/.cache/silo-agents/<name>@<version>` (or `$SILO_AGENTS_CACHE/<name>@<version>`), with the
 * ordinary npm client (`npm install --prefix`). A folder that holds the finished install (its
 * `.silo-installed` stamp) is used as it is; delete it to install again.
 * @packageDocumentation
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AgentSpec } from './agents/spec.ts';

/** The cache folder of all agents. */
export function cacheDir(): string {
  return process.env.SILO_AGENTS_CACHE ?? join(homedir(), '.cache/silo-agents');
}

/**
 * The install folder of `spec`, installing it first when needed. Throws with npm's output when the
 * install fails.
 */
export function ensureInstalled(spec: AgentSpec, log: (line: string) => void): string {
  const dir = join(cacheDir(), `${spec.name}@${spec.version}`);
  const stamp = join(dir, '.silo-installed');
  if (existsSync(stamp)) return dir;
  mkdirSync(dir, { recursive: true });
  log(`installing ${spec.package}@${spec.version} into ${dir}…`);
  // Run inside the folder: npm takes a spec that names a folder of its cwd (`cline@3.0.65`) for a path.
  const npm = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      dir,
      `${spec.package}@${spec.version}`,
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
    ],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' } },
  );
  if (npm.status !== 0) throw new Error(`npm install ${spec.package}@${spec.version} failed:\n${npm.stderr}`);
  spec.postInstall?.(dir);
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  return dir;
}
