/**
 * Signing in to an agent (ACP `authenticate`): the methods its `initialize` answer offers, as
 * {@link AgentAuthMethod}s a page can show, and the sign-in itself, sent right after `initialize` on
 * every link (each link is a new agent process).
 */
import { SiloError } from '../src/errors.ts';
import type { Raw } from '../src/json.ts';
import type { AgentAuthMethod } from '../src/types.ts';
import type { AgentLink } from './link.ts';

/** Method types a page can pass to `authenticate`: the agent signs in itself, or reads a key it has. */
const USABLE = new Set(['agent', 'env_var']);

/** Every method the agent offers, typed (no `type` means `agent`, as ACP says). */
export function authMethods(link: AgentLink): AgentAuthMethod[] {
  const offered = (link.initialize.authMethods ?? []) as unknown as Raw[];
  return offered
    .filter((m) => typeof m.id === 'string')
    .map((m) => {
      const type = typeof m.type === 'string' ? m.type : 'agent';
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
 * Sends `authenticate { methodId }`. Rejects with `auth-required` when the method is not a usable one
 * the agent offers, or the agent refuses it (its message kept); `closed` when the link ends.
 */
export async function signIn(link: AgentLink, methodId: string): Promise<void> {
  const method = authMethods(link).find((m) => m.id === methodId);
  if (!method?.usable)
    throw authRequired(
      link,
      method
        ? `The sign-in method "${method.name}" needs a terminal; a web page cannot use it`
        : `The agent offers no sign-in method "${methodId}"`,
    );
  await link.request('authenticate', { methodId }).catch((error: unknown) => {
    const e = SiloError.from(error);
    if (e.code === 'closed' || e.code === 'unreachable') throw e;
    throw authRequired(link, `Sign-in with "${method.name}" failed: ${e.message}`);
  });
}
