/** What a run records about where it ran: the machine, its load, the versions and the commit. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

export function machine(root: string, browserVersion: string) {
  const cpus = os.cpus();
  let commit: string | undefined;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    commit = undefined;
  }
  const pkg = (p: string) =>
    (JSON.parse(readFileSync(join(root, 'node_modules', p, 'package.json'), 'utf8')) as { version: string })
      .version;
  return {
    machine: {
      cpu: cpus[0]?.model ?? 'unknown',
      cores: cpus.length,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      os: `${os.type()} ${os.release()} ${os.arch()}`,
      loadAverageAtStart: os.loadavg(),
    },
    versions: {
      node: process.version,
      browser: browserVersion,
      puppeteer: pkg('puppeteer-core'),
      sdk: pkg('@agentclientprotocol/sdk'),
      silo: (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version,
      commit,
    },
  };
}
