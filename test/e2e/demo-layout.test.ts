// The demo at every window size and in a second tab, end to end: `npm start`'s pieces (the built demo
// and silo-bridge with the reference agent) and Debian's Chromium driven by puppeteer-core.
// - At 360×640, 390×844, 780×493, 1000×650 and 1280×800, light and dark, in the tab that drives the
//   session and in a second tab (opened with the sidebar's New tab) that follows it, the geometry holds
//   (scripts/layout-check.mjs): the transcript gets at least half the window, the chat starts at the
//   top (on a phone the history is a drawer), the composer's text box keeps its width, Send is on
//   screen, and nothing interactive overlaps or is cut off. Screenshots: screenshots/demo-*.png.
// - The second tab says calmly that it follows; a permission asked in the first is answered from the
//   second; the second takes over, and the first then follows with the same notice; Enter in the
//   first offers "Take over and send", which sends the kept text; a reload of the driving tab leaves
//   the other following it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { chromiumArgs, ensureBrowsers } from '../../scripts/browsers.mjs';
import { shootDemo } from '../../scripts/demo-shots.mjs';
import { type Demo, startDemo } from '../../scripts/start.mjs';
import { waitFor } from '../support/page-wait.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const SHOTS = join(ROOT, 'screenshots');

/** What a tab's chat shows: its state, its banner (text, role), its note and the users' messages. */
function chatView(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('silo-chat')!.shadowRoot!;
    const banner = root.querySelector('[part~="banner"]');
    const transcript = root.querySelector('silo-transcript') as unknown as {
      model: { rows: { type: string; role?: string; text?: string }[] };
    };
    return {
      state: root.querySelector('[part="state"]')?.getAttribute('data-state'),
      stateText: root.querySelector('[part="state"]')?.textContent?.trim(),
      banner: banner?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
      bannerRole: banner?.getAttribute('role'),
      alerts: root.querySelectorAll('[role="alert"]').length,
      note: root.querySelector('[part="note"]')?.textContent?.replace(/\s+/g, ' ').trim(),
      users: transcript.model.rows
        .filter((r) => r.type === 'message' && r.role === 'user')
        .map((r) => r.text),
      turnEnds: transcript.model.rows.filter((r) => r.type === 'turn-end').length,
    };
  });
}

/** Waits until the tab's chat shows the calm following notice (and no error). */
async function following(page: Page, what: string): Promise<void> {
  // A tab in the background gets no animation frames (its transcript does not render, and waitFor
  // polls on frames): the tab looked at comes to the front, as a user's would.
  await page.bringToFront();
  await waitFor(page, `${what} to follow`, () =>
    document
      .querySelector('silo-chat')
      ?.shadowRoot?.querySelector('[part~="banner"]')
      ?.textContent?.includes('Open in another tab — following live'),
  );
  const v = await chatView(page);
  assert.equal(v.state, 'following');
  assert.equal(v.stateText, 'Following');
  assert.equal(v.bannerRole, 'status', 'a notice, not an alert');
  assert.equal(v.alerts, 0, 'no error');
  assert.ok(!v.banner.includes('lost') && !v.banner.includes('Reconnecting'), v.banner);
}

/** Clicks an element of the chat's shadow root (`selector`) once it is there. */
async function clickInChat(page: Page, selector: string): Promise<void> {
  await page.bringToFront();
  await waitFor(
    page,
    `${selector} in the chat`,
    (sel: string) => {
      const el = document.querySelector('silo-chat')?.shadowRoot?.querySelector<HTMLElement>(sel);
      el?.click();
      return el;
    },
    [selector],
  );
}

test('the demo at five window sizes, light and dark, and in a second tab that follows it', {
  timeout: 400_000,
}, async (t) => {
  const { chromium } = ensureBrowsers(['chromium']);
  mkdirSync(SHOTS, { recursive: true });
  let demo: Demo | undefined;
  let browser: Browser | undefined;
  const pageErrors: string[] = [];
  try {
    demo = await startDemo({
      port: 0,
      sessionsDir: mkdtempSync(join(tmpdir(), 'silo-demo-layout-')),
      log: () => {},
      bridgeLog: () => {},
    });
    browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: chromiumArgs });
    browser.on(
      'targetcreated',
      (target) => void target.page().then((p) => p?.on('pageerror', (e) => pageErrors.push(String(e)))),
    );
    const { shots, driver, follower } = await shootDemo({ browser, demo, dir: SHOTS });
    assert.equal(shots.length, 20);
    for (const shot of shots)
      await t.test(`${shot.tab} at ${shot.size}, ${shot.scheme}: the geometry holds`, () => {
        assert.deepEqual(shot.problems, [], `${shot.file}:\n${shot.problems.join('\n')}`);
      });

    await t.test('the second tab says calmly that it follows', async () => {
      await following(follower, 'the second tab');
      const v = await chatView(follower);
      assert.deepEqual(v.users, (await chatView(driver)).users, 'it shows the same conversation');
    });

    await t.test('the permission waiting in the first tab is answered from the second', async () => {
      await follower.bringToFront();
      const before = (await chatView(driver)).turnEnds;
      await waitFor(follower, 'Allow once in the second tab', () => {
        const button = document
          .querySelector('silo-chat')
          ?.shadowRoot?.querySelector('silo-transcript')
          ?.shadowRoot?.querySelector<HTMLButtonElement>('[data-pending] button[data-kind="allow_once"]');
        button?.click();
        return button;
      });
      for (const page of [driver, follower]) {
        await page.bringToFront();
        await waitFor(
          page,
          'the turn to end in both tabs, with no prompt left',
          (n: number) => {
            const transcript = document
              .querySelector('silo-chat')!
              .shadowRoot!.querySelector('silo-transcript')!;
            const rows = (transcript as unknown as { model: { rows: { type: string }[] } }).model.rows;
            return (
              rows.filter((r) => r.type === 'turn-end').length > n &&
              !transcript.shadowRoot!.querySelector('[data-pending]')
            );
          },
          [before],
        );
      }
    });

    await t.test('the second tab takes over; the first then follows with the same notice', async () => {
      await clickInChat(follower, '[part~="take-over"]');
      await waitFor(follower, 'the second tab to drive', () =>
        ['connected'].includes(
          document
            .querySelector('silo-chat')
            ?.shadowRoot?.querySelector('[part="state"]')
            ?.getAttribute('data-state') ?? '',
        ),
      );
      await following(driver, 'the first tab');
    });

    await t.test('Enter in the first tab offers Take over and send; the kept text is sent', async () => {
      await driver.bringToFront();
      const before = (await chatView(driver)).turnEnds;
      await driver.evaluate(() => {
        const ta = document.querySelector('silo-chat')!.shadowRoot!.querySelector('textarea')!;
        ta.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
      });
      await waitFor(driver, 'the note', () =>
        document.querySelector('silo-chat')?.shadowRoot?.querySelector('[part="remedy"]'),
      );
      const v = await chatView(driver);
      assert.match(v.note ?? '', /another tab is driving this conversation/);
      await clickInChat(driver, '[part="remedy"]');
      await waitFor(
        driver,
        'the kept text sent from the first tab',
        (n: number) => {
          const rows = (
            document.querySelector('silo-chat')!.shadowRoot!.querySelector('silo-transcript') as unknown as {
              model: { rows: { type: string; text?: string }[] };
            }
          ).model.rows;
          return (
            rows.filter((r) => r.type === 'turn-end').length > n &&
            rows.some((r) => r.text === 'Looks good — next, add a test for greet()')
          );
        },
        [before],
      );
      await following(follower, 'the second tab');
      await waitFor(
        follower,
        'the second tab to mirror it',
        (n: number) =>
          (
            document.querySelector('silo-chat')!.shadowRoot!.querySelector('silo-transcript') as unknown as {
              model: { rows: { type: string }[] };
            }
          ).model.rows.filter((r) => r.type === 'turn-end').length > n,
        [before],
      );
    });

    await t.test('the first tab reloads: the second keeps following it', async () => {
      await driver.bringToFront();
      await driver.reload();
      await waitFor(driver, 'the reloaded tab to drive', () =>
        ['connected'].includes(
          document
            .querySelector('silo-chat')
            ?.shadowRoot?.querySelector('[part="state"]')
            ?.getAttribute('data-state') ?? '',
        ),
      );
      await following(follower, 'the second tab');
    });
    assert.deepEqual(pageErrors, []);
  } finally {
    await browser?.close();
    await demo?.stop();
  }
});
