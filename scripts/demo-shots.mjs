// The demo at every window size, light and dark, in the tab that drives the session and in a second
// tab that follows it: a conversation mid-way (a tour played, a permission waiting, a draft typed),
// then for each size a screenshot and its geometry (scripts/layout-check.mjs). Used by
// test/e2e/demo-layout.test.ts (which asserts the geometry) and scripts/screenshot.mjs.
import { join } from 'node:path';
import { layoutProblems, measureLayout } from './layout-check.mjs';

/** The window sizes every layout must hold at: phones, a small laptop window, laptops. */
export const SIZES = [
  [360, 640],
  [390, 844],
  [780, 493],
  [1000, 650],
  [1280, 800],
];

/** Resolves once `fn` (run in the page with `args`) returns a truthy value. */
async function waitIn(page, what, fn, ...args) {
  try {
    await page.waitForFunction(fn, { timeout: 60_000, polling: 'raf' }, ...args);
  } catch (e) {
    const seen = await page
      .evaluate(() => `${location.href} ${document.body?.textContent?.slice(0, 300).replace(/\s+/g, ' ')}`)
      .catch(() => '');
    throw new Error(`Timed out waiting for ${what}: ${e.message} (the page: ${seen})`);
  }
}

/** The demo's chat shows `states` (one of them). */
function chatShows(page, states) {
  return waitIn(
    page,
    `the chat to be ${states.join(' or ')}`,
    (s) =>
      s.includes(
        document.querySelector('silo-chat')?.shadowRoot?.querySelector('[part="state"]')?.dataset.state,
      ),
    states,
  );
}

/** Sends `text` from the demo's composer. */
function send(page, text) {
  return page.evaluate(async (t) => {
    const c = document.querySelector('silo-chat');
    const ta = c.shadowRoot.querySelector('textarea');
    ta.value = t;
    ta.dispatchEvent(new Event('input'));
    await c.updateComplete;
    ta.dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true, composed: true }),
    );
  }, text);
}

const turnEnds = (n) =>
  `document.querySelector('silo-chat').shadowRoot.querySelector('silo-transcript').model.rows.filter((r) => r.type === 'turn-end').length >= ${n}`;

/** Two animation frames: styles, the virtualizer and the layout settle after a resize. */
const settle = (page) =>
  page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/**
 * Opens the demo (`demo`: what startDemo resolves to) in `browser`, brings a conversation mid-way,
 * opens a second tab that follows it, and for each of {@link SIZES} × light, dark × both tabs takes a
 * screenshot into `dir` (`demo-<w>x<h>-<scheme>.png`, `demo-follower-…`) and measures it. Also shoots
 * the phone's history drawer open (`demo-390x844-drawer.png`, not measured: it covers the chat).
 * Resolves to `{ shots, driver, follower }`: one entry per measured screenshot (`{ file, tab, size,
 * scheme, problems }`) and the two tabs, left open at 1280×800 in the light scheme for the caller to
 * go on with (and close).
 */
export async function shootDemo({ browser, demo, dir }) {
  const driver = await browser.newPage();
  await driver.setViewport({ width: 1280, height: 800, deviceScaleFactor: 1 });
  await driver.goto(demo.url);
  await chatShows(driver, ['connected']);
  await send(driver, '/scenario demo');
  await waitIn(driver, 'the tour to end', turnEnds(1));
  // Mid-conversation: a permission waiting for an answer, a draft in the composer.
  await send(driver, '/scenario permission notes.md');
  await waitIn(driver, 'the permission prompt', () =>
    document
      .querySelector('silo-chat')
      .shadowRoot.querySelector('silo-transcript')
      .shadowRoot.querySelector('[data-prompt][data-pending]'),
  );
  await driver.evaluate(async () => {
    const c = document.querySelector('silo-chat');
    const ta = c.shadowRoot.querySelector('textarea');
    ta.value = 'Looks good — next, add a test for greet()';
    ta.dispatchEvent(new Event('input'));
    await c.updateComplete;
  });
  // The second tab, as a visitor opens it: the sidebar's New tab (a launch key of its own).
  const origin = new URL(demo.url).origin;
  const opened = browser.waitForTarget(
    (t) => t.type() === 'page' && t !== driver.target() && t.url().startsWith(origin),
  );
  await driver.click('#new-tab');
  const follower = await (await opened).page();
  await follower.setViewport({ width: 1280, height: 800, deviceScaleFactor: 1 });
  await chatShows(follower, ['following']);
  await waitIn(follower, 'the follower to show the permission', () =>
    document
      .querySelector('silo-chat')
      .shadowRoot.querySelector('silo-transcript')
      .shadowRoot.querySelector('[data-prompt][data-pending]'),
  );

  const results = [];
  const schemes = ['light', 'dark'];
  for (const [tab, page] of [
    ['driver', driver],
    ['follower', follower],
  ]) {
    await page.bringToFront();
    for (const scheme of schemes) {
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
      for (const [width, height] of SIZES) {
        await page.setViewport({ width, height, deviceScaleFactor: 1 });
        await settle(page);
        // The layout follows the window (demo/drawer.ts's media query), a frame after the resize.
        await waitIn(
          page,
          'the layout for the width',
          (phone) => (document.querySelector('.drawer-toggle') !== null) === phone,
          width <= 760,
        );
        const file = join(dir, `demo-${tab === 'driver' ? '' : 'follower-'}${width}x${height}-${scheme}.png`);
        await page.screenshot({ path: file });
        const problems = layoutProblems(await page.evaluate(measureLayout));
        results.push({ file, tab, size: `${width}×${height}`, scheme, problems });
      }
    }
  }
  // The phone's history drawer, open.
  await driver.bringToFront();
  await driver.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  await driver.setViewport({ width: 390, height: 844, deviceScaleFactor: 1 });
  await (await driver.waitForSelector('.drawer-toggle')).click();
  await waitIn(
    driver,
    'the drawer to open',
    () =>
      document.body.classList.contains('drawer-open') &&
      getComputedStyle(document.getElementById('sidebar')).transform === 'none',
  );
  await driver.screenshot({ path: join(dir, 'demo-390x844-drawer.png') });
  await driver.keyboard.press('Escape');
  for (const page of [follower, driver]) {
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    await page.setViewport({ width: 1280, height: 800, deviceScaleFactor: 1 });
  }
  return { shots: results, driver, follower };
}
