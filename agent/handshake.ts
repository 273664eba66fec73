/**
 * How the reference agent opens a connection: its identity and capabilities in `initialize` (held
 * under `--hold-init`), and the sign-in under `--auth-required`: the auth methods it offers,
 * `authenticate`, and the refusal of `session/new`, `load`, `resume` and `fork` until then.
 */
import {
  type AgentRequestContext,
  type AuthenticateRequest,
  type AuthenticateResponse,
  type InitializeRequest,
  type InitializeResponse,
  PROTOCOL_VERSION,
  RequestError,
} from '@agentclientprotocol/sdk';
import type { Sessions } from './sessions.ts';
import { COPILOT_INFO } from './usage-shapes.ts';

/** What `--hold-init` writes on stderr once it waits for `SIGUSR2` (a test waits for the line, then signals). */
export const HOLD_INIT_LINE = 'reference agent: holding initialize until SIGUSR2';

/** `--hold-init`: resolves once the process gets `SIGUSR2`, the listener in place before the line is written. */
function heldUntilSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGUSR2', () => resolve());
    process.stderr.write(`${HOLD_INIT_LINE}\n`);
  });
}

/** Identity the agent reports in `initialize`. */
export const AGENT_INFO = { name: 'silo-reference-agent', title: 'Silo reference agent', version: '0.1.0' };

/** The variable the `reference-key` sign-in reads from the agent's environment. */
export const API_KEY_VAR = 'SILO_REFERENCE_API_KEY';

/**
 * Auth methods offered under `--auth-required`. The three terminal ones, in the three shapes agents
 * send them (ACP `type: "terminal"`; `_meta["terminal-auth"]` as Copilot CLI; `_meta.type:
 * "terminal"` as Qwen Code), are for clients to show as commands, never as buttons.
 */
export const AUTH_METHODS = [
  { id: 'reference-login', name: 'Log in', description: 'Pretend to log in (always succeeds)' },
  {
    type: 'env_var',
    id: 'reference-key',
    name: 'API key',
    description: `Reads ${API_KEY_VAR} from the agent's environment`,
    vars: [{ name: API_KEY_VAR }],
  },
  { type: 'terminal', id: 'reference-terminal', name: 'Log in from a terminal', args: ['--login'] },
  {
    id: 'reference-device',
    name: 'Device login',
    _meta: { 'terminal-auth': { command: 'reference-agent', args: ['login', '--device'], label: 'Log in' } },
  },
  { id: 'reference-oauth', name: 'OAuth in a terminal', _meta: { type: 'terminal', args: ['--auth'] } },
];

/** What the agent says when it refuses to open a session until a sign-in (as Cline names its key). */
export const SIGN_IN_REFUSAL = `Not signed in: set ${API_KEY_VAR} in the agent's environment, or sign in`;

/** Under `--auth-required`, session/new, load and resume fail with -32000 until `authenticate`. */
export function requireSignIn(sessions: Sessions): void {
  if (sessions.options.authRequired && !sessions.authenticated)
    throw RequestError.authRequired({ authMethods: AUTH_METHODS }, SIGN_IN_REFUSAL);
}

/**
 * `initialize`: keeps the client's capabilities and answers with what the options switch on; under
 * `--log-before-init` a log notification comes first, under `--hold-init` the answer waits for `SIGUSR2`.
 */
export async function initialize(
  sessions: Sessions,
  { params, client }: AgentRequestContext<InitializeRequest>,
): Promise<InitializeResponse> {
  const { options } = sessions;
  sessions.caps = params.clientCapabilities ?? {};
  if (options.logBeforeInit) await client.notify('_silo/agent_log', { message: 'hello before initialize' });
  if (options.holdInit) await heldUntilSignal();
  return {
    protocolVersion: options.protocolVersion ?? PROTOCOL_VERSION,
    ...(options.steering ? { _meta: { steering: { supported: true } } } : {}),
    agentCapabilities: {
      ...(options.promptQueueing ? { _meta: { claudeCode: { promptQueueing: true } } } : {}),
      loadSession: options.loadSession,
      promptCapabilities: options.promptCapabilities,
      mcpCapabilities: { http: false, sse: false },
      sessionCapabilities: {
        ...(options.fork ? { fork: {} } : {}),
        ...(options.list ? { list: {} } : {}),
        ...(options.resume ? { resume: {} } : {}),
        ...(options.close ? { close: {} } : {}),
        ...(options.delete ? { delete: {} } : {}),
      },
    },
    authMethods: options.authRequired ? (AUTH_METHODS as never) : [],
    // Silo knows Copilot CLI's usage by its name (its prompt response counts the whole process).
    agentInfo: options.usageShape === 'copilot' ? COPILOT_INFO : AGENT_INFO,
  };
}

/**
 * `authenticate`: `reference-login` always signs in (under `--auth-hang` it is never answered),
 * `reference-key` only with {@link API_KEY_VAR} set (else -32000); any other method is invalid params.
 */
export function authenticate(
  sessions: Sessions,
  { params }: AgentRequestContext<AuthenticateRequest>,
): AuthenticateResponse | Promise<never> {
  // As Cline's OAuth methods: the answer never comes.
  if (sessions.options.authHang && params.methodId === 'reference-login') return new Promise<never>(() => {});
  if (params.methodId === 'reference-key' && !process.env[API_KEY_VAR])
    throw RequestError.authRequired({ authMethods: AUTH_METHODS }, `${API_KEY_VAR} is not set`);
  if (params.methodId !== 'reference-login' && params.methodId !== 'reference-key') {
    throw RequestError.invalidParams({ methodId: params.methodId }, 'unknown auth method');
  }
  sessions.authenticated = true;
  return {};
}
