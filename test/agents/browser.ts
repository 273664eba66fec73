/**
 * The browser side of `npm run test:agents`: Vite serving test/agents/page (one `<silo-chat>` from
 * the repository's sources), Debian's Chromium through puppeteer-core, and {@link ChatDriver}, which
 * does in a page what a user does — type and send, allow a permission, answer a question, pick a
 * slash command, reload — and reads back the chat's rows, its session snapshot and the journal.
 * Every wait is a condition polled on animation frames, bounded so that a broken agent fails the
 * check instead of hanging the run.
 * @packageDocumentation
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { createServer, type ViteDevServer } from 'vite';
import { chromiumArgs, ensureBrowsers } from '../../scripts/browsers.mjs';
import type { AgentSessionSnapshot, AgentSessionUpdate } from '../../src/types.ts';
import { waitFor } from '../support/page-wait.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** How long one step may take with a real agent on a busy 2-core machine. */
const STEP_MS = 90_000;

/** A row of the chat's transcript model, as much as the checks read. */
export interface Row {
  readonly type: string;
  readonly role?: string;
  readonly text?: string;
  readonly toolCall?: { readonly status?: string; readonly title?: string };
  /** A tool card's subagent: its own rows. */
  readonly subagent?: { readonly rows: readonly Row[] };
}

/** The page server: Vite on test/agents/page, resolving `silo-acp` to the sources. */
export async function startPageServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const source = (p: string) => join(ROOT, p);
  const vite: ViteDevServer = await createServer({
    configFile: false,
    root: join(ROOT, 'test/agents/page'),
    logLevel: 'warn',
    publicDir: false,
    cacheDir: join(ROOT, 'node_modules/.vite-agents'),
    resolve: {
      alias: [
        { find: /^silo-acp\/components$/, replacement: source('components/index.ts') },
        { find: /^silo-acp$/, replacement: source('src/index.ts') },
      ],
    },
    server: { host: '127.0.0.1', port: 0, strictPort: false, fs: { allow: [ROOT] }, cors: false },
    optimizeDeps: { entries: ['index.html', '../../../worker/index.ts'] },
    worker: { format: 'es' },
  });
  await vite.listen();
  const address = vite.httpServer!.address() as { port: number };
  return { origin: `http://127.0.0.1:${address.port}`, close: () => vite.close() };
}

/** Launches headless Chromium (Debian's), kept off the network. */
export function launchBrowser(): Promise<Browser> {
  const { chromium } = ensureBrowsers(['chromium']);
  return puppeteer.launch({ executablePath: chromium, headless: true, args: chromiumArgs });
}

/**
 * Page-side helpers, installed in every document before its scripts run. A string, because tsx
 * decorates named functions with a helper the page does not have.
 */
const HELPERS = `
  window.drive = {
    chat: () => document.querySelector('silo-chat'),
    transcriptRoot: () => document.querySelector('silo-chat')?.shadowRoot?.querySelector('silo-transcript')?.shadowRoot,
    rows: () => {
      const t = document.querySelector('silo-chat')?.shadowRoot?.querySelector('silo-transcript');
      return t ? t.model.rows : [];
    },
    /**
     * The first element that matches the last selector, inside the shadow root of an element matching
     * the one before, and so on from the transcript's shadow root (every candidate is tried).
     */
    find: (selectors, root = window.drive.transcriptRoot()) => {
      if (!root) return null;
      const [first, ...rest] = selectors;
      for (const el of root.querySelectorAll(first)) {
        if (rest.length === 0) return el;
        const inner = window.drive.find(rest, el.shadowRoot);
        if (inner) return inner;
      }
      return null;
    },
  };
`;

declare global {
  interface Window {
    drive: {
      chat(): HTMLElement & {
        session?: { sessionId: string; snapshot: AgentSessionSnapshot };
        updateComplete: Promise<boolean>;
        connect(o: { sessionId?: string; via?: 'load' | 'resume' }): Promise<void>;
      };
      transcriptRoot(): ShadowRoot | undefined;
      rows(): Row[];
      find(selectors: string[]): HTMLElement | null;
    };
    agentsPage: { service: { transcript(id: string): Promise<AgentSessionUpdate[]> } };
  }
}

/** One page with the chat, and what a user does in it. */
export class ChatDriver {
  readonly errors: string[] = [];

  private constructor(readonly page: Page) {
    page.on('pageerror', (e) => this.errors.push(String(e)));
  }

  /** Opens a new page of `context` (a browser's default one, or a fresh profile) at `url`. */
  static async open(context: Browser | BrowserContext, url: string): Promise<ChatDriver> {
    const page = await context.newPage();
    await page.evaluateOnNewDocument(HELPERS);
    await page.setViewport({ width: 1100, height: 900 });
    const driver = new ChatDriver(page);
    await page.goto(url);
    return driver;
  }

  /** Resolves once the chat holds a connected session and no turn runs. */
  async connected(what = 'the chat connected and idle'): Promise<void> {
    await waitFor(
      this.page,
      what,
      () => {
        const s = window.drive.chat()?.session?.snapshot;
        return s && s.state === 'connected' && !s.busy;
      },
      [],
      STEP_MS,
    );
  }

  /**
   * Resolves once a restore has settled: a session connected, read-only or failed, or the chat
   * showing why it has none (its banner). Read the outcome from {@link snapshot} and {@link banner}.
   */
  async settled(what: string): Promise<void> {
    const waiting = waitFor(
      this.page,
      what,
      () => {
        const chat = window.drive.chat();
        const s = chat?.session?.snapshot;
        if (s) return s.state !== 'connecting' && s.state !== 'reconnecting' && !s.busy;
        return chat?.shadowRoot?.querySelector('[part~="banner"]') !== null;
      },
      [],
      STEP_MS,
    );
    await waiting.catch(async (e: Error) => {
      const read = this.page
        .evaluate(() => {
          const chat = window.drive.chat() as unknown as {
            session?: { snapshot: AgentSessionSnapshot };
            phase?: string;
          };
          const s = chat?.session?.snapshot;
          const banner = window.drive.chat()?.shadowRoot?.querySelector('[part~="banner"]')?.textContent;
          const header = window.drive.chat()?.shadowRoot?.querySelector('[part~="state"]')?.textContent;
          return `session ${s ? `${s.state}${s.busy ? ' busy' : ''}` : 'none'}, header "${header?.trim()}", banner "${banner?.trim().replace(/\s+/g, ' ') ?? ''}"`;
        })
        .catch((err: Error) => `page unreadable: ${err.message}`);
      const hung = new Promise<string>((r) =>
        setTimeout(() => r('the page does not answer (its main thread is busy)'), 10_000),
      );
      throw new Error(`${e.message}: ${await Promise.race([read, hung])}`);
    });
  }

  /** Clicks the banner's button labelled `label` (e.g. "Try again"); resolves to whether one was there. */
  clickBanner(label: string): Promise<boolean> {
    return this.page.evaluate((l: string) => {
      const buttons =
        window.drive.chat()?.shadowRoot?.querySelectorAll<HTMLButtonElement>('[part~="banner"] button') ?? [];
      const button = Array.from(buttons).find((x) => x.textContent?.trim() === l);
      button?.click();
      return Boolean(button);
    }, label);
  }

  /** The text of the chat's banner, if one shows. */
  banner(): Promise<string | undefined> {
    return this.page.evaluate(
      () =>
        window.drive
          .chat()
          ?.shadowRoot?.querySelector('[part~="banner"]')
          ?.textContent?.trim()
          .replace(/\s+/g, ' ') || undefined,
    );
  }

  snapshot(): Promise<AgentSessionSnapshot | undefined> {
    return this.page.evaluate(() => window.drive.chat()?.session?.snapshot);
  }

  rows(): Promise<Row[]> {
    return this.page.evaluate(() => JSON.parse(JSON.stringify(window.drive.rows())) as Row[]);
  }

  /** The session's journal, read through the page's service. */
  journal(): Promise<AgentSessionUpdate[]> {
    return this.page.evaluate(async () => {
      const id = window.drive.chat()?.session?.sessionId;
      return id ? JSON.parse(JSON.stringify(await window.agentsPage.service.transcript(id))) : [];
    });
  }

  turnEnds(): Promise<number> {
    return this.page.evaluate(() => window.drive.rows().filter((r) => r.type === 'turn-end').length);
  }

  /** Types `text` into the composer (replacing what is there), as `input` events do. */
  async type(text: string): Promise<void> {
    await this.page.evaluate(async (t: string) => {
      const chat = window.drive.chat();
      const ta = chat.shadowRoot!.querySelector('textarea')!;
      ta.focus();
      ta.value = t;
      ta.dispatchEvent(new Event('input'));
      await chat.updateComplete;
    }, text);
  }

  /** Presses Enter in the composer. */
  async enter(): Promise<void> {
    await this.page.evaluate(() => {
      const ta = window.drive.chat().shadowRoot!.querySelector('textarea')!;
      ta.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    });
  }

  /** Sends `text` and resolves once its turn has started (a turn-end count to wait past). */
  async send(text: string): Promise<number> {
    const before = await this.turnEnds();
    await this.type(text);
    await this.enter();
    return before;
  }

  /** Waits until the turn after `before` turn ends has ended. */
  async turnEnded(before: number, what: string): Promise<void> {
    await waitFor(
      this.page,
      `the turn of "${what}" to end`,
      (n: number) => window.drive.rows().filter((r) => r.type === 'turn-end').length > n,
      [before],
      STEP_MS,
    );
  }

  /**
   * Waits for a permission prompt, or a running tool call, or the end of the turn after `before`;
   * allows a prompt (its first allow-once option, else allow-always). Resolves to whether it did.
   */
  async allowNext(before: number, what: string, orRunning = false): Promise<boolean> {
    await waitFor(
      this.page,
      `a permission prompt${orRunning ? ', a running tool call' : ''} or the end of "${what}"`,
      (n: number, running: boolean) =>
        window.drive.rows().filter((r) => r.type === 'turn-end').length > n ||
        window.drive.find(['[data-prompt][data-pending]']) !== null ||
        (running &&
          window.drive.rows().some((r) => r.type === 'tool' && r.toolCall?.status === 'in_progress')),
      [before, orRunning],
      STEP_MS,
    );
    const clicked = await this.page.evaluate(() => {
      const card = window.drive.find(['[data-prompt][data-pending]']);
      const button =
        card?.querySelector<HTMLButtonElement>('button[data-kind="allow_once"]:not([disabled])') ??
        card?.querySelector<HTMLButtonElement>('button[data-kind="allow_always"]:not([disabled])');
      button?.click();
      return Boolean(button);
    });
    if (!clicked) return false;
    await waitFor(
      this.page,
      'the answered permission prompt to close',
      () => window.drive.find(['[data-prompt][data-pending] button:not([disabled])']) === null,
      [],
      STEP_MS,
    );
    return true;
  }

  /** Until the turn after `before` ends, allows every permission; resolves to how many. */
  async allowUntilEnd(before: number, what: string): Promise<number> {
    let allowed = 0;
    while (await this.allowNext(before, what)) allowed++;
    return allowed;
  }

  /** Waits until a live permission prompt (or, with `question`, a live question) is open. */
  async openPrompt(kind: 'permission' | 'question'): Promise<void> {
    const selectors =
      kind === 'question' ? ['silo-elicitation', 'form [part~="answer"]'] : ['[data-prompt][data-pending]'];
    await waitFor(
      this.page,
      `a live ${kind} prompt`,
      (s: string[]) => window.drive.find(s) !== null,
      [selectors],
      STEP_MS,
    );
  }

  /** The visible text of the transcript's last tool card (its body included, open or not). */
  lastCardText(): Promise<string> {
    return this.page.evaluate(() => {
      const cards = window.drive.transcriptRoot()?.querySelectorAll('[part~="tool"]') ?? [];
      return cards.length ? (cards[cards.length - 1]!.textContent ?? '') : '';
    });
  }

  /**
   * The exit code the last tool card's terminal shows (`data-exit-code`) and the words it shows it
   * in, if it shows one.
   */
  lastCardExitCode(): Promise<{ code: string; text: string } | undefined> {
    return this.page.evaluate(() => {
      const cards = window.drive.transcriptRoot()?.querySelectorAll('[part~="tool"]') ?? [];
      const exit = cards[cards.length - 1]?.querySelector<HTMLElement>('[part~="terminal-exit"]');
      const code = exit?.dataset.exitCode;
      if (!exit || !code) return undefined;
      // Its words, without its buttons' (Copy).
      const words = exit.cloneNode(true) as HTMLElement;
      for (const b of Array.from(words.querySelectorAll('button'))) b.remove();
      return { code, text: (words.textContent ?? '').replace(/\s+/g, ' ').trim() };
    });
  }

  /**
   * Every tool card drawing a subagent (`[part~="subagent"]`): the card's title, the text of the
   * subagent's rows (folded or not) and the text of each tool card among them.
   */
  subagentCards(): Promise<{ title: string; rows: string; tools: string[]; answer: string }[]> {
    return this.page.evaluate(() =>
      Array.from(window.drive.transcriptRoot()?.querySelectorAll('[part~="subagent"]') ?? []).map((sub) => {
        const rows = sub.querySelector('[part~="subagent-rows"]');
        return {
          title: sub.querySelector('[part~="subagent-summary"]')?.textContent?.trim() ?? '',
          rows: rows?.textContent ?? '',
          tools: Array.from(rows?.querySelectorAll('[part~="tool"]') ?? []).map((t) => t.textContent ?? ''),
          answer: sub.querySelector('[part~="subagent-answer"]')?.textContent ?? '',
        };
      }),
    );
  }

  /** Clicks "Branch from here" on the transcript's last turn end; resolves to whether there was one. */
  branchLast(): Promise<boolean> {
    return this.page.evaluate(() => {
      const buttons = Array.from(
        window.drive.transcriptRoot()?.querySelectorAll<HTMLButtonElement>('[part~="branch"]') ?? [],
      ).filter((b) => !b.closest('[part~="subagent"]'));
      buttons.at(-1)?.click();
      return buttons.length > 0;
    });
  }

  /** Waits until the chat holds a session other than `sessionId`, connected and idle. */
  async switchedFrom(sessionId: string, what: string): Promise<void> {
    await waitFor(
      this.page,
      what,
      (id: string) => {
        const s = window.drive.chat()?.session?.snapshot;
        return s && s.sessionId !== id && s.state !== 'connecting' && !s.busy;
      },
      [sessionId],
      STEP_MS,
    );
  }

  /** Clicks Stop (the running turn is cancelled). */
  async stop(): Promise<void> {
    await this.page.evaluate(() =>
      window.drive.chat().shadowRoot!.querySelector<HTMLButtonElement>('[part~="stop"]')?.click(),
    );
  }

  /** Waits for a live question, picks its first option of each choice and answers it. */
  async answerQuestion(): Promise<void> {
    await waitFor(
      this.page,
      'a live question (<silo-elicitation>) with its answer button',
      () => window.drive.find(['silo-elicitation', 'form [part~="answer"]']) !== null,
      [],
      STEP_MS,
    );
    await this.page.evaluate(async () => {
      const form = window.drive.find(['silo-elicitation', 'form']);
      for (const field of Array.from(form?.querySelectorAll('[data-question]') ?? [])) {
        const radio = field.querySelector<HTMLInputElement>('input[type="radio"]');
        const box = field.querySelector<HTMLInputElement>('input[type="checkbox"]');
        const text = field.querySelector<HTMLInputElement>('input[type="text"], textarea');
        if (radio) radio.click();
        else if (box) box.click();
        else if (text?.required) {
          text.value = 'Blue';
          text.dispatchEvent(new Event('input', { bubbles: true }));
        }
      }
      await new Promise((r) => requestAnimationFrame(r));
      window.drive.find(['silo-elicitation', 'form [part~="answer"]'])?.click();
    });
  }

  /**
   * Opens the `/` menu with `prefix`; resolves to the command names it lists (none: the menu did not
   * open within a few frames after the agent's commands arrived).
   */
  async commandMenu(prefix: string): Promise<string[]> {
    await this.type(`/${prefix}`);
    return this.page.evaluate(() =>
      Array.from(window.drive.chat().shadowRoot!.querySelectorAll('[part~="command"] .name')).map((n) =>
        (n.textContent ?? '').replace(/^\//, ''),
      ),
    );
  }

  /** Picks command `name` from the open `/` menu (its mousedown), then sends. */
  async pickAndSend(name: string): Promise<number> {
    const before = await this.turnEnds();
    await this.page.evaluate((n: string) => {
      const option = Array.from(window.drive.chat().shadowRoot!.querySelectorAll('[part~="command"]')).find(
        (o) => o.querySelector('.name')?.textContent === `/${n}`,
      );
      option?.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, cancelable: true }));
    }, name);
    await this.page.evaluate(() => window.drive.chat().updateComplete);
    await this.enter();
    return before;
  }

  /** Waits for a message row containing `text` (of `role`, when given). */
  async message(text: string, role?: 'user' | 'agent' | 'thought', timeout = STEP_MS): Promise<void> {
    await waitFor(
      this.page,
      `a ${role ?? ''} message containing "${text}"`,
      (t: string, r: string | null) =>
        window.drive
          .rows()
          .some((row) => row.type === 'message' && (!r || row.role === r) && row.text?.includes(t)),
      [text, role ?? null],
      timeout,
    );
  }

  /** When the test reloaded this page, each time (`Date.now()`, as the wire log's times). */
  readonly reloads: number[] = [];

  /** Reloads the page (the chat then restores its session). */
  async reload(): Promise<void> {
    this.reloads.push(Date.now());
    await this.page.reload();
  }

  close(): Promise<void> {
    return this.page.close();
  }
}
