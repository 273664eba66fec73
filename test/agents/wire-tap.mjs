// Sits between silo-bridge and a real agent and writes every line that crosses stdio to a JSONL log,
// whole: `node wire-tap.mjs <log.jsonl> <launch.json> -- <agent command…>`. Each log line is
// `{ t, conn, dir: 'client->agent' | 'agent->client', msg }` (`msg` the parsed JSON-RPC message, or
// `{ unparsed }` for a line that is not JSON). `conn` numbers the agent processes of one log (a
// page's every connect starts one). The agent runs with exactly the environment in <env.json>
// (plus PATH and the bridge's SILO_CONNECTION mark, so the bridge's reaper still finds its
// processes): a private HOME, no key or setting of the machine's user leaks in.
// Plain JavaScript, run by node directly: it starts with every agent process.
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';

const [log, envFile, dashes, command, ...args] = process.argv.slice(2);
if (dashes !== '--' || !command) {
  process.stderr.write('usage: wire-tap.mjs <log.jsonl> <launch.json> -- <command…>\n');
  process.exit(2);
}
const conn = `${process.pid}`;
const launch = JSON.parse(readFileSync(envFile, 'utf8'));
const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  ...(process.env.SILO_CONNECTION ? { SILO_CONNECTION: process.env.SILO_CONNECTION } : {}),
  ...launch.env,
};

/** Appends each complete line of `chunk` (after `rest`) to the log; returns the incomplete tail. */
function record(dir, rest, chunk) {
  const lines = (rest + chunk).split('\n');
  const tail = lines.pop() ?? '';
  const out = [];
  for (const line of lines) {
    if (!line.trim()) continue;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      msg = { unparsed: line };
    }
    out.push(`${JSON.stringify({ t: Date.now(), conn, dir, msg })}\n`);
  }
  if (out.length) appendFileSync(log, out.join(''));
  return tail;
}

const child = spawn(command, args, { env, cwd: launch.cwd, stdio: ['pipe', 'pipe', 'inherit'] });
let fromClient = '';
let fromAgent = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  fromClient = record('client->agent', fromClient, chunk);
  child.stdin.write(chunk);
});
process.stdin.on('end', () => child.stdin.end());
child.stdin.on('error', () => {});
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  fromAgent = record('agent->client', fromAgent, chunk);
  process.stdout.write(chunk);
});
process.stdout.on('error', () => child.kill('SIGTERM'));
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('error', (e) => {
  process.stderr.write(`wire-tap: cannot start ${command}: ${e.message}\n`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  process.exit(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1));
});
