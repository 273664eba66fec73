/**
 * One check's outcome, and how a check's body says it: return a detail (pass), throw
 * {@link CheckFailed} (fail, with why), {@link NotOffered} (the agent does not offer it) or
 * {@link AgentLost} (the agent lost the session itself).
 * @packageDocumentation
 */

/** One check's outcome. */
export interface CheckResult {
  readonly status: 'pass' | 'fail' | 'not-offered' | 'agent-lost';
  readonly detail?: string;
}

/** Thrown inside a check to fail it with a reason. */
export class CheckFailed extends Error {}

/** Thrown inside a check when the agent turns out not to offer what it checks. */
export class NotOffered extends Error {}

/** The agent lost the session itself (`AgentSpec.losesSessions`) and Silo said so honestly. */
export class AgentLost extends Error {}

/** Fails the check with `reason` unless `condition` holds. */
export function expect(condition: unknown, reason: string): asserts condition {
  if (!condition) throw new CheckFailed(reason);
}
