/**
 * The harness of the conformance suites (test/browser/conformance-*.test.ts): a scripted-agent bridge
 * (test/support/fuzz-agent.ts, which writes exactly the lines a scenario needs) and a reference-agent
 * bridge shared by a suite, a fresh journal per scenario, and helpers to script the agent and read the
 * outcome as the transcript rows the components draw. docs/conformance.md maps every scenario.
 */
import {
  type AgentSessionHandle,
  type AgentSessionUpdate,
  type AgentsService,
  createAgentsService,
  type SiloError,
} from '../../src/index.ts';
import { TranscriptModel } from '../../src/transcript/model.ts';
import type { MessageRow, TranscriptRow } from '../../src/transcript/rows.ts';
import { startBridge, stopBridge, type TestBridge } from './bridge.ts';

const CWD = '/tmp/silo-conformance';
export const err = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: SiloError) => e,
  );

/** The prompt that makes the scripted agent write `lines` (see test/support/fuzz-agent.ts). */
export function script(spec: {
  lines: unknown[];
  await?: (string | number)[];
  wait?: 'cancel';
  afterCancel?: unknown[];
  stopReason?: string;
  result?: object;
  error?: object;
}): string {
  const bytes = new TextEncoder().encode(JSON.stringify(spec));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `script ${btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')}`;
}
export const update = (u: object, sessionId = '$SESSION') => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId, update: u },
});
/** A `session/request_permission` the scripted agent sends as request `id`. */
export const permissionRequest = (id: string, toolCall: object, options: object[]) => ({
  jsonrpc: '2.0',
  id,
  method: 'session/request_permission',
  params: { sessionId: '$SESSION', toolCall, options },
});
export const fromAgent = (journal: AgentSessionUpdate[]) =>
  journal.filter((u) => !u.turnEnd && !(u.kind === 'user_message_chunk' && u.timestamp));
/** The `RESPONSES [...]` chunk the scripted agent writes with the client's answers to its requests. */
export const responses = (journal: AgentSessionUpdate[]) =>
  JSON.parse(journal.find((u) => u.text?.startsWith('RESPONSES '))!.text!.slice('RESPONSES '.length)) as {
    result?: unknown;
    error?: { code: number };
  }[];

/** The rows a transcript of these updates is drawn from (what the components render). */
export function rowsOf(journal: AgentSessionUpdate[]): TranscriptRow[] {
  const model = new TranscriptModel();
  model.applyAll(journal);
  return model.rows;
}
export const bubbles = (rows: TranscriptRow[]) =>
  rows.filter((r): r is MessageRow => r.type === 'message' && r.role !== 'user').map((r) => [r.role, r.text]);
export const chunk = (text: string, messageId?: string, kind = 'agent_message_chunk') =>
  update({ sessionUpdate: kind, ...(messageId ? { messageId } : {}), content: { type: 'text', text } });

/** What a scenario gets: the suite's bridges and service (read them when the scenario runs). */
export interface ScenarioContext {
  readonly service: AgentsService;
  /** Bridges a scenario started; stopped after it. */
  readonly extra: TestBridge[];
  /** Connects to `'scripted'`, `'reference'` or another bridge, in the scenario's journal. */
  connect(
    b: TestBridge | 'scripted' | 'reference',
    more?: Partial<Parameters<AgentsService['connect']>[0]>,
  ): Promise<AgentSessionHandle>;
}

/** Scenarios by §9 number: a title and the body that drives the scenario and asserts its outcome. */
export type Scenarios = Record<number, [string, () => Promise<void>]>;

/** Declares a mocha suite with one `it` per scenario, titled `§9.<n> <title>`, in number order. */
export function describeScenarios(title: string, scenarios: (ctx: ScenarioContext) => Scenarios): void {
  describe(title, function () {
    this.timeout(60_000);
    let service: AgentsService;
    let scripted: TestBridge;
    let reference: TestBridge;
    const extra: TestBridge[] = [];
    before(async () => {
      [scripted, reference] = await Promise.all([
        startBridge({ agentScript: 'test/support/fuzz-agent.ts' }),
        startBridge(),
      ]);
    });
    after(async () => {
      await stopBridge(scripted.id);
      await stopBridge(reference.id);
    });
    beforeEach(() => {
      service = createAgentsService({ databaseName: `silo-conformance-${crypto.randomUUID()}` });
    });
    afterEach(async () => {
      await service.dispose();
      for (const b of extra.splice(0)) await stopBridge(b.id);
    });
    const ctx: ScenarioContext = {
      get service() {
        return service;
      },
      extra,
      connect: (b, more = {}) =>
        service.connect({
          bridge: b === 'scripted' ? scripted : b === 'reference' ? reference : b,
          cwd: CWD,
          ...more,
        }),
    };
    for (const [n, [name, run]] of Object.entries(scenarios(ctx))) it(`§9.${n} ${name}`, run);
  });
}
