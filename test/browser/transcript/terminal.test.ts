// Command output in terminal blocks, through the real bridge and reference agent's `/scenario terminal`
// (Claude's and Codex's exact `_meta` shapes, agent/scenarios/terminal.ts): shown live with its ANSI
// colours and exit codes, following its bottom while it grows until the user scrolls up in it; the
// same after a reload (resume), offline from the journal, and from a JSONL export; Markdown export shows it.
import { expect } from 'chai';
import { BACKGROUND_PLACEHOLDER, buildLine } from '../../../agent/scenarios/terminal.ts';
import { scenarioPrompt } from '../../../agent/scenarios.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import { parseJsonl, toMarkdown } from '../../../src/export.ts';
import { type AgentsService, createAgentsService, terminalText } from '../../../src/index.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import '../../../components/index.ts';
import { mount } from '../fixtures/dom.ts';
import { unmountAll } from '../fixtures/mount.ts';

afterEach(unmountAll);

const CWD = '/tmp/silo-terminal';
const LINES = 120;

/** The terminal block of a tool call in a transcript (its card's body is in the DOM open or closed). */
const block = (el: SiloTranscript, id: string) =>
  el
    .shadowRoot!.querySelector('[part="log"]')
    ?.querySelector<HTMLElement>(`:scope > .row figure[part="terminal"][data-terminal="${id}"]`) ?? null;
const output = (el: SiloTranscript, id: string) =>
  block(el, id)?.querySelector<HTMLElement>('[part="terminal-output"]') ?? null;
const exit = (el: SiloTranscript, id: string) =>
  block(el, id)?.querySelector('[part="terminal-exit"] span')?.textContent?.trim();

/** The expected text of each terminal once the scenario has run. */
const CODEX_TEXT = Array.from({ length: LINES }, (_, i) => terminalText(buildLine(i + 1))).join('');
const BACKGROUND_TEXT = 'watch: rebuilt 1\nwatch: rebuilt 2\nwatch: rebuilt 3\n';

/** What a transcript shows of the three terminals, whatever its source. */
async function expectFinished(el: SiloTranscript, how: string): Promise<void> {
  await until(() => exit(el, 'term-codex') === 'Exit code 0', `${how}: the build's exit code`, 20_000);
  expect(output(el, 'term-codex')!.textContent, how).to.equal(CODEX_TEXT);
  expect(exit(el, 'term-claude'), how).to.equal('Exit code 1');
  expect(block(el, 'term-claude')!.dataset.status, how).to.equal('failed');
  // Replace, then append: the placeholder is gone, the three lines are there once each.
  expect(output(el, 'term-background')!.textContent, how).to.equal(BACKGROUND_TEXT);
  expect(exit(el, 'term-background'), how).to.equal('Ended');
  // The colours: a run per colour, the escape sequences gone, the text escaped.
  await until(
    () => output(el, 'term-claude')!.querySelector('.ansi-red-fg'),
    `${how}: the ANSI chunk coloured it`,
  );
  const claude = output(el, 'term-claude')!;
  expect(claude.textContent).to.not.include('\u001b');
  expect(claude.querySelector('.ansi-red-fg')!.textContent).to.equal('✗ FAIL');
  expect(claude.querySelector('.ansi-green-fg')!.textContent).to.equal('✓');
  expect(claude.querySelector('.ansi-bold')!.textContent).to.equal('> npm test');
  expect(getComputedStyle(claude.querySelector('.ansi-red-fg')!).color).to.not.equal(
    getComputedStyle(claude).color,
  );
  // The exit code shows on the closed card's summary too.
  const head = block(el, 'term-claude')!.closest('details')!.querySelector('[part~="tool-exit"]');
  expect(head?.textContent?.trim(), how).to.equal('Exit code 1');
}

describe('terminal output in tool cards (real bridge, reference agent, Claude and Codex shapes)', function () {
  this.timeout(120_000);
  let bridge: TestBridge;
  const databaseName = `silo-terminal-${crypto.randomUUID()}`;
  let service: AgentsService;
  before(async () => {
    bridge = await startBridge();
    service = createAgentsService({ databaseName });
  });
  after(async () => {
    await service?.dispose();
    if (bridge) await stopBridge(bridge.id);
  });

  it('live: streams and follows the bottom until the user scrolls up; then after a reload, offline, and from an export', async () => {
    const session = await service.connect({ bridge, cwd: CWD });
    const el = document.createElement('silo-transcript');
    el.session = session;
    let unmount = mount(el, 700);
    const turn = session.prompt(scenarioPrompt('terminal', LINES, 40));
    // Streaming: the build's block shows some lines before the last one came, and follows its bottom.
    const pre = await until(
      () => {
        const p = output(el, 'term-codex');
        const text = p?.textContent ?? '';
        return text.includes(terminalText(buildLine(30))) && p!.scrollHeight > p!.clientHeight + 20
          ? p
          : undefined;
      },
      'the build streamed past its block height',
      30_000,
    );
    expect(exit(el, 'term-codex')).to.equal('Running…');
    expect(pre.textContent).to.not.include(terminalText(buildLine(LINES)));
    await until(
      () => pre.scrollHeight - pre.scrollTop - pre.clientHeight < 4,
      'the block follows its bottom',
    );
    // The user scrolls up inside the block: it stays where they put it while the output grows.
    pre.scrollTop = 0;
    pre.dispatchEvent(new Event('scroll'));
    const grown = pre.scrollHeight;
    await until(() => pre.scrollHeight > grown + 40, 'the output grew');
    expect(pre.scrollTop).to.equal(0);
    expect(await turn).to.equal('end_turn');
    await expectFinished(el, 'live');
    const { sessionId } = session;
    await session.close();
    unmount();

    // After a reload: a new service on the same journal resumes the session.
    await service.dispose();
    service = createAgentsService({ databaseName });
    const again = await service.connect({ bridge, cwd: CWD, resume: { sessionId } });
    const reloaded = document.createElement('silo-transcript');
    reloaded.session = again;
    unmount = mount(reloaded, 700);
    await expectFinished(reloaded, 'after a reload');
    await again.close();
    unmount();

    // Offline: the journal alone, no connection.
    const offline = document.createElement('silo-transcript');
    offline.service = service;
    offline.sessionId = sessionId;
    unmount = mount(offline, 700);
    await expectFinished(offline, 'offline from the journal');
    unmount();

    // From a JSONL export; the Markdown export has the plain output and the exit codes.
    const updates = parseJsonl(await service.exportJsonl(sessionId));
    const exported = document.createElement('silo-transcript');
    exported.updates = updates;
    unmount = mount(exported, 700);
    await expectFinished(exported, 'from the export');
    unmount();
    const md = toMarkdown(updates);
    expect(md).to.include(
      '```console\n> npm test\n✓ greet.test.ts\n✗ FAIL sum.test.ts: expected 3, got 4\n```',
    );
    expect(md).to.include('_Exit code 1._');
    expect(md).to.include(`\`\`\`console\n${CODEX_TEXT.trimEnd()}\n\`\`\``);
    expect(md).to.not.include(BACKGROUND_PLACEHOLDER);
  });
});
