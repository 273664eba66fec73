/**
 * Signing in to an agent (ACP `authenticate`): the methods its `initialize` answer offers, as
 * {@link AgentAuthMethod}s a page can show, and the sign-in itself, sent right after `initialize` on
 * every link (each link is a new agent process).
 */
import { SiloError } from '../src/errors.ts';
import { isObject, type Raw } from '../src/json.ts';
import type { AgentAuthMethod } from '../src/types.ts';
import type { AgentLink } from './link.ts';

/** Method types a page can pass to `authenticate`: the agent signs in itself, or reads a key it has. */
const USABLE = new Set(['agent', 'env_var']);

/** How long a sign-in may take before Silo stops waiting for it (an OAuth flow that never returns). */
export const SIGN_IN_TIMEOUT_MS = 120_000;

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/**
 * What a terminal method asks to run: ACP's `type: "terminal"` (`args` added to the agent's own
 * command), the older `_meta["terminal-auth"]` (`{command, args, label}`: Copilot CLI), or
 * `_meta.type: "terminal"` (Qwen Code). Undefined for a method that needs no terminal.
 */
function terminalOf(m: Raw): AgentAuthMethod['terminal'] | undefined {
  const meta = isObject(m._meta) ? m._meta : {};
  const legacy = isObject(meta['terminal-auth']) ? meta['terminal-auth'] : undefined;
  if (legacy) {
    const command = typeof legacy.command === 'string' ? legacy.command : undefined;
    return { ...(command ? { command } : {}), args: strings(legacy.args) };
  }
  if (m.type === 'terminal') return { args: strings(m.args) };
  if (meta.type === 'terminal') return { args: strings(meta.args ?? m.args) };
  return undefined;
}

/** Every method the agent offers, typed (no `type` means `agent`, as ACP says). */
export function authMethods(link: AgentLink): AgentAuthMethod[] {
  const offered = (link.initialize.authMethods ?? []) as unknown as Raw[];
  return offered
    .filter((m) => isObject(m) && typeof m.id === 'string')
    .map((m) => {
      const terminal = terminalOf(m);
      const type = terminal ? 'terminal' : typeof m.type === 'string' ? m.type : 'agent';
      const vars = Array.isArray(m.vars)
        ? m.vars.map((v) => (typeof v === 'string' ? v : String((v as Raw)?.name ?? ''))).filter(Boolean)
        : typeof m.varName === 'string'
          ? [m.varName]
          : undefined;
      return {
        id: m.id as string,
        name: typeof m.name === 'string' ? m.name : (m.id as string),
        ...(typeof m.description === 'string' ? { description: m.description } : {}),
        type,
        usable: USABLE.has(type),
        ...(vars?.length ? { vars } : {}),
        ...(terminal ? { terminal } : {}),
      };
    });
}

/** The `auth-required` error a page sees: why, and every method (`usable` ones it can offer). */
export function authRequired(link: AgentLink, message?: string): SiloError {
  return new SiloError(
    'auth-required',
    message ?? 'The agent needs you to sign in before it can open a session',
    { authMethods: authMethods(link) },
  );
}

/**
 * The `auth-required` error for an agent that refused to open a session until a sign-in (`-32000`),
 * with what the agent said when it said more than that (Cline names the variable it lacks).
 */
export function signInRefused(link: AgentLink, refusal: SiloError): SiloError {
  const said = refusal.message.trim();
  const generic = said === '' || /^authentication required\.?$/i.test(said);
  return authRequired(
    link,
    `The agent needs you to sign in before it can open a session${generic ? '' : `. The agent says: ${said}`}`,
  );
}

/**
 * Sends `authenticate { methodId }`. Rejects with `auth-required` when the method is not a usable one
 * the agent offers, the agent refuses it (its message kept), or it does not answer within
 * `timeoutMs` (an OAuth flow that never comes back: Cline); `closed` when the link ends.
 */
export async function signIn(
  link: AgentLink,
  methodId: string,
  timeoutMs = SIGN_IN_TIMEOUT_MS,
): Promise<void> {
  const method = authMethods(link).find((m) => m.id === methodId);
  if (!method?.usable)
    throw authRequired(
      link,
      method
        ? `The sign-in method "${method.name}" needs a terminal; a web page cannot use it`
        : `The agent offers no sign-in method "${methodId}"`,
    );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const says = method.description ? ` The agent describes it as: ${method.description}` : '';
      const seconds = Number((timeoutMs / 1000).toFixed(1));
      reject(
        authRequired(
          link,
          `Sign-in with "${method.name}" did not finish within ${seconds} s: the agent never answered.${says}`,
        ),
      );
    }, timeoutMs);
  });
  const answered = link.request('authenticate', { methodId }).catch((error: unknown) => {
    const e = SiloError.from(error);
    if (e.code === 'closed' || e.code === 'unreachable') throw e;
    throw authRequired(link, `Sign-in with "${method.name}" failed: ${e.message}`);
  });
  void answered.catch(() => {}); // settled by the race; a late refusal has nobody to tell
  try {
    await Promise.race([answered, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
