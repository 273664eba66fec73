// Every reference-agent scenario that draws something, through the real bridge, worker and journal,
// rendered live by <silo-transcript .session>: the DOM of each turn is asserted (not snapshotted).
import { expect } from 'chai';
import '../../../components/index.ts';
import { loadDiffer } from '../../../components/content/line-diff.chunk.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import {
  type AgentElicitationRequest,
  type AgentPermissionRequest,
  type AgentSessionHandle,
  type AgentsService,
  createAgentsService,
} from '../../../src/index.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import { collectRows, mount } from '../fixtures/dom.ts';

describe('<silo-transcript> renders every reference-agent scenario (live)', function () {
  this.timeout(60000);
  let bridge: TestBridge;
  let service: AgentsService;
  let session: AgentSessionHandle;
  let el: SiloTranscript;
  let cleanup: () => void;
  const elicitations: AgentElicitationRequest[] = [];

  before(async () => {
    bridge = await startBridge();
    service = createAgentsService({ databaseName: `silo-scenarios-${crypto.randomUUID()}` });
    el = document.createElement('silo-transcript');
    cleanup = mount(el, 700);
    session = await service.connect({
      bridge,
      cwd: '/tmp/silo-scenarios',
      onPermission: (req: AgentPermissionRequest) => {
        el.permissionRequests = [...el.permissionRequests, req];
      },
      onElicitation: (req) => {
        elicitations.push(req);
        el.elicitationRequests = [...el.elicitationRequests, req];
      },
    });
    el.session = session;
  });
  after(async () => {
    cleanup();
    await service.dispose();
    await stopBridge(bridge.id);
  });

  /** Runs one prompt to its end and returns the rendered rows of that turn (scrolled through). */
  async function turn(prompt: string, during?: () => Promise<void>) {
    const start = el.model.rows.length;
    const done = session.prompt(prompt);
    await during?.();
    const stop = await done;
    await until(
      () => el.model.rows.slice(start).some((r) => r.type === 'turn-end'),
      `turn end of ${prompt} rendered`,
      20000,
    );
    await el.updateComplete;
    const rows = (await collectRows(el.shadowRoot!)).filter((r) => Number(r.dataset.index) >= start);
    const of = (part: string) => rows.filter((r) => r.getAttribute('part')!.split(' ').includes(part));
    return { stop, rows, of, model: el.model.rows.slice(start) };
  }

  it('default: the prompt, a collapsible thought, the Markdown answer', async () => {
    const { of } = await turn('hello scenarios');
    expect(of('message-user')[0]!.textContent).to.include('hello scenarios');
    expect(of('thought')[0]!.querySelector('details summary')).to.exist;
    expect(of('message-agent')[0]!.querySelector('strong')!.textContent).to.equal('Echo:');
  });

  it('markdown (with and without messageId): one bubble with headings, lists, code, table, quote, safe link', async () => {
    for (const name of ['markdown', 'markdown-no-id']) {
      const { of } = await turn(`/scenario ${name}`);
      const agent = of('message-agent');
      expect(agent, name).to.have.length(1);
      const md = agent[0]!;
      expect(md.querySelector('h1')!.textContent).to.equal('Streaming markdown');
      expect(md.querySelectorAll('ul li').length).to.be.greaterThan(2);
      expect(md.querySelector('pre code')!.textContent).to.include('function greet');
      expect(md.querySelectorAll('table tr')).to.have.length(3);
      expect(md.querySelector('blockquote')).to.exist;
      const a = md.querySelector('a')!;
      expect(a.getAttribute('href')).to.equal('https://example.com');
      expect(a.getAttribute('rel')).to.equal('noopener noreferrer nofollow');
    }
  });

  it('message-ids: a bubble per messageId, interleaved chunks in the right bubble', async () => {
    const { of } = await turn('/scenario message-ids');
    const texts = of('message-agent').map((r) => r.querySelector('.md')!.textContent!.trim());
    expect(texts).to.include('First message.');
    expect(texts).to.include('Second message, same kind, new id.');
    expect(texts.some((t) => t.startsWith('A1') && t.includes('A2'))).to.equal(true);
    expect(texts.some((t) => t.startsWith('B1'))).to.equal(true);
  });

  it('thoughts: thought and message chunks interleaved, each in its own bubble', async () => {
    const { of } = await turn('/scenario thoughts');
    expect(of('thought')).to.have.length(1);
    expect(of('thought')[0]!.textContent).to.include('Thinking a little more');
    expect(of('message-agent')[0]!.textContent).to.include('And the conclusion.');
  });

  it('tools: kinds, titles, statuses, locations, content and diffs (new file and edit)', async () => {
    // A diff's lines are drawn once the line differ's chunk is in (content/code.lazy.ts), which the
    // first diff of the page starts loading; the rows are read as soon as the turn ends. Loaded
    // first, so that the lines are drawn with the rows (seen: Firefox at load average 12 read the
    // edit's diff before its lines were there).
    await loadDiffer();
    const { of } = await turn('/scenario tools');
    const tools = of('tool');
    expect(tools.length).to.be.greaterThan(1);
    const statuses = tools.map((t) => t.querySelector('.card')!.getAttribute('data-status'));
    expect(statuses).to.include('completed');
    expect(statuses).to.include('failed');
    expect(statuses).to.not.include('pending');
    for (const t of tools)
      expect(t.querySelector('[part="tool-title"]')!.textContent!.trim()).to.not.equal('');
    const diffs = tools.flatMap((t) => Array.from(t.querySelectorAll('[part="diff"]')));
    expect(diffs.some((d) => d.querySelector('[part="diff-new"]'))).to.equal(true);
    const edit = diffs.find((d) => !d.querySelector('[part="diff-new"]'))!;
    expect(edit.querySelectorAll('.line.del').length).to.be.greaterThan(0);
    expect(edit.querySelectorAll('.line.add').length).to.be.greaterThan(0);
    expect(edit.querySelector('figcaption code')!.textContent).to.match(/^\//);
    expect(tools.some((t) => t.querySelector('[part="tool-locations"] li'))).to.equal(true);
  });

  it('tools: a card says its kind once, an edit names its file once, a read shows the file as code, icons are inline SVG', async () => {
    await loadDiffer();
    const { of } = await turn('/scenario tools');
    const tools = of('tool');
    const byKind = (kind: string) =>
      tools.filter((t) => t.querySelector('.card')!.getAttribute('data-kind') === kind);
    const summary = (t: HTMLElement) =>
      t.querySelector('[part~="tool-summary"]')!.textContent!.replace(/\s+/g, ' ').trim();
    // "Read README.md", not "READ Read README.md"; a title that does not start with its kind keeps it.
    const read = byKind('read')[0]!;
    expect(summary(read).replace(/^[^\p{L}]+/u, '')).to.match(/^Read README\.md /);
    expect(read.querySelector('[part~="tool-kind"]')?.textContent, 'no kind label').to.equal(undefined);
    const run = byKind('execute')[0]!;
    expect(run.querySelector('[part~="tool-kind"]')!.textContent).to.equal('Run');
    // The edit's path is in its diff only, not once more as a location.
    const edit = byKind('edit').find((t) => t.textContent!.includes('Edit README.md'))!;
    const body = edit.querySelector('[part~="tool-body"]')!.textContent!;
    expect(body.split('/README.md').length - 1, 'the path shown once').to.equal(1);
    // A read's output is the file's contents as code, not Markdown (its "# Project" is no heading).
    expect(read.querySelector('h1, h2, h3')?.outerHTML, 'no heading').to.equal(undefined);
    const file = read.querySelector('pre[part~="tool-file"] code');
    expect(file?.textContent).to.equal('# Project\n\nA tiny project.');
    // Icons are inline SVG in currentColor: nothing on any row needs an emoji font.
    for (const t of tools) expect(t.querySelector('.kind-icon')!.localName).to.equal('svg');
    const plan = of('plan')[0]!;
    expect(plan.querySelectorAll('.check svg').length).to.be.greaterThan(0);
    for (const r of [...tools, plan]) expect(r.textContent).not.to.match(/\p{Extended_Pictographic}/u);
  });

  it('plan: one checklist, replaced whole as entries progress', async () => {
    const { of, model } = await turn('/scenario plan');
    expect(of('plan')).to.have.length(1);
    const items = of('plan')[0]!.querySelectorAll('li');
    expect(items).to.have.length(3);
    const last = el.model.current.plan.map((e) => e.status);
    expect(Array.from(items).map((li) => li.getAttribute('data-status'))).to.deep.equal(last);
    expect(model.filter((r) => r.type === 'plan')).to.have.length(1);
  });

  it('usage: a context meter and the cost in its currency', async () => {
    await turn('/scenario usage');
    const meter = el.shadowRoot!.querySelector('meter')!;
    const usage = el.model.current.usage!;
    expect(Number(meter.value)).to.equal(usage.used);
    expect(Number(meter.max)).to.equal(usage.size);
    expect(usage.cost).to.exist;
    const cost = el.shadowRoot!.querySelector('[part="usage-cost"]')!.textContent!;
    expect(cost).to.include(
      new Intl.NumberFormat(undefined, { style: 'currency', currency: usage.cost!.currency })
        .formatToParts(1)
        .find((p) => p.type === 'currency')!.value,
    );
  });

  it('title, commands and config: state, never rows of an unknown kind', async () => {
    for (const name of ['title Scenario title', 'commands', 'config']) {
      const { of } = await turn(`/scenario ${name}`);
      expect(of('unknown'), name).to.have.length(0);
    }
    expect(el.model.current.title).to.equal('Scenario title');
    expect(el.model.current.commands.length).to.be.greaterThan(0);
  });

  it('notice: each severity; compaction: a summary fixed in place', async () => {
    const n = await turn('/scenario notice');
    expect(
      n.of('notice-info').length + n.of('notice-warning').length + n.of('notice-error').length,
    ).to.be.greaterThan(2);
    expect(n.of('notice-warning')).to.have.length(1);
    expect(n.of('notice-error')).to.have.length(1);
    const c = await turn('/scenario compaction');
    const comp = c.of('compaction');
    expect(comp).to.have.length(1);
    expect(comp[0]!.querySelector('.card')!.getAttribute('data-status')).to.equal('completed');
    expect(comp[0]!.querySelector('.md')!.textContent!.length).to.be.greaterThan(5);
  });

  it('permission: a live prompt with every option kind; the choice is recorded', async () => {
    const t = await turn('/scenario permission', async () => {
      const prompt = await until(
        () => el.shadowRoot!.querySelector<HTMLElement>('[data-prompt][data-pending]'),
        'live prompt',
        20000,
      );
      const kinds = Array.from(prompt.querySelectorAll<HTMLButtonElement>('button')).map(
        (b) => b.dataset.kind,
      );
      expect(kinds).to.include.members(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
      prompt.querySelector<HTMLButtonElement>('button[data-kind="reject_once"]')!.click();
    });
    // The permission is drawn inside its tool call's card, not as a row of its own.
    expect(t.of('permission')).to.have.length(0);
    const perm = t.of('tool').find((r) => r.querySelector('[part~="permission-prompt"]'))!;
    expect(perm.querySelector('[part="permission-resolution"]')!.textContent).to.include('Answered:');
    expect(perm.querySelectorAll('button')).to.have.length(0);
  });

  it('elicit-form and elicit-url: rows through <silo-elicitation> with their resolutions', async () => {
    for (const name of ['elicit-form', 'elicit-url']) {
      const before = elicitations.length;
      await turn(`/scenario ${name}`, async () => {
        const req = await until(() => elicitations[before], `${name} request`, 20000);
        await until(
          () =>
            el.shadowRoot!.querySelector('silo-elicitation')?.request === req || el.model.get(`e:${req.id}`),
          'row',
        );
        await req.decline();
      });
      const req = elicitations[before]!;
      const row = el.model.get(`e:${req.id}`);
      expect(row?.type).to.equal('elicitation');
      expect((row as { record: { resolution?: string } }).record.resolution, name).to.equal('declined');
      await el.focusRow(el.model.indexOf(`e:${req.id}`));
      const child = await until(
        () =>
          Array.from(el.shadowRoot!.querySelectorAll('silo-elicitation')).find(
            (c) => c.record?.id === req.id,
          ),
        'elicitation element rendered',
      );
      expect(child.record!.resolution).to.equal('declined');
      expect(child.request).to.equal(undefined);
    }
  });

  it('turn ends: max tokens, max turn requests, refusal (prompt out of context), unknown reason', async () => {
    const cases: [string, string, RegExp][] = [
      ['/scenario max-tokens', 'max_tokens', /token limit/],
      ['/scenario max-turn-requests', 'max_turn_requests', /too many model requests/],
      ['/scenario stop something_else', 'something_else', /something_else/],
      ['/scenario refusal', 'refusal', /refused/],
    ];
    for (const [prompt, reason, text] of cases) {
      const { of, stop } = await turn(prompt);
      expect(stop).to.equal(reason);
      const end = of('turn-end')[0]!;
      expect(end.querySelector('.turn-end')!.getAttribute('data-stop-reason')).to.equal(reason);
      expect(end.textContent).to.match(text);
      if (reason === 'refusal') expect(of('message-user')[0]!.querySelector('[part="excluded"]')).to.exist;
    }
  });

  it('slow + cancel: the turn says cancelled; unknown kinds and malformed lines do not stop rendering', async () => {
    const c = await turn('/scenario slow 100 50', async () => {
      await until(() => el.model.rows.at(-1)?.type === 'message', 'streaming started', 10000);
      await session.cancel();
    });
    expect(c.of('turn-end')[0]!.textContent!.trim()).to.match(/^Cancelled · \d+\.\d s$/);
    const u = await turn('/scenario unknown');
    expect(u.of('unknown').some((r) => r.textContent!.includes('_vendor_thing'))).to.equal(true);
    expect(u.rows.some((r) => r.querySelector('[part="placeholder"]'))).to.equal(true);
    const m = await turn('/scenario malformed');
    expect(m.of('message-agent').length).to.be.greaterThan(0);
  });

  it('flood: thousands of chunks stream into one bubble with a bounded DOM', async () => {
    const { of } = await turn('/scenario flood 3000');
    expect(of('message-agent').length).to.be.greaterThan(0);
    expect(el.shadowRoot!.querySelectorAll('*').length).to.be.lessThan(3000);
  });
});
