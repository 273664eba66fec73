/**
 * The checks of what an agent offers beyond a chat (#27), each as a user does it in `<silo-chat>`:
 * a subagent (a Task/Agent call whose subagent's text and tool calls are drawn inside the call's
 * card) and a fork ("Branch from here" on the last turn end: `session/fork`, then the branch answers
 * a prompt). Each resolves to a pass's detail, or throws {@link CheckFailed} / {@link NotOffered} /
 * `AgentLost` (through `needsSession`: an earlier check found the session lost).
 * @packageDocumentation
 */
import type { ChatDriver, Row } from './browser.ts';
import type { CheckContext } from './checks.ts';
import { FINAL_TEXT, promptFor, SUBAGENT_COMMAND, SUBAGENT_OUTPUT, SUBAGENT_TEXT } from './models/script.ts';
import { expect, NotOffered } from './outcome.ts';
import { exchanges, prompts, readWire } from './wire.ts';

/** The parent tool call id an update names (claude-agent-acp: `_meta.claudeCode.parentToolUseId`). */
function parentOf(update: Record<string, unknown> | undefined): string | undefined {
  const meta = update?._meta as { claudeCode?: { parentToolUseId?: unknown } } | undefined;
  const id = meta?.claudeCode?.parentToolUseId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * `subagent`: the model hands a task to a subagent (Claude Code's Agent tool, in the foreground);
 * the subagent (the same mock, its task as its prompt) says {@link SUBAGENT_TEXT}, runs
 * {@link SUBAGENT_COMMAND} and answers. Passes when the agent stamped the subagent's updates with the
 * call's id, the journal keeps that id, and the call's card draws the subagent: its text and its
 * command's card (with the output) among the subagent's rows, none of it as a row of the transcript.
 */
export async function subagentCheck(ctx: CheckContext, chat: ChatDriver): Promise<string> {
  if (!ctx.spec.tools(ctx.cwd).subagent) throw new NotOffered('no subagent tool the test drives');
  const since = Date.now();
  const before = await chat.send(promptFor('subagent'));
  const allowed = await chat.allowUntilEnd(before, 'the subagent');
  await chat.message(FINAL_TEXT.subagent.slice(0, 20), 'agent');
  const stamped = readWire(ctx.wireLog)
    .filter((l) => l.t >= since && l.msg.method === 'session/update')
    .map((l) => parentOf(l.msg.params?.update))
    .filter((id) => id !== undefined);
  expect(stamped.length > 0, 'the agent sent no update stamped with the Task call (parentToolUseId)');
  const parent = stamped[0]!;
  const journaled = (await chat.journal()).filter((u) => u.parentToolCallId === parent).length;
  expect(journaled > 0, `none of the ${stamped.length} stamped updates is journaled with parentToolCallId`);
  const rows = await chat.rows();
  const text = (r: Row) => r.type === 'message' && r.text?.includes(SUBAGENT_TEXT);
  expect(!rows.some(text), "the subagent's text is a row of the transcript, not of its card");
  const card = rows.find((r) => r.type === 'tool' && r.subagent);
  expect(card, 'no tool card holds a subagent');
  const nested = card.subagent!.rows;
  expect(nested.some(text), `the subagent's ${nested.length} rows lack its text`);
  expect(
    nested.some((r) => r.type === 'tool'),
    `the subagent's ${nested.length} rows hold no tool card`,
  );
  const drawn = (await chat.subagentCards())[0];
  expect(drawn, 'no [part~="subagent"] drawn');
  expect(drawn.rows.includes(SUBAGENT_TEXT), `the drawn subagent lacks its text ("${drawn.title}")`);
  expect(
    drawn.tools.some((t) => t.includes(SUBAGENT_OUTPUT)),
    `no tool card in the drawn subagent shows ${SUBAGENT_OUTPUT} (${drawn.tools.length} cards)`,
  );
  return `${allowed} permission(s); ${stamped.length} stamped updates, ${journaled} journaled with the call; "${drawn.title.replace(/\s+/g, ' ')}": ${nested.length} rows`;
}

/**
 * `fork`: "Branch from here" on the last turn end. Passes when Silo sent `session/fork` for the
 * session, the chat switched to the session it answered (`forked`, no restore note), the branch's
 * journal carries the source's prompts, and the branch answers a new prompt.
 */
export async function forkCheck(
  ctx: CheckContext,
  chat: ChatDriver,
  needsSession: (what: string) => void,
): Promise<string> {
  const s = await chat.snapshot();
  if (s && !s.canFork) throw new NotOffered('the agent offers no session/fork');
  if (s?.state !== 'connected') needsSession('branch from');
  expect(s?.state === 'connected', `no connected session (${s?.state})`);
  const from = s.sessionId;
  const carried = prompts(await chat.journal());
  const since = Date.now();
  expect(await chat.branchLast(), 'no "Branch from here" on the last turn end');
  await chat.switchedFrom(from, 'the chat on the branch');
  const b = (await chat.snapshot())!;
  expect(
    b.state === 'connected',
    `the branch is ${b.state}${b.error ? ` (${b.error.code}: ${b.error.message})` : ''}`,
  );
  expect(b.resumeOutcome === 'forked', `the branch's outcome is ${b.resumeOutcome}`);
  expect(!b.restoreNote, `the branch has restoreNote ${b.restoreNote}`);
  const fork = exchanges(readWire(ctx.wireLog), 'session/fork').filter((x) => x.request.t >= since);
  expect(fork.length === 1, `${fork.length} session/fork requests`);
  expect(fork[0]!.request.msg.params?.sessionId === from, 'session/fork names another session');
  expect(
    fork[0]!.answer?.msg.result?.sessionId === b.sessionId,
    `session/fork answered ${JSON.stringify(fork[0]!.answer?.msg.error ?? fork[0]!.answer?.msg.result?.sessionId)}, the chat holds ${b.sessionId}`,
  );
  const branched = prompts(await chat.journal());
  expect(branched === carried, `the branch carries ${branched} of the source's ${carried} prompts`);
  const answers = async () =>
    (await chat.rows()).filter(
      (r) => r.type === 'message' && r.role === 'agent' && r.text?.includes(FINAL_TEXT.text),
    ).length;
  const earlier = await answers();
  const before = await chat.send(promptFor('text'));
  await chat.turnEnded(before, 'the prompt on the branch');
  expect((await answers()) > earlier, 'the branch did not answer the prompt');
  const sent = exchanges(readWire(ctx.wireLog), 'session/prompt').filter((x) => x.request.t >= since);
  expect(
    sent.some(
      (x) =>
        x.request.msg.params?.sessionId === b.sessionId && x.answer?.msg.result?.stopReason === 'end_turn',
    ),
    'no session/prompt to the branch ended end_turn',
  );
  return `session/fork ${from.slice(0, 8)}… → ${b.sessionId.slice(0, 8)}…; ${branched} prompts carried; the branch answered`;
}
