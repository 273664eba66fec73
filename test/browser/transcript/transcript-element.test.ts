// <silo-transcript> in a real browser: rendering of every row type, recorded real traffic, keyed
// identity while streaming, XSS corpus, virtualization at 100,000 updates, live prompts, keyboard, axe.

import { expect } from 'chai';
import { axeViolations } from '../fixtures/axe.ts';
import '../../../components/index.ts';
import { loadHighlighter } from '../../../components/content/highlighter.chunk.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import type { AgentElicitationRequest } from '../../../src/api.ts';
import { SiloError } from '../../../src/errors.ts';
import { toJsonl } from '../../../src/export.ts';
import type { AgentSessionUpdate } from '../../../src/types.ts';
import { report } from '../../support/summary-browser.ts';
import { frame, until } from '../../support/until.ts';
import { XSS_PAYLOADS } from '../../support/xss-corpus.ts';
import { collectRows, deepElements, deepText, mount, settle } from '../fixtures/dom.ts';
import {
  chunk,
  journalFromTraffic,
  longConversation,
  permissionRow,
  raw,
  recordedTraffic,
  TestPermission,
  tool,
  turnEnd,
  userPrompt,
} from '../fixtures/transcript-data.ts';

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

async function show(updates: readonly AgentSessionUpdate[], height = 600): Promise<SiloTranscript> {
  const el = document.createElement('silo-transcript');
  el.updates = updates;
  cleanup = mount(el, height);
  await el.updateComplete;
  await until(() => updates.length === 0 || el.shadowRoot!.querySelector('.row'), 'rows rendered');
  return el;
}

const rowsOf = (el: SiloTranscript, part: string) =>
  Array.from(el.shadowRoot!.querySelectorAll<HTMLElement>(`[part~="${part}"]`));

describe('<silo-transcript>', () => {
  it('renders the recorded claude-agent-acp traffic completely', async () => {
    const traffic = await recordedTraffic('main');
    const journal = journalFromTraffic(traffic);
    const el = await show(journal);
    const rows = await collectRows(el.shadowRoot!);
    const of = (part: string) => rows.filter((r) => (r.getAttribute('part') ?? '').split(' ').includes(part));
    // Counted in test/fixtures/claude-agent-acp/main.jsonl: 5 prompts (and 5 prompt responses), agent
    // message chunks under 9 messageIds, thought chunks under 5, 5 toolCallIds, 4 permission requests,
    // and 2 plan updates in one turn (one plan row). Usage, commands, config and title are state.
    expect(of('turn-end')).to.have.length(5);
    expect(of('message-user')).to.have.length(5);
    expect(of('message-agent')).to.have.length(9);
    expect(of('thought')).to.have.length(5);
    expect(of('tool')).to.have.length(5);
    // Each of the 4 permissions names its tool call: it is drawn inside that card, not as a row.
    expect(of('permission')).to.have.length(0);
    expect(of('plan')).to.have.length(1);
    expect(of('unknown')).to.have.length(0);
    expect(rows).to.have.length(5 + 5 + 9 + 5 + 5 + 1);
    const text = rows.map((r) => r.textContent).join(' ');
    expect(text).to.include('Write hello.txt');
    expect(text).to.include('echo scripted-bash-output && touch bash-created.txt');
    // Every agent message's text is there: the text chunks of each messageId, read from the recording.
    const said = new Map<string, string>();
    for (const line of traffic) {
      const msg = line.msg as { method?: string; params?: { update?: Record<string, unknown> } };
      const u = msg.method === 'session/update' ? msg.params?.update : undefined;
      const content = u?.content as { type?: string; text?: string } | undefined;
      if (u?.sessionUpdate !== 'agent_message_chunk' || content?.type !== 'text') continue;
      const id = String(u.messageId);
      said.set(id, (said.get(id) ?? '') + content.text);
    }
    expect(said.size).to.equal(9);
    for (const message of said.values()) {
      const first = message
        .trim()
        .split('\n')[0]!
        .replace(/[*`#_]/g, '')
        .slice(0, 20);
      expect(text).to.include(first);
    }
    // The diff of the new file, with its path and "new file".
    const diff = rows.map((r) => r.querySelector('[part="diff"]')).find(Boolean)!;
    expect(diff.textContent).to.include('/home/dev/project/hello.txt');
    expect(diff.querySelector('[part="diff-new"]')).to.exist;
    expect(diff.querySelector('.line.add')!.textContent).to.include('Hello from a scripted mock model!');
    // The plan as a checklist, replaced whole (both entries completed at the end).
    expect(of('plan')[0]!.querySelectorAll('li[data-status="completed"]')).to.have.length(2);
    // Recorded permission answers, by option name; the cancelled one says so.
    const perms = of('tool').flatMap((t) =>
      Array.from(t.querySelectorAll('[part~="permission-prompt"]'), (p) => p.textContent ?? ''),
    );
    expect(perms).to.have.length(4);
    expect(perms.filter((t) => /Answered: /.test(t))).to.have.length(3);
    expect(perms[3]).to.include('Cancelled');
    expect(
      of('turn-end').map((r) => r.querySelector('.turn-end')!.getAttribute('data-stop-reason')),
    ).to.deep.equal(['end_turn', 'end_turn', 'cancelled', 'end_turn', 'cancelled']);
    // Usage: context meter and cost in its currency.
    const meter = el.shadowRoot!.querySelector('meter')!;
    expect(Number(meter.max)).to.equal(1000000);
    expect(el.shadowRoot!.querySelector('[part="usage-cost"]')!.textContent).to.match(/\$0\.00\d\d/);
    // Code fences in tool output are rendered as code blocks.
    expect(
      rows.some((r) => r.querySelector('.tool pre code')?.textContent?.includes('scripted-bash-output')),
    ).to.equal(true);
    // load.jsonl: the replay's 7 user messages and the 1 new prompt, 11 agent messages, 6 thoughts, 6
    // tool calls (1 holding the permission), 1 plan row, 1 turn end. resume.jsonl: 1 prompt, 2 agent
    // messages, 1 thought, 1 tool call (holding the permission), 1 turn end.
    const expected = { load: 8 + 11 + 6 + 6 + 1 + 1, resume: 1 + 2 + 1 + 1 + 1 };
    for (const name of ['load', 'resume'] as const) {
      el.updates = journalFromTraffic(await recordedTraffic(name));
      await el.updateComplete;
      const other = await collectRows(el.shadowRoot!);
      expect(other, name).to.have.length(expected[name]);
      expect(
        other.filter((r) => r.getAttribute('part')!.includes('unknown')),
        name,
      ).to.have.length(0);
      expect(other.filter((r) => r.getAttribute('part')!.includes('tool')).length, name).to.be.greaterThan(0);
    }
  });

  it('keeps a row’s DOM identity while its chunks stream, and patches tool rows in place', async () => {
    const el = await show([
      userPrompt('hi', 'u'),
      chunk('Hello', 'a'),
      tool({ toolCallId: 't', title: 'Run' }, true),
    ]);
    const agent = await until(() => rowsOf(el, 'message-agent')[0], 'agent row');
    const toolRow = rowsOf(el, 'tool')[0]!;
    const user = rowsOf(el, 'message-user')[0]!;
    for (const word of [' wide', ' **world**']) {
      el.appendUpdates([chunk(word, 'a')]);
      await el.updateComplete;
    }
    el.appendUpdates([tool({ toolCallId: 't', status: 'completed', title: 'Run tests' })]);
    await el.updateComplete;
    await until(() => rowsOf(el, 'tool')[0]?.textContent?.includes('Run tests'), 'tool patched');
    // Markdown re-renders at most once a frame while streaming: wait for the last chunk's.
    await until(() => agent.querySelector('strong')?.textContent === 'world', 'the last chunk rendered');
    // Compared by identity (not passed to chai: it would try to print a DOM tree on failure).
    expect(rowsOf(el, 'message-agent')[0] === agent, 'same agent row element').to.equal(true);
    expect(rowsOf(el, 'tool')[0] === toolRow, 'same tool row element').to.equal(true);
    expect(rowsOf(el, 'message-user')[0] === user, 'same user row element').to.equal(true);
    expect(agent.querySelector('strong')!.textContent).to.equal('world');
    expect(agent.textContent).to.include('Hello wide');
    expect(toolRow.querySelector('[part="tool-status"]')!.textContent).to.equal('Completed');
  });

  it('renders thoughts collapsible, images, resource links, notices, compactions, unknown kinds', async () => {
    const el = await show([
      chunk('deep thought', 'th', 'agent_thought_chunk'),
      raw({
        sessionUpdate: 'agent_message_chunk',
        messageId: 'img',
        content: { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      }),
      raw({
        sessionUpdate: 'agent_message_chunk',
        messageId: 'img',
        content: { type: 'resource_link', uri: 'https://example.com/spec', name: 'spec' },
      }),
      raw({ sessionUpdate: 'notice', severity: 'warning', title: 'Rate limited', description: 'Slow down' }),
      raw({ sessionUpdate: 'notice', severity: '_critical', title: 'Vendor thing' }),
      raw({
        sessionUpdate: 'compaction_update',
        compactionId: 'c',
        status: 'completed',
        summary: [{ type: 'text', text: 'We talked about **files**.' }],
      }),
      raw({ sessionUpdate: '_vendor_thing', foo: 1 }),
    ]);
    await until(() => rowsOf(el, 'unknown').length === 1, 'unknown row');
    expect(rowsOf(el, 'thought')[0]!.querySelector('details')).to.exist;
    expect(el.shadowRoot!.querySelector('img')!.getAttribute('src')).to.match(/^data:image\/png;base64,/);
    const link = el.shadowRoot!.querySelector<HTMLAnchorElement>('[part="resource-link"] a')!;
    expect(link.href).to.equal('https://example.com/spec');
    expect(link.rel).to.equal('noopener noreferrer nofollow');
    expect(link.target).to.equal('_blank');
    expect(rowsOf(el, 'notice-warning')[0]!.textContent).to.include('Rate limited');
    expect(rowsOf(el, 'notice-other')[0]!.textContent).to.include('_critical');
    expect(rowsOf(el, 'compaction')[0]!.querySelector('strong')!.textContent).to.equal('files');
    expect(rowsOf(el, 'unknown')[0]!.textContent).to.include('_vendor_thing');
  });

  it('says how turns ended: cancelled (with cancelled tools), refused (out of context), max tokens, unknown', async () => {
    const el = await show([
      userPrompt('one', 'u1'),
      tool({ toolCallId: 'x', title: 'Slow', status: 'in_progress' }, true),
      turnEnd('cancelled'),
      userPrompt('two', 'u2'),
      chunk('I cannot', 'a2'),
      turnEnd('refusal'),
      userPrompt('three', 'u3'),
      turnEnd('max_tokens'),
      userPrompt('four', 'u4'),
      turnEnd('max_turn_requests'),
      userPrompt('five', 'u5'),
      turnEnd('something_new'),
    ]);
    await until(() => rowsOf(el, 'turn-end').length === 5, 'turn ends');
    const ends = rowsOf(el, 'turn-end').map((r) => r.textContent!.trim());
    expect(ends[0]).to.equal('Cancelled');
    expect(ends[1]).to.include('refused').and.include('no longer part of the agent’s context');
    expect(ends[2]).to.include('token limit');
    expect(ends[3]).to.include('too many model requests');
    expect(ends[4]).to.include('something_new');
    expect(rowsOf(el, 'tool')[0]!.querySelector('[part="tool-status"]')!.textContent).to.equal('Cancelled');
    const excluded = rowsOf(el, 'excluded');
    expect(excluded).to.have.length(2);
    expect(rowsOf(el, 'message-user')[1]!.querySelector('[part="excluded"]')).to.exist;
  });

  it('executes nothing from an XSS corpus fed through every rendered field', async () => {
    const w = window as unknown as { __xss?: string[] };
    w.__xss = [];
    const payloads = XSS_PAYLOADS;
    const updates: AgentSessionUpdate[] = [];
    payloads.forEach((p, i) => {
      updates.push(userPrompt(p, `xu${i}`));
      updates.push(chunk(p, `xa${i}`));
      updates.push(chunk(p, `xt${i}`, 'agent_thought_chunk'));
      // In highlighted code: a fenced block and a diff of a file whose language is known.
      updates.push(chunk(`\`\`\`html\n${p}\n<b onclick="x()">${p}</b>\n\`\`\``, `xc${i}`));
      updates.push(
        tool(
          {
            toolCallId: `xt${i}`,
            title: p,
            kind: 'edit',
            locations: [{ path: p, line: 1 }],
            content: [
              { type: 'content', content: { type: 'text', text: p } },
              { type: 'diff', path: p, oldText: `${p}\nsame`, newText: `same\n${p}` },
              { type: 'diff', path: p, oldText: null, newText: p },
              { type: 'diff', path: 'x.html', oldText: `<i>${p}</i>`, newText: `<b>${p}</b>` },
            ],
          },
          true,
        ),
      );
      updates.push(raw({ sessionUpdate: 'plan', entries: [{ content: p, priority: p, status: p }] }));
      updates.push(raw({ sessionUpdate: 'notice', severity: p, title: p, description: p }));
      updates.push(
        raw({
          sessionUpdate: 'compaction_update',
          compactionId: p,
          status: p,
          summary: [{ type: 'text', text: p }],
          error: p,
        }),
      );
      updates.push(
        raw({
          sessionUpdate: 'agent_message_chunk',
          messageId: `xr${i}`,
          content: {
            type: 'resource_link',
            uri: `javascript:window.__xss.push(${100 + i})`,
            name: p,
            description: p,
          },
        }),
      );
      updates.push(
        raw({
          sessionUpdate: 'agent_message_chunk',
          messageId: `xr${i}`,
          content: {
            type: 'image',
            mimeType: `image/png" onerror="window.__xss.push(${200 + i})`,
            data: 'AAAA',
          },
        }),
      );
      updates.push(
        raw({
          sessionUpdate: 'agent_message_chunk',
          messageId: `xr${i}`,
          content: {
            type: 'image',
            mimeType: 'text/html',
            data: btoa('<script>window.__xss.push(300)</script>'),
          },
        }),
      );
      updates.push(raw({ sessionUpdate: 'agent_message_chunk', messageId: `xr${i}`, content: { type: p } }));
      updates.push({
        kind: 'permission',
        permission: {
          id: `xp${i}`,
          toolCall: { toolCallId: `xpt${i}`, title: p },
          options: [{ optionId: p, name: p, kind: 'allow_once' }],
          resolution: 'selected',
          optionId: p,
        },
        raw: {},
      });
      updates.push({
        kind: 'elicitation',
        elicitation: { id: `xe${i}`, message: p, resolution: 'declined' },
        raw: {},
      });
      updates.push(raw({ sessionUpdate: p }));
      updates.push(turnEnd(p));
    });
    // The highlighter is loaded first, so every code block and diff line below is highlighted.
    await loadHighlighter();
    const el = await show(updates);
    const problems: string[] = [];
    const images: Promise<unknown>[] = [];
    let shown = '';
    let tokens = 0;
    const rows = await collectRows(el.shadowRoot!, (row) => {
      tokens += row.querySelectorAll('span[class^="hljs-"]').length;
      shown += deepText(row);
      for (const e of [row, ...deepElements(row)]) {
        // Silo's own icons are inline SVG from its templates (components/shared/icons.ts): agent
        // Markdown can draw none (no svg, no class attribute gets through the sanitizer).
        const icon = e.tagName === 'svg' && e.classList.contains('icon') && e.closest('.md') === null;
        if (
          !icon &&
          ['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'FORM', 'svg', 'math', 'STYLE', 'BASE'].includes(e.tagName)
        ) {
          problems.push(`<${e.tagName}>`);
        }
        if (e instanceof HTMLImageElement) images.push(e.decode().catch(() => undefined));
        for (const a of Array.from(e.attributes)) {
          if (a.name.startsWith('on')) problems.push(`${e.tagName} ${a.name}`);
          if (['href', 'src', 'action', 'formaction', 'xlink:href', 'data'].includes(a.name)) {
            const ok = /^(https?:|mailto:)/i.test(a.value) || /^data:image\/png;base64,/.test(a.value);
            if (!ok) problems.push(`${e.tagName} ${a.name}=${a.value}`);
          }
        }
      }
    });
    // Per payload: user, agent and thought messages, a code block, tool, plan, notice, compaction, the xr message
    // (resource link, image and unknown block), the permission's never-announced tool call as a tool
    // row (§9.27) holding the permission, question, unknown kind, turn end.
    expect(rows.length).to.equal(13 * payloads.length);
    expect(tokens, 'code and diffs were highlighted').to.be.greaterThan(payloads.length);
    // Let images load or fail and any handler run before looking.
    await Promise.all(images);
    await frame();
    expect(problems).to.deep.equal([]);
    expect(w.__xss, 'no payload executed').to.deep.equal([]);
    // The payloads are shown as text (escaped), not silently dropped everywhere.
    expect(shown).to.include('<script>window.__xss.push(2)</script>');
  });

  it('keeps the DOM bounded for a 100,000-update transcript and scrolls through it', async () => {
    const updates = longConversation(100_000);
    const t0 = performance.now();
    const el = await show(updates);
    await until(() => el.shadowRoot!.querySelectorAll('.row').length > 3, 'rows rendered');
    const ms = performance.now() - t0;
    const count = () => el.shadowRoot!.querySelectorAll('*').length;
    // longConversation: 19 updates a turn drawn as 5 rows (prompt, thought, tool, answer, turn end);
    // 100,000 updates are 5,263 whole turns and the start of one more (its prompt and a thought).
    const rowCount = 5_263 * 5 + 2;
    expect(count(), 'DOM nodes at the top').to.be.lessThan(1500);
    // How long is the bench's (`npm run bench`: reopen, flat in journal size), not a test's.
    await report('figure', Math.round(ms), 'first rows of a 100,000-update transcript', 'ms');
    const log = el.shadowRoot!.querySelector<HTMLElement>('[part="log"]')!;
    await settle(log);
    log.scrollTop = log.scrollHeight / 2;
    await until(
      () => Number(el.shadowRoot!.querySelector<HTMLElement>('.row')!.dataset.index) > 1000,
      'scrolled',
    );
    expect(count(), 'DOM nodes in the middle').to.be.lessThan(1500);
    await el.focusRow(rowCount - 1);
    await until(
      () => el.shadowRoot!.activeElement?.getAttribute('data-index') === String(rowCount - 1),
      'last row focused',
    );
    expect(count(), 'DOM nodes at the end').to.be.lessThan(1500);
  });

  it('renders a live permission prompt with every option, moves focus to it, and fails closed', async () => {
    const el = await show([
      userPrompt('delete it', 'u'),
      tool({ toolCallId: 'rm', title: 'rm -rf build', kind: 'delete' }, true),
    ]);
    const req = new TestPermission('perm-1', { toolCallId: 'rm', title: 'rm -rf build' }, [
      { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
      { optionId: 'never', name: 'Never', kind: 'reject_always' },
    ]);
    // The page gets the request's journaled row first, then the live request (docs/requests-and-state.md).
    el.appendUpdates([permissionRow(req)]);
    el.permissionRequests = [req];
    const prompt = await until(
      () => el.shadowRoot!.querySelector<HTMLElement>('[part="log"] [data-prompt="perm-1"][data-pending]'),
      'live prompt in the log',
    );
    await until(() => el.shadowRoot!.activeElement === prompt, 'focus on the prompt');
    expect(
      el.shadowRoot!.querySelectorAll('[data-prompt="perm-1"]'),
      'drawn once, in its row',
    ).to.have.length(1);
    const buttons = Array.from(prompt.querySelectorAll('button'));
    expect(buttons.map((b) => b.textContent!.trim())).to.deep.equal([
      'Allow once',
      'Always allow',
      'Reject',
      'Never',
    ]);
    // No option is preselected or focused: Enter on the prompt does nothing.
    expect(buttons.includes(el.shadowRoot!.activeElement as HTMLButtonElement), 'no option focused').to.equal(
      false,
    );
    let answered: string | undefined;
    el.addEventListener('silo-permission-answered', (e) => (answered = e.detail.optionId));
    buttons[2]!.click();
    await until(() => answered, 'answered event');
    expect(req.chosen).to.deep.equal(['no']);
    await until(
      () => prompt.querySelector('[part="permission-resolution"]')?.textContent?.includes('Reject'),
      'shows choice',
    );
    expect(prompt.querySelectorAll('button')).to.have.length(0);
    // A second request that the agent withdraws can no longer be answered.
    const gone = new TestPermission('perm-2', { toolCallId: 'rm2', title: 'push' }, [
      { optionId: 'ok', name: 'Allow', kind: 'allow_once' },
    ]);
    el.appendUpdates([permissionRow(gone)]);
    el.permissionRequests = [req, gone];
    const p2 = await until(
      () => el.shadowRoot!.querySelector<HTMLElement>('[data-prompt="perm-2"] button'),
      'prompt 2',
    );
    expect(p2.textContent!.trim()).to.equal('Allow');
    gone.controller.abort();
    await until(
      () =>
        el
          .shadowRoot!.querySelector('[data-prompt="perm-2"]')
          ?.textContent?.includes('can no longer be answered'),
      'withdrawn prompt',
    );
    expect(el.shadowRoot!.querySelectorAll('[data-prompt="perm-2"] button')).to.have.length(0);
    expect(gone.chosen).to.deep.equal([]);
  });

  it('a permission answered first in another tab shows how it ended, not a failed answer', async () => {
    // Two tabs follow one session (docs/restore.md): this tab's answer reaches the driving tab after
    // the other tab's; it is refused `closed`, and the request ends with the other tab's answer. The
    // refusal and the end travel on different ports, so either may arrive first.
    const el = await show([userPrompt('deploy', 'u'), tool({ toolCallId: 'dt', title: 'deploy' }, true)]);
    const options = [
      { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    ] as const;
    class AnsweredElsewhere extends TestPermission {
      constructor(
        id: string,
        readonly endsFirst: boolean,
      ) {
        super(id, { toolCallId: 'dt', title: 'deploy' }, options);
      }
      override async choose(optionId: string): Promise<void> {
        this.chosen.push(optionId);
        if (this.endsFirst) this.controller.abort('selected');
        throw new SiloError('closed', 'This permission request can no longer be answered');
      }
    }
    for (const endsFirst of [false, true]) {
      const req = new AnsweredElsewhere(`pt-${endsFirst}`, endsFirst);
      el.appendUpdates([permissionRow(req)]);
      el.permissionRequests = [req];
      const prompt = await until(
        () => el.shadowRoot!.querySelector<HTMLElement>(`[part="log"] [data-prompt="${req.id}"]`),
        'prompt in the log',
      );
      prompt.querySelector<HTMLButtonElement>('button[data-option="no"]')!.click();
      await until(() => req.chosen.length === 1, 'the answer was tried');
      if (!endsFirst) {
        // Refused first: the prompt says so (it may still be answerable), until the request ends.
        await until(() => prompt.querySelector('[role="alert"]'), 'the refusal shown');
        req.controller.abort('selected');
      }
      el.appendUpdates([
        {
          kind: 'permission_resolution',
          permission: { id: req.id, resolution: 'selected', optionId: 'once' },
          raw: {},
        },
      ]);
      const outcome = await until(
        () =>
          el.shadowRoot!.querySelector(`[data-prompt="${req.id}"] [part="permission-resolution"]`)
            ?.textContent,
        'the outcome shown',
      );
      expect(outcome).to.include('Allow once', 'the other tab’s answer');
      await frame();
      // The error's text, not the element (the test runner would serialize a failing element whole).
      expect(
        el.shadowRoot!.querySelector(`[data-prompt="${req.id}"] [role="alert"]`)?.textContent ?? null,
        `no error (${endsFirst ? 'ended before the refusal' : 'refused before it ended'})`,
      ).to.equal(null);
    }
  });

  it('hands elicitation rows to <silo-elicitation>: the record, and the live request while open', async () => {
    const record = { id: 'q1', message: 'Pick one', questions: [], acknowledgeOnly: true };
    const el = await show([{ kind: 'elicitation', elicitation: record, raw: {} }]);
    const child = await until(() => el.shadowRoot!.querySelector('silo-elicitation'), 'elicitation element');
    expect(child.record).to.deep.include({ id: 'q1', message: 'Pick one' });
    expect(child.request).to.equal(undefined);
    const controller = new AbortController();
    const live: AgentElicitationRequest = {
      id: 'q1',
      mode: 'form',
      message: 'Pick one',
      questions: [],
      acknowledgeOnly: true,
      unsupported: false,
      raw: {},
      signal: controller.signal,
      answer: async () => {},
      decline: async () => {},
      cancel: async () => {},
    };
    el.elicitationRequests = [live];
    await until(
      () => el.shadowRoot!.querySelector('silo-elicitation')?.request === live,
      'live request handed over',
    );
    el.appendUpdates([
      { kind: 'elicitation_resolution', elicitation: { id: 'q1', resolution: 'answered' }, raw: {} },
    ]);
    await until(
      () => el.shadowRoot!.querySelector('silo-elicitation')?.record?.resolution === 'answered',
      'resolution record',
    );
    expect(el.shadowRoot!.querySelector('silo-elicitation')!.request).to.equal(undefined);
  });

  it('loads a JSONL export from a URL and from a file, the same as the array', async () => {
    const journal = journalFromTraffic(await recordedTraffic('main'));
    const fromArray = await show(journal);
    const expected = (await collectRows(fromArray.shadowRoot!)).map((r) =>
      r.outerHTML.replace(/<!--[^>]*-->| style="[^"]*"/g, ''),
    );
    cleanup?.();
    const url = URL.createObjectURL(new Blob([toJsonl(journal)], { type: 'application/jsonl' }));
    const el = document.createElement('silo-transcript');
    el.src = url;
    cleanup = mount(el);
    await el.updateComplete;
    const fromUrl = (await collectRows(el.shadowRoot!)).map((r) =>
      r.outerHTML.replace(/<!--[^>]*-->| style="[^"]*"/g, ''),
    );
    expect(fromUrl).to.deep.equal(expected);
    el.src = undefined;
    el.file = new File([toJsonl(journal)], 'session.jsonl');
    await el.updateComplete;
    const fromFile = (await collectRows(el.shadowRoot!)).map((r) =>
      r.outerHTML.replace(/<!--[^>]*-->| style="[^"]*"/g, ''),
    );
    expect(fromFile).to.deep.equal(expected);
    let error: unknown;
    el.addEventListener('silo-load-error', (e) => (error = e.detail.error));
    el.file = new File(['{"kind":"x"}\nnot json\n'], 'bad.jsonl');
    await el.updateComplete;
    expect(error).to.have.property('code', 'invalid-params');
    expect(el.shadowRoot!.querySelector('[part="empty"]')!.textContent).to.include('Line 2');
    URL.revokeObjectURL(url);
  });

  it('replaces strings and formats numbers and currency for the locale', async () => {
    const el = document.createElement('silo-transcript');
    el.strings = { you: 'Sie', stop: { cancelled: 'Abgebrochen' } as never };
    el.locale = 'de-DE';
    el.updates = [
      userPrompt('Hallo', 'u'),
      raw({
        sessionUpdate: 'usage_update',
        used: 12345,
        size: 200000,
        cost: { amount: 1.5, currency: 'EUR' },
      }),
      turnEnd('cancelled'),
    ];
    cleanup = mount(el);
    await el.updateComplete;
    await until(() => rowsOf(el, 'turn-end').length === 1, 'rendered');
    expect(rowsOf(el, 'message-user')[0]!.textContent).to.include('Sie');
    expect(rowsOf(el, 'turn-end')[0]!.textContent!.trim()).to.equal('Abgebrochen');
    const usage = el.shadowRoot!.querySelector('[part="usage"]')!.textContent!;
    expect(usage).to.include('12.345').and.include('200.000');
    expect(el.shadowRoot!.querySelector('[part="usage-cost"]')!.textContent)
      .to.include('1,50')
      .and.include('€');
  });

  it('moves between rows, turns and pending prompts with the keyboard (a feed: ↑/↓ a row, Page Up/Down a turn)', async () => {
    const el = await show([
      userPrompt('first', 'k1'),
      chunk('a', 'ka1'),
      turnEnd('end_turn'),
      userPrompt('second', 'k2'),
      chunk('b', 'ka2'),
      turnEnd('end_turn'),
    ]);
    const log = el.shadowRoot!.querySelector<HTMLElement>('[part="log"]')!;
    expect(log.getAttribute('role')).to.equal('feed');
    const press = (key: string, altKey = false) =>
      el.shadowRoot!.activeElement!.dispatchEvent(
        new KeyboardEvent('keydown', { key, altKey, bubbles: true, composed: true }),
      );
    const at = () => el.shadowRoot!.activeElement?.getAttribute('aria-posinset');
    // Focus on the log goes to its current row: the last one.
    log.focus();
    await until(() => at() === '6', 'the last row focused');
    expect(el.shadowRoot!.activeElement!.getAttribute('aria-setsize')).to.equal('6');
    press('PageUp');
    await until(() => el.shadowRoot!.activeElement?.textContent?.includes('second'), 'second turn focused');
    press('PageUp');
    await until(() => el.shadowRoot!.activeElement?.textContent?.includes('first'), 'first turn focused');
    press('PageDown');
    await until(() => el.shadowRoot!.activeElement?.textContent?.includes('second'), 'second turn again');
    press('ArrowUp');
    await until(() => at() === '3', 'the row before: the first turn’s end');
    press('ArrowDown');
    await until(() => at() === '4', 'the next row');
    const req = new TestPermission('kp', { toolCallId: 'kt', title: 'deploy' }, [
      { optionId: 'y', name: 'Yes', kind: 'allow_once' },
    ]);
    el.appendUpdates([permissionRow(req)]);
    el.permissionRequests = [req];
    await until(
      () => el.shadowRoot!.activeElement?.getAttribute('data-prompt') === 'kp',
      'focus on the prompt',
    );
    (el.shadowRoot!.querySelector('[part~="message-user"]') as HTMLElement).focus();
    press('ArrowDown', true);
    await until(
      () => el.shadowRoot!.activeElement?.querySelector('[data-prompt="kp"]'),
      'pending prompt row focused',
    );
  });

  it('sticks to the bottom while streaming, offers "jump to latest" after the user scrolls up', async () => {
    const el = await show(longConversation(400));
    const log = el.shadowRoot!.querySelector<HTMLElement>('[part="log"]')!;
    await settle(log);
    const jump = el.shadowRoot!.querySelector<HTMLButtonElement>('[part="jump"]')!;
    const atBottom = () => log.scrollHeight - log.scrollTop - log.clientHeight < 60;
    el.appendUpdates([userPrompt('live one', 'live-u'), chunk('streaming', 'live-a')]);
    await el.updateComplete;
    await until(atBottom, 'stuck to the bottom');
    expect(jump.hidden).to.equal(true);
    await settle(log);
    log.dispatchEvent(new WheelEvent('wheel', { deltaY: -500 }));
    log.scrollTop = 0;
    await until(() => !jump.hidden, 'jump button shown');
    el.appendUpdates([chunk(' more', 'live-a')]);
    await el.updateComplete;
    await frame();
    expect(log.scrollTop).to.be.lessThan(log.scrollHeight / 2);
    jump.click();
    await until(atBottom, 'back at the bottom');
    await until(() => jump.hidden, 'jump button hidden');
  });

  it('announces turn starts and ends in a polite live region, not every token', async () => {
    const el = await show([]);
    const status = el.shadowRoot!.querySelector('[role="status"]')!;
    expect(status.getAttribute('aria-live')).to.equal('polite');
    const log = el.shadowRoot!.querySelector('[part="log"]')!;
    expect(log.getAttribute('aria-live')).to.equal('off');
    expect(log.getAttribute('role'), 'an empty log: a region (a feed holds articles)').to.equal('region');
    el.appendUpdates([userPrompt('go', 'an')]);
    await el.updateComplete;
    expect(status.textContent).to.include('responding');
    el.appendUpdates([chunk('token', 'ana')]);
    await el.updateComplete;
    expect(status.textContent).to.include('responding');
    el.appendUpdates([turnEnd('cancelled')]);
    await el.updateComplete;
    expect(status.textContent).to.include('Cancelled');
  });

  it('passes axe', async () => {
    const journal = journalFromTraffic(await recordedTraffic('main'));
    const el = await show(journal);
    const log = el.shadowRoot!.querySelector<HTMLElement>('[part="log"]')!;
    const violations: string[] = [];
    // Check every part of the transcript as it scrolls by.
    for (let top = 0; ; top += log.clientHeight) {
      log.scrollTop = top;
      await settle(log);
      violations.push(...(await axeViolations(el)));
      if (log.scrollTop + log.clientHeight >= log.scrollHeight - 1) break;
    }
    expect([...new Set(violations)]).to.deep.equal([]);
  });
});
