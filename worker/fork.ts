/**
 * Branching a journaled session ("Branch from here", {@link AgentSessionFork}): a new session whose
 * journal carries the source's up to the end of one of its turns; the source is never changed.
 *
 * ACP's `session/fork` (claude-agent-acp, OpenCode, codex-acp) copies a whole session: it takes
 * only a session id, no point in it. So the agent forks its context only for a branch from the
 * session's last turn; a branch from an earlier turn (or of an agent without `session/fork`) is a
 * `session/new` that carries the journal, and says so (`history-not-in-agent`). What an agent
 * replays of the fork while answering (OpenCode replays its last messages) is no part of the
 * branch: the journal carries the history, so the replay only sets state.
 */
import { SiloError } from '../src/errors.ts';
import type { Raw } from '../src/json.ts';
import { TranscriptModel } from '../src/transcript/model.ts';
import type { TurnEndRow } from '../src/transcript/rows.ts';
import type { AgentSessionFork, AgentSessionUpdate } from '../src/types.ts';
import type { AgentLink } from './link.ts';
import { latestId, type Opened, type OpenHost, requestNew, requestSession } from './open.ts';

/** Whether the agent offers `session/fork` (an unstable capability: `sessionCapabilities.fork`). */
export function offersFork(link: AgentLink): boolean {
  const caps = link.initialize.agentCapabilities?.sessionCapabilities as
    | { fork?: unknown }
    | null
    | undefined;
  return caps?.fork !== undefined && caps.fork !== null;
}

/** Where a branch is cut: after `turn`, before the update at `before`; `last` when no turn follows. */
export interface ForkPoint {
  readonly turn: number;
  readonly before: number;
  readonly last: boolean;
}

/**
 * Where a branch after turn `atTurn` (default: the last that ended) cuts `journal`, in the turn
 * numbers of the transcript model; the state updates after the turn's end go with it. `undefined`
 * when no such turn ended.
 */
export function forkPoint(journal: readonly AgentSessionUpdate[], atTurn?: number): ForkPoint | undefined {
  const model = new TranscriptModel();
  model.applyAll(journal);
  const ends = model.rows.filter((r): r is TurnEndRow => r.type === 'turn-end' && r.seq !== undefined);
  const end = atTurn === undefined ? ends.at(-1) : ends.findLast((r) => r.turn === atTurn);
  if (!end) return undefined;
  const next = model.rows.find((r) => r.turn > end.turn && r.seq !== undefined);
  const before = next?.seq ?? (journal.at(-1)?.seq ?? end.seq!) + 1;
  return { turn: end.turn, before, last: next === undefined };
}

/**
 * Opens the branch `fork` on `link`. Rejects `invalid-params` when the source has no such ended turn,
 * and as `session/new` / `session/fork` do (`auth-required` with the agent's methods, the agent's
 * coded error).
 */
export async function forkSession(link: AgentLink, host: OpenHost, fork: AgentSessionFork): Promise<Opened> {
  const { journal, options } = host;
  const from = await latestId(journal, fork.sessionId);
  const point = forkPoint(await journal.read(from), fork.atTurn);
  if (!point)
    throw new SiloError(
      'invalid-params',
      fork.atTurn === undefined
        ? 'The session has no turn that ended to branch from'
        : `The session has no turn ${fork.atTurn} that ended to branch from`,
    );
  const source = await journal.session(from);
  host.detach();
  const withAgent = point.last && offersFork(link);
  const response: Raw = withAgent
    ? await requestSession(link, host, 'session/fork', { sessionId: from })
    : await requestNew(link, host);
  const sessionId = String(response.sessionId ?? '');
  if (!sessionId) throw new SiloError('invalid-params', 'The agent opened the branch without a sessionId');
  await journal.upsertSession(sessionId, {
    cwd: options.cwd,
    forkedFrom: { sessionId: from, turn: point.turn },
    ...(source?.title ? { title: source.title } : {}),
    ...(source?.choices ? { choices: source.choices } : {}),
  });
  await journal.carry(from, sessionId, { before: point.before });
  host.startReplay([], true); // what the agent sent of the fork before its answer: the journal has it
  try {
    await host.attach(sessionId);
  } finally {
    host.endReplay();
  }
  host.config.applyResponse(response);
  return { sessionId, outcome: 'forked', ...(withAgent ? {} : { note: 'history-not-in-agent' as const }) };
}
