// The recorded real traffic of claude-agent-acp, replayed by a fake agent behind the real bridge:
// it normalizes without loss, restores by load (no duplicates; fills an empty journal) and by resume.
import { expect } from 'chai';
import {
  type AgentPermissionRequest,
  type AgentSessionHandle,
  type AgentSessionUpdate,
  type AgentsService,
  createAgentsService,
} from '../../../src/index.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { type RecordedEntry, readFixture, recordedUpdates } from '../../support/fixtures.ts';
import { until } from '../../support/until.ts';

const CWD = '/home/dev/project';
const SILO_KINDS = new Set(['turn_end', 'permission', 'permission_resolution']);
/** The updates the agent sent (without the ones Silo recorded itself). */
const agentSide = (journal: AgentSessionUpdate[]) =>
  journal.filter((u) => !SILO_KINDS.has(u.kind) && !(u.kind === 'user_message_chunk' && u.timestamp));

/** The updates recorded between the client's `method` request and the agent's response to it. */
function updatesDuring(entries: RecordedEntry[], method: string): Record<string, unknown>[] {
  const start = entries.findIndex((e) => e.dir === 'client->agent' && e.msg.method === method);
  const id = entries[start]!.msg.id;
  const end = entries.findIndex(
    (e, i) => i > start && e.dir === 'agent->client' && e.msg.method === undefined && e.msg.id === id,
  );
  return recordedUpdates(entries.slice(start, end));
}

/** Drives the five recorded turns of main.jsonl, answering and cancelling as the recording did. */
async function playMain(service: AgentsService, bridge: TestBridge): Promise<AgentSessionHandle> {
  let turnNo = 0;
  const delivered: AgentSessionUpdate[] = [];
  let session!: AgentSessionHandle;
  const onPermission = (p: AgentPermissionRequest) => {
    if (turnNo === 5) void session.cancel();
    else void p.choose('allow-once');
  };
  session = await service.connect({ bridge, cwd: CWD, onPermission, onUpdate: (u) => delivered.push(u) });
  const prompts = [
    'Please make a plan and write hello.txt',
    'Run a shell command',
    'Tell me a very long story',
    'Run it again',
    'Cancel at the permission',
  ];
  const stops: string[] = [];
  for (const text of prompts) {
    turnNo++;
    const from = delivered.length;
    const running = session.prompt(text);
    if (turnNo === 3) {
      await until(
        () => delivered.slice(from).some((u) => u.kind === 'agent_message_chunk'),
        'the slow story streams',
      );
      await session.cancel();
    }
    stops.push(await running);
  }
  expect(stops).to.deep.equal(['end_turn', 'end_turn', 'cancelled', 'end_turn', 'cancelled']);
  return session;
}

describe('recorded real traffic through a replaying agent', () => {
  let main: RecordedEntry[];
  let service: AgentsService;
  const bridges: TestBridge[] = [];
  const bridgeFor = async (files: string[]) => {
    const b = await startBridge({ replayFiles: files });
    bridges.push(b);
    return b;
  };

  before(async () => {
    main = await readFixture('main');
  });
  beforeEach(() => {
    service = createAgentsService({ databaseName: `silo-fixture-${crypto.randomUUID()}` });
  });
  afterEach(async () => {
    await service.dispose();
    for (const b of bridges.splice(0)) await stopBridge(b.id);
  });

  it('main: every session/update is journaled in order, tool calls patch in place, message ids are the agent’s', async () => {
    const session = await playMain(service, await bridgeFor(['main']));
    const journal = await session.transcript();
    const expected = recordedUpdates(main, ['session/set_mode']);
    const agent = agentSide(journal);
    expect(agent.map((u) => u.raw)).to.deep.equal(expected, 'every recorded update, raw and in order');
    for (const u of agent) {
      if (typeof u.raw.messageId === 'string') expect(u.messageId).to.equal(u.raw.messageId);
    }
    const toolIds = new Set(agent.filter((u) => u.kind === 'tool_call').map((u) => u.toolCall!.toolCallId));
    const updateIds = agent.filter((u) => u.kind === 'tool_call_update').map((u) => u.toolCall!.toolCallId);
    expect(updateIds.every((id) => toolIds.has(id))).to.equal(true, 'every update patches a known call');
    expect(journal.filter((u) => u.kind === 'permission')).to.have.length(4);
    const resolutions = journal
      .filter((u) => u.kind === 'permission_resolution')
      .map((u) => u.permission!.resolution);
    expect(resolutions).to.deep.equal(['selected', 'selected', 'selected', 'cancelled']);
    expect(session.agentInfo.title).to.be.a('string').and.not.empty;
    expect(journal.map((u) => u.seq)).to.deep.equal(journal.map((_, i) => i));
  });

  it('load after main: a non-empty journal gets no duplicates; an empty journal is filled by the replay', async () => {
    const first = await playMain(service, await bridgeFor(['main']));
    const sessionId = first.sessionId;
    const before = await first.transcript();
    await first.close();
    const loaded = await service.connect({
      bridge: await bridgeFor(['load']),
      cwd: CWD,
      resume: { sessionId },
    });
    expect(loaded.resumeOutcome).to.equal('loaded');
    expect(loaded.sessionId).to.equal(sessionId);
    const after = await loaded.transcript();
    expect(after.slice(0, before.length)).to.deep.equal(before, 'the journal is kept as it was');
    const ids = (us: AgentSessionUpdate[]) =>
      us.flatMap((u) =>
        [u.raw.messageId, u.toolCall?.toolCallId].filter((x): x is string => typeof x === 'string'),
      );
    const known = new Set(ids(before));
    const added = after.slice(before.length);
    expect(ids(added).filter((id) => known.has(id))).to.deep.equal(
      [],
      'nothing the journal held was appended again',
    );
    expect(added.length).to.be.lessThan(10, 'only what the journal missed, and live updates after the load');
    await loaded.close();

    const elsewhere = createAgentsService({ databaseName: `silo-fixture-empty-${crypto.randomUUID()}` });
    const fresh = await elsewhere.connect({
      bridge: await bridgeFor(['load']),
      cwd: CWD,
      resume: { sessionId },
    });
    expect(fresh.resumeOutcome).to.equal('loaded');
    const filled = await fresh.transcript();
    const replayed = updatesDuring(await readFixture('load'), 'session/load');
    expect(replayed.length).to.be.greaterThan(0);
    expect(filled.slice(0, replayed.length).map((u) => u.raw)).to.deep.equal(
      replayed,
      'the replay became the journal, in order',
    );
    expect(filled.slice(replayed.length).every((u) => u.kind === 'available_commands_update')).to.equal(
      true,
      'then live updates only',
    );
    expect(filled.some((u) => u.kind === 'user_message_chunk')).to.equal(true, 'the replayed user messages');
    await elsewhere.dispose();
  });

  it('resume after main: the transcript comes from the journal, and the next turn appends to it', async () => {
    const first = await playMain(service, await bridgeFor(['main']));
    const sessionId = first.sessionId;
    const before = await first.transcript();
    await first.close();
    const resumed = await service.connect({
      bridge: await bridgeFor(['resume']),
      cwd: CWD,
      resume: { sessionId },
      onPermission: (p) => void p.choose('allow-once'),
    });
    expect(resumed.resumeOutcome).to.equal('resumed');
    const restored = await resumed.transcript();
    expect(restored.slice(0, before.length)).to.deep.equal(
      before,
      'the journal, untouched: resume replays nothing',
    );
    expect(restored.slice(before.length).every((u) => u.kind === 'available_commands_update')).to.equal(true);
    expect(await resumed.prompt('One more')).to.equal('end_turn');
    const after = await resumed.transcript();
    expect(after.slice(0, before.length)).to.deep.equal(before);
    expect(after.length).to.be.greaterThan(before.length);
  });
});
