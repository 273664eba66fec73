// The demo end to end, as a visitor uses it: `npm start`'s pieces (the built demo + silo-bridge with the
// reference agent, from scripts/start.mjs) and Debian's Chromium driven by puppeteer-core. Sends a
// prompt, plays scenarios from the picker, approves a permission, answers a question, reloads and sees
// the conversation restored (outcome "resumed"), opens embed.html, then stops the bridge and opens the
// history and every journaled transcript offline, imports and clears, and renders an export in the
// offline viewer. Screenshots: screenshots/demo.png, embed.png, demo-offline.png, offline.png.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { chromiumArgs, ensureBrowsers } from '../../scripts/browsers.mjs';
import { type Demo, startDemo } from '../../scripts/start.mjs';
import { waitFor } from '../support/page-wait.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const SHOTS = join(ROOT, 'screenshots');
const PROMPT = 'Hello from the e2e test';

interface Row {
  type: string;
  role?: string;
  text?: string;
}

/** What the test reads of a `<silo-chat>` (the node typecheck does not see the components' types). */
interface Chat extends HTMLElement {
  readonly session: { readonly sessionId: string; readonly snapshot: { readonly busy: boolean } } | undefined;
  readonly updateComplete: Promise<boolean>;
  exportJsonl(): Promise<string | undefined>;
}

interface Viewer extends HTMLElement {
  readonly sessionId: string | undefined;
  readonly model: { readonly rows: Row[] };
}

declare global {
  interface Window {
    /** Installed in every page by {@link installHelpers}. */
    e2e: { chat(): Chat; rows(): Row[] };
  }
}

/**
 * Page-side helpers: the demo's (or embed.html's) `<silo-chat>` and the rows of its transcript. A
 * string, because tsx's transform decorates named functions with a helper the page does not have.
 */
const HELPERS = `
  window.e2e = {
    chat: () => document.querySelector('silo-chat'),
    rows: () => {
      const t = document.querySelector('silo-chat')?.shadowRoot?.querySelector('silo-transcript');
      return t ? t.model.rows : [];
    },
  };
`;

function installHelpers(page: Page): Promise<unknown> {
  return page.evaluateOnNewDocument(HELPERS);
}

function chatHasMessage(page: Page, text: string, role?: 'user' | 'agent'): Promise<void> {
  return waitFor(
    page,
    `a ${role ?? ''} message containing "${text}" in the chat`,
    (t: string, r: string | null) =>
      window.e2e
        .rows()
        .some((row) => row.type === 'message' && (!r || row.role === r) && row.text?.includes(t)),
    [text, role ?? null],
  );
}

function turnEnds(page: Page): Promise<number> {
  return page.evaluate(() => window.e2e.rows().filter((r) => r.type === 'turn-end').length);
}

/** Waits until the chat is connected and idle (the scenario chips are enabled). */
async function ready(page: Page): Promise<void> {
  await waitFor(
    page,
    'the chat connected and idle (scenario chips enabled)',
    () => {
      const chat = window.e2e.chat();
      const state = chat?.shadowRoot?.querySelector('[part="state"]')?.getAttribute('data-state');
      const chip = document.querySelector<HTMLButtonElement>('[data-scenario]');
      return state === 'connected' && chip && !chip.disabled && chat?.session?.snapshot.busy === false;
    },
    [],
    30_000,
  );
}

async function sendPrompt(page: Page, text: string): Promise<void> {
  const before = await turnEnds(page);
  await page.evaluate(async (t: string) => {
    const chat = window.e2e.chat();
    const ta = chat.shadowRoot!.querySelector('textarea')!;
    ta.value = t;
    ta.dispatchEvent(new Event('input'));
    await chat.updateComplete;
    ta.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
  }, text);
  await waitForTurnEnd(page, before, text);
}

async function waitForTurnEnd(page: Page, before: number, what: string): Promise<void> {
  await waitFor(
    page,
    `the turn of "${what}" to end`,
    (n: number) => window.e2e.rows().filter((r) => r.type === 'turn-end').length > n,
    [before],
  );
}

/** Clicks a scenario chip of the picker. */
async function pickScenario(page: Page, name: string): Promise<number> {
  await ready(page);
  const before = await turnEnds(page);
  // The picker is a disclosure in the sidebar (closed at first in a short window).
  await page.evaluate(() => {
    const picker = document.querySelector<HTMLDetailsElement>('details#scenarios');
    if (picker) picker.open = true;
  });
  await page.click(`[data-scenario="${name}"]`);
  return before;
}

/**
 * Clicks, in one step inside the page, the first enabled element matching `selectors` walked through
 * shadow roots from the chat's transcript (`['silo-elicitation', 'form button']` = a button in the
 * element's shadow root). In one step, because streaming re-renders may replace nodes between a find
 * and a click.
 */
async function clickInTranscript(page: Page, selectors: string[], what: string): Promise<void> {
  await waitFor(
    page,
    what,
    (sels: string[]) => {
      let root: ParentNode | null | undefined = document
        .querySelector('silo-chat')
        ?.shadowRoot?.querySelector('silo-transcript')?.shadowRoot;
      let el: HTMLElement | null = null;
      for (const sel of sels) {
        el = root?.querySelector<HTMLElement>(sel) ?? null;
        root = el?.shadowRoot;
      }
      if (!el || (el as HTMLButtonElement).disabled) return false;
      el.click();
      return true;
    },
    [selectors],
  );
}

/** Two animation frames, so the virtualizer and styles settle before a screenshot. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

test('the demo: live chat, scenarios, restore on reload, embed, offline history and viewer', {
  timeout: 150_000,
}, async (t) => {
  const { chromium } = ensureBrowsers(['chromium']);
  const sessionsDir = mkdtempSync(join(tmpdir(), 'silo-demo-e2e-'));
  const exportFile = join(sessionsDir, 'export.jsonl');
  mkdirSync(SHOTS, { recursive: true });
  let demo: Demo | undefined;
  let browser: Browser | undefined;
  const pageErrors: string[] = [];
  try {
    demo = await startDemo({ port: 0, sessionsDir, log: () => {} });
    browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: chromiumArgs });
    const page = await browser.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    page.on('dialog', (d) => void d.accept());
    await installHelpers(page);
    await page.setViewport({ width: 1280, height: 860, deviceScaleFactor: 1 });
    const url = demo.url;

    await t.test('the page gets the bridge config without copying and connects', async () => {
      await page.goto(url);
      await waitFor(
        page,
        'the bridge status "online"',
        () => document.querySelector('[data-bridge="online"]'),
        [],
      );
      await ready(page);
      const outcome = await page.$eval('#outcome', (e) => e.getAttribute('data-outcome'));
      assert.equal(outcome, 'new');
      // The config is served to the demo's own origin only.
      const refused = await fetch(new URL('/.silo-bridge.json', url), {
        headers: { origin: 'https://evil.example' },
      });
      assert.equal(refused.status, 403);
    });

    await t.test('sends a prompt, plays the tour, approves a permission, answers a question', async () => {
      await sendPrompt(page, PROMPT);
      await chatHasMessage(page, PROMPT, 'user');
      await chatHasMessage(page, PROMPT, 'agent');

      let before = await pickScenario(page, 'demo');
      await waitForTurnEnd(page, before, '/scenario demo');

      before = await pickScenario(page, 'permission');
      await clickInTranscript(
        page,
        ['[data-prompt][data-pending] button[data-kind="allow_once"]'],
        'a live permission prompt offering "allow once"',
      );
      await waitForTurnEnd(page, before, '/scenario permission');
      await chatHasMessage(page, 'Permission: allow-once', 'agent');

      before = await pickScenario(page, 'elicit-form');
      // "I agree to the terms" is required: a box that must be ticked.
      await clickInTranscript(
        page,
        ['silo-elicitation', '[data-question="agree"] input[type="checkbox"]'],
        'the required checkbox of the live question',
      );
      await clickInTranscript(
        page,
        ['silo-elicitation', 'form [part~="answer"]'],
        'a live question (<silo-elicitation>) with its answer button',
      );
      await waitForTurnEnd(page, before, '/scenario elicit-form');
      await chatHasMessage(page, 'You answered:', 'agent');

      await waitFor(
        page,
        'the history list to show the session with the title the chat shows',
        (id: string) => {
          const title = window.e2e.chat().shadowRoot?.querySelector('[part="title"]')?.textContent?.trim();
          const item = document.querySelector(`#history [data-session-id="${id}"]`);
          return (
            title &&
            item?.querySelector('.title')?.textContent?.trim() === title &&
            item.textContent?.includes('reference agent')
          );
        },
        [await page.evaluate(() => window.e2e.chat().session!.sessionId)],
      );
    });

    let sessionId = '';
    await t.test('a reload restores the conversation and shows the outcome', async () => {
      sessionId = await page.evaluate(() => window.e2e.chat().session!.sessionId);
      await page.reload();
      await waitFor(
        page,
        'a restore outcome',
        () => document.querySelector('#outcome')?.getAttribute('data-outcome'),
        [],
      );
      assert.equal(await page.$eval('#outcome', (e) => e.getAttribute('data-outcome')), 'resumed');
      assert.equal(await page.evaluate(() => window.e2e.chat().session!.sessionId), sessionId);
      await chatHasMessage(page, PROMPT, 'user');
      await chatHasMessage(page, 'Permission: allow-once', 'agent');
      await chatHasMessage(page, 'You answered:', 'agent');
      await ready(page);
      // The restored session still talks to the agent.
      await sendPrompt(page, 'Still there after the reload?');
      await chatHasMessage(page, 'Still there after the reload?', 'agent');
      await settle(page);
      await page.screenshot({ path: join(SHOTS, 'demo.png') });
      writeFileSync(
        exportFile,
        await page.evaluate(() =>
          window.e2e
            .chat()
            .exportJsonl()
            .then((s) => s ?? ''),
        ),
      );
    });

    await t.test(
      'at 360×740 the chat fits the screen and its transcript keeps ≥ 75 % of its height',
      async (st) => {
        await page.setViewport({ width: 360, height: 740, deviceScaleFactor: 1 });
        try {
          const m = await page.evaluate(() => {
            const chat = document.querySelector('silo-chat')!;
            const root = chat.shadowRoot!;
            const box = chat.getBoundingClientRect();
            const send = root.querySelector('[part="send"]')!.getBoundingClientRect();
            const transcript = root.querySelector('silo-transcript')!.getBoundingClientRect();
            const parts = Array.from(root.querySelectorAll<HTMLElement>('[part]'))
              .filter((e) => e.parentNode === root || e.parentElement?.parentNode === root)
              .map((e) => `${e.getAttribute('part')}:${Math.round(e.getBoundingClientRect().height)}`)
              .concat(
                Array.from(root.querySelector('.composer')?.children ?? []).map(
                  (e) =>
                    `composer>${e.tagName}.${e.className}:${Math.round(e.getBoundingClientRect().height)}`,
                ),
              );
            return {
              share: transcript.height / box.height,
              chatHeight: box.height,
              sendRight: send.right,
              pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
              parts,
            };
          });
          assert.ok(m.sendRight <= 360, `Send on screen (right edge ${m.sendRight})`);
          assert.equal(m.pageOverflow, 0, 'no horizontal overflow');
          assert.ok(m.chatHeight <= 740, `the chat fits the screen (${m.chatHeight} px)`);
          st.diagnostic(`transcript share of the chat's height at 360×740: ${m.share.toFixed(2)}`);
          assert.ok(m.share >= 0.75, `transcript share ${m.share.toFixed(2)} (${m.parts.join(', ')})`);
        } finally {
          await page.setViewport({ width: 1280, height: 860, deviceScaleFactor: 1 });
        }
      },
    );

    await t.test('embed.html: a plain page with the package bundle and one <silo-chat>', async () => {
      // The demo's "Minimal embed" opens it in a new tab, on a launch key of its own.
      const next = browser!.waitForTarget((target) =>
        target.url().startsWith(new URL('/embed.html', url).href),
      );
      await page.locator('#open-embed').click(); // once it holds still: the history may still lay out
      const embed = (await (await next).page())!;
      embed.on('pageerror', (e) => pageErrors.push(String(e)));
      await embed.setViewport({ width: 1280, height: 860, deviceScaleFactor: 1 });
      await embed.waitForFunction(() => document.readyState === 'complete');
      await embed.evaluate(HELPERS);
      const plain = await embed.evaluate(() => ({
        scripts: Array.from(document.scripts).map((s) => s.src || 'inline'),
        chats: document.querySelectorAll('silo-chat').length,
      }));
      assert.deepEqual(
        plain,
        { scripts: [new URL('/embed.js', url).href], chats: 1 },
        'one module script (a file: the CSP allows no inline script), one element, no Vite client',
      );
      // It restores the session the demo's tab drives, and follows it.
      await waitFor(
        embed,
        'the embedded chat in',
        () =>
          ['connected', 'following'].includes(
            document
              .querySelector('silo-chat')
              ?.shadowRoot?.querySelector('[part="state"]')
              ?.getAttribute('data-state') ?? '',
          ),
        [],
        30_000,
      );
      await chatHasMessage(embed, PROMPT, 'user');
      await settle(embed);
      await embed.screenshot({ path: join(SHOTS, 'embed.png') });
      await embed.close();
    });

    await t.test('with the bridge stopped, the history and every journaled transcript open', async () => {
      await demo!.stopBridge();
      await page.goto(url);
      await waitFor(
        page,
        'the bridge status "offline"',
        () => document.querySelector('[data-bridge="offline"]'),
        [],
      );
      // The export of the session in the history adds no second entry.
      const input = (await page.$('#import')) as ElementHandle<HTMLInputElement>;
      await input.uploadFile(exportFile);
      await waitFor(
        page,
        'the import said to be in the history already',
        () => document.querySelector('.message')?.textContent?.includes('is in the history already'),
        [],
      );
      assert.equal(await page.$$eval('#history [data-session-id]', (els) => els.length), 1);
      // An export with one more update is another session: the history holds two journals.
      const grown = join(sessionsDir, 'grown.jsonl');
      writeFileSync(
        grown,
        `${readFileSync(exportFile, 'utf8')}${JSON.stringify({ kind: 'agent_message_chunk', text: 'A copy', raw: {} })}\n`,
      );
      await input.uploadFile(grown);
      await waitFor(
        page,
        'the imported session in the history',
        () => document.querySelectorAll('#history [data-session-id]').length === 2,
        [],
      );
      // Rename it from the history, and find it by that title and by its text (the service searches).
      const copyId = await page.$eval('silo-transcript#viewer', (v) => (v as Viewer).sessionId!);
      await page.click(`#history [data-rename="${copyId}"]`);
      await page.waitForSelector('#history input.rename');
      await page.keyboard.down('Control');
      await page.keyboard.press('a');
      await page.keyboard.up('Control');
      await page.keyboard.type('The imported copy');
      await page.keyboard.press('Enter');
      await waitFor(
        page,
        'the copy renamed in the history',
        (c: string) =>
          document.querySelector(`#history [data-session-id="${c}"] .title`)?.textContent ===
          'The imported copy',
        [copyId],
      );
      await page.type('#history-search', 'imported copy');
      await waitFor(
        page,
        'the search to find the renamed copy only',
        (c: string) => {
          const found = Array.from(document.querySelectorAll('#history [data-session-id]'));
          return found.length === 1 && found[0]!.getAttribute('data-session-id') === c;
        },
        [copyId],
      );
      await page.$eval('#history-search', (i) => {
        (i as HTMLInputElement).value = '';
        i.dispatchEvent(new Event('input'));
      });
      await waitFor(
        page,
        'both sessions listed again',
        () => document.querySelectorAll('#history [data-session-id]').length === 2,
        [],
      );
      const ids = await page.$$eval('#history [data-session-id]', (els) =>
        els.map((e) => e.getAttribute('data-session-id')!),
      );
      assert.ok(ids.includes(sessionId), 'the live session is in the history');
      assert.equal(
        await page.$eval('silo-chat', (e) => (e as HTMLElement).hidden),
        true,
        'no live chat without a bridge',
      );
      for (const id of ids) {
        await page.click(`#history [data-session-id="${id}"]`);
        await waitFor(
          page,
          `the transcript of ${id} opened offline`,
          (sid: string, text: string) => {
            const v = document.querySelector<Viewer>('silo-transcript#viewer');
            return (
              !v?.hidden &&
              v?.sessionId === sid &&
              v.model.rows.some((r) => r.type === 'message' && r.text?.includes(text))
            );
          },
          [id, PROMPT],
        );
        // Restore needs the bridge; export and clear work offline.
        assert.equal(await page.$eval('#restore', (b) => (b as HTMLButtonElement).disabled), true);
      }
      await page.click(`#history [data-session-id="${sessionId}"]`);
      await settle(page);
      await page.screenshot({ path: join(SHOTS, 'demo-offline.png') });
      // Clear the imported copy: only that journal goes.
      const copy = ids.find((id) => id !== sessionId)!;
      await page.click(`#history [data-session-id="${copy}"]`);
      await page.click('#clear');
      await waitFor(
        page,
        'the cleared session gone from the history',
        (c: string) =>
          !document.querySelector(`#history [data-session-id="${c}"]`) &&
          document.querySelector('#history [data-session-id]'),
        [copy],
      );
    });

    await t.test('offline.html renders an exported transcript from a file', async () => {
      await page.goto(new URL('/offline.html', url).href);
      const input = (await page.$('#file')) as ElementHandle<HTMLInputElement>;
      await input.uploadFile(exportFile);
      await waitFor(
        page,
        'the exported transcript rendered offline',
        (text: string) =>
          document
            .querySelector<Viewer>('silo-transcript')
            ?.model.rows.some((r) => r.type === 'message' && r.text?.includes(text)),
        [PROMPT],
      );
      await settle(page);
      await page.screenshot({ path: join(SHOTS, 'offline.png') });
    });

    assert.deepEqual(pageErrors, [], 'no uncaught errors in the pages');
  } finally {
    await browser?.close();
    await demo?.stop();
    rmSync(sessionsDir, { recursive: true, force: true });
  }
});
