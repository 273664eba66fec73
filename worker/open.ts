/**
 * Opening a session on a fresh agent link (docs/restore.md): `session/new`, "continue in a new
 * session" / Clear (`startFresh`), or a restore by `session/resume` or `session/load` (in the order
 * {@link restoreMethods} gives), else journal-only. The session ({@link OpenHost}) owns the journal
 * writer and the update stream; these functions decide and call the agent.
 */
import { SiloError } from '../src/errors.ts';
import type { Raw } from '../src/json.ts';
import type { AgentRestoreNote, AgentResumeOutcome, AgentSessionUpdate } from '../src/types.ts';
import type { WorkerConnectOptions } from '../src/worker-api.ts';
import { signInRefused } from './auth.ts';
import { reapplyChoices } from './choices.ts';
import type { Journal } from './journal.ts';
import type { AgentLink } from './link.ts';
import { mergeReplay } from './replay-merge.ts';
import { type JournalHolding, restoreMethods } from './restore.ts';
import type { LiveSessionState } from './state.ts';

/** What the session lends to the functions that open it. */
export interface OpenHost {
  readonly journal: Journal;
  readonly options: WorkerConnectOptions;
  readonly config: LiveSessionState;
  /**
   * Binds the session id (journal writer, what the journal says, early updates); resolves to what
   * the journal holds. Config options and modes are the journal's until a response is applied after.
   */
  attach(sessionId: string): Promise<Attached>;
  /** Unbinds the session id: updates are held until the next {@link attach}. */
  detach(): void;
  /**
   * Routes a `session/load` replay until {@link endReplay}: its conversation (`HISTORY_KINDS`,
   * worker/replay-window.ts) into `buffer` when given (journaled later, by the merge), else straight
   * into the journal; the rest (commands, title, usage, mode, notices) is journaled as it arrives
   * either way, but with `whole` (a fork's replay), held with the rest. Id-less chunks get replay ids
   * and replay shapes are read as live. Without a buffer the session ends it itself at its first
   * prompt.
   */
  startReplay(buffer: Raw[] | undefined, whole?: boolean): void;
  endReplay(): void;
  /** Journals one raw update from the agent (normalized, in order). */
  ingest(raw: Raw): void;
  /** Journals `interrupted` the end of a turn the journal holds open that no prompt of this worker runs. */
  endDeadTurn(): void;
  /** How many of this session's updates the agent has sent over the link so far. */
  readonly updatesSeen: number;
}

/**
 * How long a `session/load` replay to be merged must stay quiet after the load response before Silo
 * takes it as whole: Gemini CLI sends its replay after the response (only the first chunk before it).
 */
export const REPLAY_QUIET_MS = 300;
/** The longest Silo waits for a replay that keeps streaming after the load response. */
const REPLAY_SETTLE_MAX_MS = 15_000;

/** Resolves once no update arrived for {@link REPLAY_QUIET_MS} (or after {@link REPLAY_SETTLE_MAX_MS}). */
async function replaySettled(host: OpenHost): Promise<void> {
  const deadline = Date.now() + REPLAY_SETTLE_MAX_MS;
  let seen = -1;
  while (host.updatesSeen !== seen && Date.now() < deadline) {
    seen = host.updatesSeen;
    await new Promise((resolve) => setTimeout(resolve, REPLAY_QUIET_MS));
  }
}

/** How the session was opened. `error` is set for journal-only (why the agent cannot continue). */
export interface Opened {
  readonly sessionId: string;
  readonly outcome: AgentResumeOutcome;
  readonly note?: AgentRestoreNote;
  readonly error?: SiloError;
}

/** Follows `continuedBy` links to the session that carries a conversation on. */
export async function latestId(journal: Journal, sessionId: string): Promise<string> {
  const seen = new Set<string>();
  let id = sessionId;
  for (;;) {
    const record = await journal.session(id);
    if (!record?.continuedBy || seen.has(id)) return id;
    seen.add(id);
    id = record.continuedBy;
  }
}

/** What the journal holds of a session just bound (the session's `attach`). */
export interface Attached {
  readonly holding: JournalHolding;
  /** The number of updates it holds. */
  readonly updates: number;
  /** Reads those updates (a `session/load` replay merges into them). */
  journaled(): Promise<AgentSessionUpdate[]>;
}

/**
 * `session/new`. Rejects with `auth-required` (with the agent's sign-in methods) when the agent
 * needs a sign-in, `invalid-params` when it answers without a session id.
 */
export async function newSession(link: AgentLink, host: OpenHost): Promise<Opened> {
  const response = await requestNew(link, host);
  const sessionId = String(response.sessionId ?? '');
  if (!sessionId) throw new SiloError('invalid-params', 'The agent answered session/new without a sessionId');
  await host.attach(sessionId);
  host.config.applyResponse(response);
  return { sessionId, outcome: 'new' };
}

/** `session/new`; a sign-in the agent asks for rejects `auth-required` with its methods. */
export function requestNew(link: AgentLink, host: OpenHost): Promise<Raw> {
  return requestSession(link, host, 'session/new', {});
}

/**
 * A request that opens a session (`session/new`, `session/fork`); a sign-in the agent asks for
 * rejects `auth-required` with its methods.
 */
export function requestSession(link: AgentLink, host: OpenHost, method: string, params: Raw): Promise<Raw> {
  return link
    .request<Raw>(method, { ...params, cwd: host.options.cwd, mcpServers: host.options.mcpServers ?? [] })
    .catch((error: unknown) => {
      const e = SiloError.from(error);
      throw e.code === 'auth-required' ? signInRefused(link, e) : e;
    });
}

/** "Continue in a new session" (carry) or Clear (discard): a fresh `session/new`, never probing. */
export async function continueFresh(
  link: AgentLink,
  host: OpenHost,
  oldId: string,
  transcript: 'carry' | 'discard',
): Promise<Opened> {
  const { journal } = host;
  const from = await latestId(journal, oldId);
  host.detach();
  const response = await requestNew(link, host);
  const sessionId = String(response.sessionId ?? '');
  await journal.upsertSession(sessionId, { cwd: host.options.cwd });
  if (transcript === 'carry') await journal.carry(from, sessionId);
  else {
    await journal.clear(from);
    await journal.upsertSession(from, { continuedBy: sessionId });
  }
  if (from !== oldId) await journal.upsertSession(oldId, { continuedBy: sessionId });
  await host.attach(sessionId);
  host.config.applyResponse(response);
  return { sessionId, outcome: 'new' };
}

/**
 * Plain restore: resume or load, in the order {@link restoreMethods} gives for what the journal
 * holds, else journal-only. A method the agent answers with an error falls through to the next; a
 * link that closes rejects, and so does a method that needs a sign-in (`auth-required`). A load into
 * an empty journal journals the replay as it streams; into a journal that holds the session, the
 * replay is merged ({@link mergeReplay}) once it has been quiet for {@link REPLAY_QUIET_MS} after
 * the load response; into an empty journal, it counts as replay until the session's first prompt,
 * and the load resolves with the response (no wait). Never deletes a journal.
 */
export async function restoreSession(
  link: AgentLink,
  host: OpenHost,
  sessionId: string,
  via?: 'resume' | 'load',
): Promise<Opened> {
  const attached = await host.attach(sessionId);
  host.endReplay(); // a window an earlier load left open (a reconnect) ends here
  const caps = link.initialize.agentCapabilities ?? {};
  const params = { sessionId, cwd: host.options.cwd, mcpServers: host.options.mcpServers ?? [] };
  const holding = attached.holding;
  const agent = { resume: !!caps.sessionCapabilities?.resume, load: !!caps.loadSession };
  let held = false;
  for (const method of restoreMethods(agent, holding, via)) {
    try {
      if (method === 'session/resume') {
        host.config.applyResponse(await link.request('session/resume', params));
        const reapplied = await reapplyChoices(link, host.journal, host.config, sessionId);
        return {
          sessionId,
          outcome: 'resumed',
          ...(holding === 'empty'
            ? { note: 'history-in-agent' }
            : reapplied.length
              ? { note: 'options-reapplied' }
              : {}),
        };
      }
      const buffer = attached.updates === 0 ? undefined : ([] as Raw[]);
      host.startReplay(buffer);
      let windowOpen = false;
      try {
        host.config.applyResponse(await link.request('session/load', params));
        // The replay may go on after the response (Gemini CLI). Into an empty journal it is journaled
        // as it streams, so the window stays open (no wait) until the first prompt ends it; a merge
        // needs the whole replay, so it waits for the replay to be quiet. No turn runs meanwhile.
        if (buffer) await replaySettled(host);
        else windowOpen = true;
        const reapplied = await reapplyChoices(link, host.journal, host.config, sessionId);
        const loaded: Opened = {
          sessionId,
          outcome: 'loaded',
          ...(reapplied.length ? { note: 'options-reapplied' } : {}),
        };
        if (!buffer) return loaded;
        // Only the conversation was held back (the session's state was journaled as it came).
        const merge = mergeReplay(await attached.journaled(), buffer);
        if (merge.verdict === 'merged') for (const raw of merge.append) host.ingest(raw);
        return merge.verdict === 'merged'
          ? loaded
          : { sessionId, outcome: 'loaded', note: 'replay-not-merged' };
      } catch (error) {
        windowOpen = false;
        throw error;
      } finally {
        if (!windowOpen) host.endReplay();
      }
    } catch (error) {
      if (link.closedSignal.aborted) throw error;
      const e = SiloError.from(error);
      // Not signed in: say so (and how to sign in), never fall back to journal-only.
      if (e.code === 'auth-required') throw signInRefused(link, e);
      held ||= heldElsewhere(e);
    }
  }
  return held
    ? {
        sessionId,
        outcome: 'journal-only',
        note: 'held-elsewhere',
        error: new SiloError(
          'journal-only',
          'Another client has this conversation open with the agent; close it there and try again, or continue in a new session',
        ),
      }
    : {
        sessionId,
        outcome: 'journal-only',
        error: new SiloError(
          'journal-only',
          'The agent cannot continue this conversation; continue it in a new session',
        ),
      };
}

/**
 * True when the agent refused to restore a session because another client holds it (the current
 * codex-acp answers load and resume -32600 "This Codex session is in use by another Codex client…",
 * `data.reason: "thread_active_writer"`).
 */
export function heldElsewhere(e: SiloError): boolean {
  const reason = (e.data as { reason?: unknown } | null | undefined)?.reason;
  return reason === 'thread_active_writer' || /\bin use by another\b/i.test(e.message);
}
