/**
 * The checks of one agent, in order, each as a user does it in `<silo-chat>`: a streamed turn (and
 * its thought), a permission (allowed: the file is written), a shell command, a slow command (its
 * output and exit code in its card), a slash command, a question, a reload, a new browser profile
 * restoring the session, then a subagent and a fork (offer-checks.ts). Each check records `pass`,
 * `fail` (with what went wrong) or `not-offered`; a failed check does not stop the ones after it,
 * except that without a session nothing else can run.
 * @packageDocumentation
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import type { AgentSessionUpdate } from '../../src/types.ts';
import { pollUntil } from '../support/poll.ts';
import { type AgentSpec, CHECKS, type CheckName } from './agents/spec.ts';
import { ChatDriver } from './browser.ts';
import {
  FINAL_TEXT,
  type Marker,
  promptFor,
  SHELL_OUTPUT,
  SLOW_LINES,
  WRITTEN_FILE,
  WRITTEN_TEXT,
} from './models/script.ts';
import { forkCheck, subagentCheck } from './offer-checks.ts';
import { AgentLost, CheckFailed, type CheckResult, expect, NotOffered } from './outcome.ts';
import { exchanges, missingFromJournal, prompts, readWire } from './wire.ts';

export type { CheckResult } from './outcome.ts';

/** What the checks run against. */
export interface CheckContext {
  readonly spec: AgentSpec;
  readonly browser: Browser;
  /** The page's URL with the bridge and cwd in its query. */
  readonly url: string;
  readonly cwd: string;
  readonly wireLog: string;
  readonly log: (line: string) => void;
  /** How many agent processes the bridge runs now (one per open page). */
  readonly agents: () => number;
}

function turnEnds(journal: readonly AgentSessionUpdate[]): number {
  return journal.filter((u) => u.kind === 'turn_end').length;
}

/** What a terminal's `_meta` says of its end (claude-agent-acp, codex-acp). */
interface TerminalMeta {
  readonly terminal_exit?: { readonly exit_code?: unknown };
}

/** The journal's tool calls as text, to search for a command's output. */
function toolText(journal: readonly AgentSessionUpdate[]): string {
  return journal
    .filter((u) => u.kind === 'tool_call' || u.kind === 'tool_call_update')
    .map((u) => JSON.stringify(u.raw))
    .join('\n');
}

/** How long the journal may take to hold what the wire log shows the agent sent (it is in flight). */
const CATCH_UP_MS = 10_000;

/**
 * What the agent sent (per the wire log) that the journal lacks, by kind, once the journal holds it
 * all or {@link CATCH_UP_MS} passed. The wire tap logs a line before the bridge forwards it, and an
 * agent may send state well after its restore answer (OpenCode its commands ~190 ms after
 * `session/resume`): a journal read once, as the page settles, can miss updates still on their way.
 */
async function unjournaled(ctx: CheckContext, chat: ChatDriver, sessionId: string) {
  const deadline = Date.now() + CATCH_UP_MS;
  for (;;) {
    const journal = await chat.journal();
    const { missing } = missingFromJournal(readWire(ctx.wireLog), journal, sessionId, chat.reloads);
    if (Object.keys(missing).length === 0 || Date.now() > deadline) return { journal, missing };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * What is wrong with a restored session: another session id, a restore note, a prompt without its
 * turn end, an update the agent sent that the journal lacks. Empty when nothing is.
 */
async function restoreProblems(ctx: CheckContext, chat: ChatDriver, sessionId: string): Promise<string[]> {
  const problems: string[] = [];
  const s = await chat.snapshot();
  if (!s) return [`no session: ${(await chat.banner()) ?? 'no banner'}`];
  if (s.state !== 'connected')
    problems.push(`state ${s.state}${s.error ? ` (${s.error.code}: ${s.error.message})` : ''}`);
  if (s.sessionId !== sessionId) problems.push(`another session (${s.sessionId})`);
  if (s.restoreNote) problems.push(`restoreNote ${s.restoreNote} (outcome ${s.resumeOutcome})`);
  const { journal, missing } = await unjournaled(ctx, chat, sessionId);
  const sent = prompts(journal);
  const ended = turnEnds(journal);
  if (ended < sent) problems.push(`${sent} prompts but ${ended} turn_end`);
  const lost = Object.entries(missing);
  if (lost.length) problems.push(`missing from the journal: ${lost.map(([k, n]) => `${n} ${k}`).join(', ')}`);
  return problems;
}

/**
 * For an agent that loses sessions ({@link AgentSpec.losesSessions}) restored journal-only: what is
 * dishonest about it (a false alarm, no error saying so, no banner, the journal lost, a turn left
 * open), or, when nothing is, throws {@link AgentLost}. Returns [] for any other restore. In a new
 * profile (`fresh`) there is no journal to keep: the banner is all the user can get.
 */
async function lossProblems(ctx: CheckContext, chat: ChatDriver, fresh = false): Promise<string[]> {
  const s = await chat.snapshot();
  if (!ctx.spec.losesSessions || s?.resumeOutcome !== 'journal-only') return [];
  const problems: string[] = [];
  if (s.restoreNote) problems.push(`restoreNote ${s.restoreNote} (a false alarm: the agent lost it)`);
  if (s.error?.code !== 'journal-only') problems.push(`error ${s.error?.code ?? 'none'}, not journal-only`);
  const banner = await chat.banner();
  if (!banner) problems.push('no banner says the agent cannot continue it');
  const journal = await chat.journal();
  if (!fresh && journal.length === 0) problems.push('an empty transcript');
  if (turnEnds(journal) < prompts(journal))
    problems.push(`${prompts(journal)} prompts but ${turnEnds(journal)} turn_end`);
  if (problems.length) return problems;
  throw new AgentLost(
    `the agent lost the session (${ctx.spec.losesSessions}); ${lossEvidence(ctx, s.sessionId)}; Silo: journal-only, ${journal.length} updates kept, ${turnEnds(journal)} turn ends, banner "${banner}"`,
  );
}

/**
 * What the wire log shows of a lost session: when the agent began it (its `session/new` answer) and
 * when, and with what, it answered the last `session/load` of it (UTC times).
 */
function lossEvidence(ctx: CheckContext, sessionId: string): string {
  const wire = readWire(ctx.wireLog);
  const time = (t: number) => new Date(t).toISOString().slice(11, 23);
  const began = exchanges(wire, 'session/new').find((x) => x.answer?.msg.result?.sessionId === sessionId);
  const load = exchanges(wire, 'session/load')
    .filter((x) => x.request.msg.params?.sessionId === sessionId)
    .at(-1);
  const error = load?.answer?.msg.error;
  const said = error ? `${error.code} ${JSON.stringify(error.data ?? error.message)}` : 'no error';
  return `session/new answered ${began?.answer ? time(began.answer.t) : '?'}, session/load sent ${load ? time(load.request.t) : 'never'} and answered ${said}`;
}

/** A restore's summary for a passing check. */
async function restoreSummary(ctx: CheckContext, chat: ChatDriver, sessionId: string): Promise<string> {
  const journal = await chat.journal();
  const { sent } = missingFromJournal(readWire(ctx.wireLog), journal, sessionId, chat.reloads);
  const s = (await chat.snapshot())!;
  return `${s.resumeOutcome}; ${prompts(journal)} prompts, ${turnEnds(journal)} turn ends, ${sent} agent updates all journaled`;
}

/** Runs every check for one agent; resolves to each check's result. */
export async function runChecks(ctx: CheckContext): Promise<Map<CheckName, CheckResult>> {
  const results = new Map<CheckName, CheckResult>();
  const { spec } = ctx;
  let chat: ChatDriver | undefined;
  let second: ChatDriver | undefined;
  let sessionId = '';
  /** The check in which the agent lost the session (`agent-lost`): later checks needing it say so. */
  let lostIn: CheckName | undefined;
  /** Throws {@link AgentLost} when an earlier check found the session lost: `what` needs it live. */
  const needsSession = (what: string) => {
    if (lostIn) throw new AgentLost(`no live session to ${what}: the agent lost it in \`${lostIn}\``);
  };

  async function check(name: CheckName, body: () => Promise<string | undefined>): Promise<void> {
    const why = spec.notOffered?.[name];
    if (why) {
      results.set(name, { status: 'not-offered', detail: why });
      return;
    }
    const started = Date.now();
    try {
      const detail = await body();
      results.set(name, { status: 'pass', ...(detail ? { detail } : {}) });
    } catch (e) {
      const status = e instanceof NotOffered ? 'not-offered' : e instanceof AgentLost ? 'agent-lost' : 'fail';
      const message = (e as Error).message;
      results.set(name, { status, detail: message.replace(/\s+/g, ' ').slice(0, 600) });
      if (status === 'agent-lost') lostIn ??= name;
      // Leave no turn running into the next check (a read-only chat runs none, and never connects).
      const state =
        chat && !chat.page.isClosed() ? (await chat.snapshot().catch(() => undefined))?.state : '';
      if (state === 'connected' || state === 'connecting' || state === 'reconnecting') {
        await chat?.page
          .evaluate(() => (window.drive.chat() as unknown as { cancel(): Promise<void> }).cancel())
          .catch(() => {});
        await chat?.connected('the chat idle again after a failed check').catch(() => {});
      }
    }
    const r = results.get(name)!;
    ctx.log(
      `  ${name}: ${r.status}${r.detail ? ` — ${r.detail}` : ''} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
  }

  /** Sends `marker`'s prompt, allows what the agent asks, and waits for the turn's final text. */
  async function scripted(marker: Marker): Promise<number> {
    const before = await chat!.send(promptFor(marker));
    const allowed = await chat!.allowUntilEnd(before, marker);
    await chat!.message(FINAL_TEXT[marker].slice(0, 20), 'agent', 5_000);
    await chat!.turnEnded(before, marker);
    return allowed;
  }

  await check('connect', async () => {
    chat = await ChatDriver.open(ctx.browser, ctx.url);
    await chat.settled('a new session');
    const s = await chat.snapshot();
    expect(s?.state === 'connected', `no session: ${(await chat.banner()) ?? s?.state}`);
    sessionId = s.sessionId;
    return `${s.agentInfo.name} ${s.agentInfo.version ?? ''}`.trim();
  });
  if (!sessionId) {
    for (const name of CHECKS)
      if (!results.has(name)) results.set(name, { status: 'fail', detail: 'no session' });
    return results;
  }

  await check('text', async () => {
    await scripted('text');
    const rows = await chat!.rows();
    const agent = rows.find(
      (r) => r.type === 'message' && r.role === 'agent' && r.text?.includes('Streaming'),
    );
    expect(agent?.text?.includes('Hello from the mock model'), 'the streamed text is not whole');
    const chunks = (await chat!.journal()).filter((u) => u.kind === 'agent_message_chunk').length;
    return `${chunks} agent chunks`;
  });

  await check('thought', async () => {
    const rows = await chat!.rows();
    expect(
      rows.some((r) => r.type === 'message' && r.role === 'thought'),
      'no thought row in the first turn',
    );
    return undefined;
  });

  await check('permission', async () => {
    const allowed = await scripted('write');
    expect(allowed > 0, 'the agent wrote without asking');
    const file = join(ctx.cwd, WRITTEN_FILE);
    expect(existsSync(file), `${WRITTEN_FILE} was not written`);
    expect(readFileSync(file, 'utf8') === WRITTEN_TEXT, `${WRITTEN_FILE} holds other text`);
    return `${allowed} permission(s) allowed, the file written`;
  });

  /** The tool call updates the agent sent since `since` (Date.now()), as text. */
  const sentSince = (since: number) =>
    readWire(ctx.wireLog)
      .filter((l) => l.t >= since && l.msg.method === 'session/update')
      .filter((l) => String(l.msg.params?.update?.sessionUpdate).startsWith('tool_call'))
      .map((l) => JSON.stringify(l.msg.params?.update))
      .join('\n');

  await check('shell', async () => {
    const since = Date.now();
    const allowed = await scripted('shell');
    const journaled = toolText(await chat!.journal()).includes(SHELL_OUTPUT);
    if (!journaled && !sentSince(since).includes(SHELL_OUTPUT))
      throw new NotOffered('the agent sends no command output to the client (only to the model)');
    expect(journaled, 'the command output the agent sent is not in the journal');
    return `${allowed} permission(s); output journaled`;
  });

  /** The slow command's lines the agent sent (per the wire log), once its turn ran. */
  let slowSent: string[] = [];
  /** The exit code the agent sent for the slow command (`_meta.terminal_exit.exit_code`), if any. */
  let slowExit: number | undefined;

  await check('slow-shell', async () => {
    const start = (await chat!.journal()).length;
    const since = Date.now();
    const allowed = await scripted('slow');
    const wire = sentSince(since);
    slowSent = SLOW_LINES.filter((l) => wire.includes(l));
    slowExit = readWire(ctx.wireLog)
      .filter((l) => l.t >= since && l.msg.method === 'session/update')
      .map((l) => (l.msg.params?.update?._meta as TerminalMeta | undefined)?.terminal_exit?.exit_code)
      .find((code) => typeof code === 'number');
    if (slowSent.length === 0) throw new NotOffered('the agent sends no command output to the client');
    const journal = (await chat!.journal()).slice(start);
    const text = toolText(journal);
    const lost = slowSent.filter((l) => !text.includes(l));
    expect(lost.length === 0, `sent by the agent but not journaled: ${lost.join(', ')}`);
    // Updates that carried some of the output before the last line was printed: output over time.
    const partial = journal.filter((u) => {
      if (u.kind !== 'tool_call_update') return false;
      const s = JSON.stringify(u.raw);
      return s.includes(slowSent[0]!) && !s.includes(SLOW_LINES.at(-1)!);
    }).length;
    const short = slowSent.length < SLOW_LINES.length ? `; the agent sent only ${slowSent.join(' ')}` : '';
    return `${allowed} permission(s); ${partial ? `${partial} updates with partial output` : 'output only at the end'}${short}`;
  });

  await check('output-in-card', async () => {
    if (slowSent.length === 0) throw new NotOffered('the agent sends no command output to the client');
    const card = await chat!.lastCardText();
    const absent = slowSent.filter((l) => !card.includes(l));
    expect(
      absent.length === 0,
      `the card does not show ${absent.join(', ')} (it shows "${card.replace(/\s+/g, ' ').trim().slice(0, 80)}")`,
    );
    if (slowExit === undefined) return 'the agent sends no exit code';
    const shown = await chat!.lastCardExitCode();
    expect(
      shown?.code === String(slowExit) && shown.text.includes(String(slowExit)),
      `the card shows exit code ${shown?.code ?? 'none'} ("${shown?.text ?? ''}"); the agent sent ${slowExit}`,
    );
    return `the output and "${shown.text}"`;
  });

  await check('cancel', async () => {
    // Stop once the slow command is allowed (or running, for an agent that does not ask).
    const before = await chat!.send(promptFor('slow'));
    await chat!.allowNext(before, 'the slow command', true);
    expect((await chat!.turnEnds()) === before, 'the turn ended before Stop');
    await chat!.stop();
    await chat!.turnEnded(before, 'the cancelled slow command');
    const end = (await chat!.journal()).filter((u) => u.kind === 'turn_end').at(-1);
    expect(end?.turnEnd?.stopReason === 'cancelled', `the turn ended ${end?.turnEnd?.stopReason}`);
    return undefined;
  });

  await check('command', async () => {
    const offered = ((await chat!.snapshot())?.availableCommands ?? []).map((c) => c.name);
    if (!spec.command) throw new CheckFailed(`no command chosen (the agent offers ${offered.length})`);
    expect(
      offered.includes(spec.command),
      `/${spec.command} not offered (offered: ${offered.slice(0, 12).join(' ')})`,
    );
    const listed = await chat!.commandMenu(spec.command.slice(0, 3));
    expect(listed.includes(spec.command), `the / menu lists ${listed.join(' ') || 'nothing'}`);
    const before = await chat!.pickAndSend(spec.command);
    await chat!.allowUntilEnd(before, `/${spec.command}`);
    const end = (await chat!.journal()).filter((u) => u.kind === 'turn_end').at(-1);
    expect(end?.turnEnd?.stopReason !== 'error', `the turn failed: ${end?.turnEnd?.error?.message}`);
    return `/${spec.command} of ${offered.length} offered; ended ${end?.turnEnd?.stopReason}`;
  });

  await check('question', async () => {
    const before = await chat!.send(promptFor('ask'));
    await chat!.answerQuestion();
    // allowUntilEnd stops at the answered question's card (still pending until the worker has its
    // answer: no allow button), so the turn's end is awaited on its own. Without it the next check
    // (reload) could reload between the final text and the end_turn: a turn the page died in.
    await chat!.allowUntilEnd(before, 'the question');
    await chat!.message(FINAL_TEXT.ask.slice(0, 20), 'agent', 5_000);
    await chat!.turnEnded(before, 'the question');
    const journal = await chat!.journal();
    const resolution = journal.filter((u) => u.kind === 'elicitation_resolution').at(-1);
    expect(
      resolution?.elicitation?.resolution === 'answered',
      `the question ended ${resolution?.elicitation?.resolution}`,
    );
    return `answered ${JSON.stringify(resolution.elicitation?.answers ?? {})}`;
  });

  await check('reload', async () => {
    await chat!.reload();
    await chat!.settled('the session restored after the reload');
    const lost = await lossProblems(ctx, chat!);
    expect(lost.length === 0, `the agent lost the session: ${lost.join('; ')}`);
    const problems = await restoreProblems(ctx, chat!, sessionId);
    expect(problems.length === 0, problems.join('; '));
    return restoreSummary(ctx, chat!, sessionId);
  });

  await check('reload-open', async () => {
    // Reload while the agent waits for the user (a question where it asks one, else a permission to
    // write): the restored journal must end that turn, and no card may stay pending.
    const kind = results.get('question')?.status === 'pass' ? 'question' : 'permission';
    needsSession(`open a ${kind} in`);
    await chat!.send(promptFor(kind === 'question' ? 'ask' : 'draft'));
    await chat!.openPrompt(kind);
    await chat!.reload();
    await chat!.settled('the session restored after a reload with a prompt open');
    const lost = await lossProblems(ctx, chat!);
    expect(lost.length === 0, `${kind} open, the agent lost the session: ${lost.join('; ')}`);
    const problems = await restoreProblems(ctx, chat!, sessionId);
    const open = (await chat!.rows()).filter(
      (r) => r.type === 'tool' && (r.toolCall?.status === 'pending' || r.toolCall?.status === 'in_progress'),
    );
    if (open.length)
      problems.push(
        `${open.length} tool card(s) still ${open[0]?.toolCall?.status} (${open[0]?.toolCall?.title})`,
      );
    expect(problems.length === 0, `${kind} open: ${problems.join('; ')}`);
    return `${kind} open; ${await restoreSummary(ctx, chat!, sessionId)}`;
  });

  await check('new-profile', async () => {
    const profile = await ctx.browser.createBrowserContext();
    try {
      const url = `${ctx.url}&restore=${encodeURIComponent(sessionId)}`;
      second = await ChatDriver.open(profile, url);
      await second.settled('the session restored in a new profile');
      let s = await second.snapshot();
      let held = '';
      if (s?.restoreNote === 'held-elsewhere') {
        // The agent lets one client hold a session (Codex): the first page still has it. As a user
        // would: close it there, then "Try again" here.
        held = 'held by the first page: read-only with a note; closed there, tried again; ';
        await chat!.close();
        await pollUntil(() => ctx.agents() === 1, "the first page's agent to exit");
        expect(await second.clickBanner('Try again'), `no "Try again" (banner: ${await second.banner()})`);
        await second.settled('the session restored after "Try again"');
        s = await second.snapshot();
      }
      expect(s, `no session: ${(await second.banner()) ?? 'no banner'}`);
      const lost = await lossProblems(ctx, second, true);
      expect(lost.length === 0, `the agent lost the session: ${lost.join('; ')}`);
      const problems: string[] = [];
      if (s.state !== 'connected')
        problems.push(`state ${s.state}${s.error ? ` (${s.error.code}: ${s.error.message})` : ''}`);
      if (s.sessionId !== sessionId) problems.push(`another session (${s.sessionId})`);
      if (s.resumeOutcome !== 'loaded') problems.push(`outcome ${s.resumeOutcome}`);
      if (s.restoreNote) problems.push(`restoreNote ${s.restoreNote}`);
      const journal = await second.journal();
      if (journal.length === 0) problems.push('an empty transcript');
      expect(problems.length === 0, `${problems.join('; ')}; banner: ${(await second.banner()) ?? 'none'}`);
      await second.message('silo:write', 'user');
      await second.message(FINAL_TEXT.write.slice(0, 12), 'agent');
      return `${held}loaded; ${journal.length} updates, ${turnEnds(journal)} turn ends`;
    } finally {
      await profile.close();
    }
  });
  if (chat?.page.isClosed()) {
    // new-profile closed it (the agent lets one client hold a session): the user reopens the chat.
    chat = await ChatDriver.open(ctx.browser, ctx.url);
    await chat.settled('the chat reopened after new-profile');
  }
  await check('subagent', () => subagentCheck(ctx, chat!));
  await check('fork', () => forkCheck(ctx, chat!, needsSession));
  await chat?.close().catch(() => {});
  if (chat?.errors.length) ctx.log(`  page errors: ${chat.errors.join(' | ')}`);
  return results;
}
