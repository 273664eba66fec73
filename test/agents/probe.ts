/**
 * `npm run test:agents -- --probe <agent>`: what an agent sends when the client advertises what Silo
 * does not yet (issue #27): `clientCapabilities._meta.terminal_output` and `terminal_output_delta`
 * (claude-agent-acp and Codex then render a terminal) and `subagents`. No browser: the SDK's Node
 * client (test/support/acp-harness.ts) over the agent's stdio, through the wire tap, against the
 * same mock model; it runs the quick and the slow command, allowing every permission, and leaves
 * the wire log for docs/agent-shapes.md.
 * @packageDocumentation
 */
import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { connectHarness, FULL_CAPABILITIES } from '../support/acp-harness.ts';
import type { AgentLaunch } from './agents/spec.ts';
import { promptFor } from './models/script.ts';

/** The capabilities the probe advertises beside Silo's own. */
export const PROBE_CAPABILITIES = {
  ...FULL_CAPABILITIES,
  _meta: { terminal_output: true, terminal_output_delta: true, subagents: true },
};

/**
 * Runs the probe: `tap` is the wire-tap command prefix (`node wire-tap.mjs <log> <launch.json> --`).
 * Resolves once both prompts ended and the agent exited; rejects when one fails.
 */
export async function probe(launch: AgentLaunch, tap: readonly string[], cwd: string): Promise<string[]> {
  const [cmd, ...args] = [...tap, ...launch.command];
  const child = spawn(cmd!, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
  );
  const harness = connectHarness(stream);
  harness.onPermission = (params) => {
    const allow = params.options.find((o) => o.kind === 'allow_once') ?? params.options[0]!;
    return { outcome: { outcome: 'selected', optionId: allow.optionId } };
  };
  const stops: string[] = [];
  try {
    await harness.connection.agent.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: PROBE_CAPABILITIES,
      clientInfo: { name: 'silo-probe', version: '0' },
    });
    const { sessionId } = await harness.connection.agent.request('session/new', { cwd, mcpServers: [] });
    for (const marker of ['shell', 'slow'] as const)
      stops.push(await harness.prompt(sessionId, promptFor(marker)));
  } finally {
    harness.close();
    child.stdin!.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  return stops;
}
