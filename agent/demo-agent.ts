/**
 * `silo-bridge --demo-agent`: runs the package's reference agent (this folder's cli.ts) as the agent, so Silo can
 * be tried without a real one. The agent is started with the same Node as the bridge: the built
 * JavaScript next to the built bridge in an installed package, the TypeScript source through tsx
 * in a checkout of the repository.
 */
import { fileURLToPath } from 'node:url';

/** The flag that selects the reference agent instead of a command after `--`. */
export const DEMO_AGENT_FLAG = '--demo-agent';

/** The command line of the reference agent (`cli.ts` beside this file, built or not). */
export function demoAgentCommand(): string[] {
  const source = import.meta.url.endsWith('.ts');
  const cli = fileURLToPath(new URL(source ? './cli.ts' : './cli.js', import.meta.url));
  return source ? [process.execPath, '--import', 'tsx', cli] : [process.execPath, cli];
}

/**
 * Rewrites `argv` so that `--demo-agent` (before any `--`) becomes `-- <reference agent> [args]`,
 * the words after a `--` going to the agent (for example `--sessions-dir DIR`). Returns `argv`
 * unchanged without the flag.
 */
export function expandDemoAgent(argv: readonly string[]): string[] {
  const sep = argv.indexOf('--');
  const flags = sep === -1 ? [...argv] : argv.slice(0, sep);
  const at = flags.indexOf(DEMO_AGENT_FLAG);
  if (at === -1) return [...argv];
  flags.splice(at, 1);
  const agentArgs = sep === -1 ? [] : argv.slice(sep + 1);
  return [...flags, '--', ...demoAgentCommand(), ...agentArgs];
}
