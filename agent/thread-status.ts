/**
 * Under `--thread-status`: the session says what it is doing as codex-acp 2.6 does, in a
 * `session_info_update` whose `_meta.codex.threadStatus` is Codex's thread status: `{type: "active",
 * activeFlags: []}` when a turn starts, `activeFlags: ["waitingOnApproval"]` while a permission is
 * asked (`waitingOnUserInput` while a question is), and `{type: "idle"}` when the turn ends. Not
 * replayed by `session/load`.
 */
import type { AgentContext } from '@agentclientprotocol/sdk';

/** Codex's thread status (its app-server's `ThreadStatus`). */
export type ThreadStatus =
  | { type: 'idle' | 'notLoaded' | 'systemError' }
  | { type: 'active'; activeFlags: ('waitingOnApproval' | 'waitingOnUserInput')[] };

/** Sends `status` for `sessionId` when `on` (the agent runs with `--thread-status`). */
export async function sendThreadStatus(
  on: boolean,
  client: AgentContext,
  sessionId: string,
  status: ThreadStatus,
): Promise<void> {
  if (!on) return;
  await client.notify('session/update', {
    sessionId,
    update: { sessionUpdate: 'session_info_update', _meta: { codex: { threadStatus: status } } },
  } as never);
}

/** Runs `ask` (a permission request or a question) with the thread marked waiting on it. */
export async function waitingOn<T>(
  on: boolean,
  client: AgentContext,
  sessionId: string,
  flag: 'waitingOnApproval' | 'waitingOnUserInput',
  ask: () => Promise<T>,
): Promise<T> {
  await sendThreadStatus(on, client, sessionId, { type: 'active', activeFlags: [flag] });
  try {
    return await ask();
  } finally {
    await sendThreadStatus(on, client, sessionId, { type: 'active', activeFlags: [] }).catch(() => {});
  }
}
