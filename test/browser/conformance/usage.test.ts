// Usage in every shape agents report it (agent/usage-shapes.ts, read from each agent's code): the
// prompt response's `usage` (Claude, Codex, OpenCode, Copilot's running total), `_meta.quota` in
// camelCase (Claude, Codex) and in snake_case with no total (Gemini CLI), Qwen Code's `_meta.usage`
// on empty agent chunks (one per model request), `usage_update` with and without cost. Each turn's
// tokens and time are journaled with its end and shown on it ("Done · 1.2 s · 135 tokens"); the
// session's sum is in the snapshot and the usage header — live, and restored from the journal.
import { expect } from 'chai';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import {
  type AgentSessionHandle,
  type AgentSessionUpdate,
  TranscriptModel,
  type TurnEndRow,
} from '../../../src/index.ts';
import { until } from '../../support/until.ts';
import '../../../components/index.ts';
import { suiteBridges } from '../fixtures/bridges.ts';
import { deepElements, mount } from '../fixtures/dom.ts';

const CWD = '/tmp/silo-usage';

function ends(journal: readonly AgentSessionUpdate[]): TurnEndRow[] {
  const model = new TranscriptModel();
  model.applyAll(journal);
  return model.rows.filter((r): r is TurnEndRow => r.type === 'turn-end');
}

describe('usage: every shape agents report it in, one model per turn and per session (real bridge)', function () {
  this.timeout(60_000);
  const suite = suiteBridges();

  async function twoTurns(shape: string): Promise<{ session: AgentSessionHandle; turns: TurnEndRow[] }> {
    const bridge = await suite.bridgeWith('--usage-shape', shape);
    const session = await suite.service.connect({ bridge, cwd: CWD });
    expect(await session.prompt('hello')).to.equal('end_turn');
    expect(await session.prompt('hello')).to.equal('end_turn');
    return { session, turns: ends(await session.transcript()) };
  }

  // "hello": each model request uses 85 input and 50 output tokens (agent/usage-shapes.ts).
  const perTurn: Record<string, object> = {
    claude: { total: 135, input: 85, output: 50, cachedRead: 0, cachedWrite: 0 },
    codex: { total: 135, input: 85, output: 50, thought: 5, cachedRead: 0, cachedWrite: 0 },
    gemini: { total: 135, input: 85, output: 50 },
    opencode: { total: 135, input: 85, output: 50 },
    // Two requests a turn, each reported on an empty agent chunk: summed.
    qwen: { total: 320, input: 220, output: 100, cachedRead: 0 },
    // The response counts the whole process: each turn is what it added.
    copilot: { total: 135, input: 85, output: 50, cachedRead: 0, cachedWrite: 0 },
  };

  for (const [shape, tokens] of Object.entries(perTurn)) {
    it(`${shape}: each turn's tokens and time on its end, the session's sum in the snapshot, journaled`, async () => {
      const { session, turns } = await twoTurns(shape);
      expect(turns.map((t) => t.tokens)).to.deep.equal([tokens, tokens]);
      for (const t of turns) expect(t.durationMs).to.be.a('number').and.at.least(0);
      const total = (tokens as { total: number }).total * 2;
      expect(session.snapshot.tokens?.total).to.equal(total);
      const journal = await session.transcript();
      const recorded = journal.filter((u) => u.kind === 'turn_end').map((u) => u.turnEnd?.usage?.tokens);
      expect(recorded).to.deep.equal([tokens, tokens]);
      const model = new TranscriptModel();
      model.applyAll(journal);
      expect(model.current.tokens?.total).to.equal(total);
      await session.close();
    });
  }

  it('usage_update: the context meter, and the last cost kept when a later update has none', async () => {
    const bridge = await suite.bridgeWith('--usage-shape', 'codex');
    const session = await suite.service.connect({ bridge, cwd: CWD });
    // The scenario's last update costs 0.0123 USD; Codex's own after it has no cost.
    expect(await session.prompt('/scenario usage')).to.equal('end_turn');
    const want = { used: 1000 + 85 + 50 + 10, size: 258400, cost: { amount: 0.0123, currency: 'USD' } };
    expect(session.usage).to.deep.equal(want);
    const model = new TranscriptModel();
    model.applyAll(await session.transcript());
    expect(model.current.usage).to.deep.equal(want);
    await session.close();
  });

  it('<silo-chat> shows "Done · time · tokens" on each turn and the session tokens in the header, live and restored', async () => {
    const bridge = await suite.bridgeWith('--usage-shape', 'qwen');
    const storage = `silo-usage-${crypto.randomUUID()}`;
    const open = () => {
      const chat = document.createElement('silo-chat') as SiloChat;
      chat.setAttribute('storage-key', storage);
      chat.setAttribute('bridge', bridge.connection);
      chat.setAttribute('cwd', CWD);
      return { chat, unmount: mount(chat) };
    };
    const parts = (chat: SiloChat, name: string) =>
      deepElements(chat.shadowRoot!).filter((e) => e.getAttribute('part')?.split(' ').includes(name));
    let { chat, unmount } = open();
    try {
      const session = await until(() => chat.session, 'the chat connected', 20_000);
      expect(await session.prompt('hello')).to.equal('end_turn');
      const row = await until(() => parts(chat, 'turn-end')[0], 'the turn end shown', 20_000);
      await until(() => parts(chat, 'turn-tokens').length === 1, 'the turn tokens shown');
      // One line of the turn's outcome, time and tokens; its actions (Retry) beside it in the same row.
      const said = row.querySelector('.turn-end > span')!.textContent!.replace(/\s+/g, ' ').trim();
      expect(said).to.match(/^Done · \d+\.\d s · 320 tokens$/);
      expect(parts(chat, 'turn-tokens')[0]!.getAttribute('title')).to.equal('320 tokens: 220 in, 100 out');
      const header = await until(() => parts(chat, 'usage-tokens')[0], 'the session tokens shown');
      expect(header.textContent).to.equal('320 tokens in this session');
      await session.close();
      unmount();
      ({ chat, unmount } = open());
      await until(() => chat.session?.resumeOutcome === 'resumed', 'restored', 20_000);
      const again = await until(() => parts(chat, 'turn-tokens')[0], 'the restored turn tokens', 20_000);
      expect(again.textContent).to.equal(' · 320 tokens');
      expect(parts(chat, 'usage-tokens')[0]?.textContent).to.equal('320 tokens in this session');
    } finally {
      unmount();
    }
  });
});
