// The IndexedDB quota fault, end to end, in Debian's Chromium and Firefox ESR (puppeteer-core) with a
// real, persistent profile, the real bridge and reference agent (scripts/start.mjs), real IndexedDB. The
// origin's quota is made small, a flood runs until the journal's write is refused (QuotaExceededError),
// and the test checks what the page sees (`failed`, `journal-write`), that the journal is a gapless
// prefix holding everything the page was given, and that the session goes on once the quota is back.
// One body ({@link quotaFault}) runs in both engines; only shrinking and restoring the quota differ.
//
// Chromium: the DevTools call Storage.overrideQuotaForOrigin. Why here and not in
// test/browser/reliability/reliability.test.ts: @web/test-runner opens pages in an off-the-record context, where
// Chromium accepts the override but never enforces it. Measured with Chromium 156 in a profile on disk:
// the override is enforced, and Storage.getUsageAndQuota reports it, while navigator.storage.estimate()
// keeps reporting ~10 GiB either way; and an override set after the origin's first IndexedDB write is
// not enforced, not even after a reload (Chromium seems to keep the space left it measured then), so the
// test sets it before the page opens the journal. Clearing it takes effect at once, on the same page.
//
// Firefox has no such call, but the preference dom.quotaManager.temporaryStorage.fixedLimit (KiB; when
// negative, the default, the limit is half the free disk space) sets the global temporary-storage limit,
// and an origin's group may use min(limit, max(min(limit / 5, 10 GiB), 10 MiB)) — the whole limit when
// it is 10 MiB or less: no floor below it (GetTemporaryStorageLimit, QuotaManager::GetGroupLimitForLimit
// in dom/quota). Measured with Firefox ESR 153 in a fresh profile: navigator.storage.estimate() reports
// exactly that limit, and the write that would cross it fails QuotaExceededError; with ~200-byte records,
// one per transaction, a 512 KiB limit took 54 commits, 1 MiB 110, 4 MiB 423 (each commit grows the
// SQLite write-ahead log by ~10 KiB, and that counts). The pref is read when the quota manager
// initializes temporary storage, once per run, and neither a page nor WebDriver BiDi can change it in a
// running browser; so here giving the quota back means what it would mean to a user: the failed handle
// is closed, the browser quits, and the same profile (same IndexedDB, same journal) is launched again
// with the pref at its default, on a fresh page. Its launch costs ~5 s (~10 s on a busy machine).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, type TestContext, test } from 'node:test';
import puppeteer, { type Browser, type CDPSession, type Page } from 'puppeteer-core';
import { chromiumArgs, ensureBrowsers } from '../../scripts/browsers.mjs';
import { type Demo, startDemo } from '../../scripts/start.mjs';
import type { AgentSessionSnapshot, AgentSessionUpdate } from '../../src/types.ts';
import { report } from '../support/summary.ts';

/**
 * Far more chunks than fit in either engine's small quota — streaming them all would take the agent
 * most of an hour, so the turn ends within the test's bound only because Silo cancels it once the
 * journal refused a write.
 */
const FLOOD = 10_000_000;

interface Settled {
  readonly stopReason?: string;
  readonly error?: { readonly code: string; readonly message: string };
}

/** What the page exposes to the test (installed by {@link harness}). */
interface Harness {
  open(resume?: string): Promise<{ sessionId: string; resumeOutcome: string }>;
  /** Starts a prompt and keeps its outcome in `turn`. */
  start(text: string): void;
  turn: Settled | undefined;
  prompt(text: string): Promise<Settled>;
  snapshot(): AgentSessionSnapshot;
  delivered: AgentSessionUpdate[];
  transcript(): Promise<AgentSessionUpdate[]>;
  /** A journaled transcript read through the service, with no connection. */
  read(sessionId: string): Promise<AgentSessionUpdate[]>;
  close(): Promise<void>;
}

declare global {
  interface Window {
    silo: Harness;
  }
}

/**
 * The page side: the SDK's no-build bundle (dist/standalone/silo.js, as the demo server serves it), one
 * service, one session at a time, every delivered update recorded. The body of an async function, as a string, because tsx
 * decorates named functions with a helper the page does not have.
 */
function harness(bridge: { url: string; token: string }, cwd: string): string {
  return `
    const { createAgentsService } = await import('/dist/standalone/silo.js');
    const plain = (e) => ({ code: e?.code ?? 'not-coded', message: e?.message ?? String(e) });
    const service = createAgentsService({ databaseName: 'silo-quota' });
    let session;
    window.silo = {
      turn: undefined,
      delivered: [],
      async open(resume) {
        const delivered = [];
        this.delivered = delivered;
        session = await service.connect({
          bridge: ${JSON.stringify(bridge)},
          cwd: ${JSON.stringify(cwd)},
          ...(resume ? { resume: { sessionId: resume } } : {}),
          onUpdate: (u) => delivered.push(u),
        });
        return { sessionId: session.sessionId, resumeOutcome: session.resumeOutcome };
      },
      start(text) {
        const turn = {};
        this.turn = turn;
        session.prompt(text).then(
          (stopReason) => Object.assign(turn, { stopReason }),
          (e) => Object.assign(turn, { error: plain(e) }),
        );
      },
      prompt: (text) => session.prompt(text).then((stopReason) => ({ stopReason }), (e) => ({ error: plain(e) })),
      snapshot: () => session.snapshot,
      transcript: () => session.transcript(),
      read: (sessionId) => service.transcript(sessionId),
      close: () => session.close(),
    };
  `;
}

/** Loads a page of the demo's server that opens no journal itself, and installs the harness. */
async function load(page: Page, url: string, bridge: { url: string; token: string }, cwd: string) {
  await page.goto(new URL('/offline.html', url).href);
  // Evaluated, not added as a <script>: the demo's CSP allows no inline script.
  await page.evaluate(`(async () => {${harness(bridge, cwd)}})()`);
  await page.waitForFunction(() => window.silo !== undefined, { timeout: 20_000 });
}

/** Sequence numbers 0..n-1: in order, no hole, no duplicate. */
function assertGapless(journal: AgentSessionUpdate[], what: string): void {
  assert.deepEqual(
    journal.map((u) => u.seq),
    journal.map((_, i) => i),
    `${what}: gapless seq, in order`,
  );
}

/** The flood's chunks (`0 `, `1 `…) in a journal: they must be exactly 0..m-1. Returns m. */
function floodChunks(journal: AgentSessionUpdate[]): number {
  const numbers = journal
    .filter((u) => u.kind === 'agent_message_chunk' && /^\d+ $/.test(u.text ?? ''))
    .map((u) => Number.parseInt(u.text!, 10));
  assert.deepEqual(
    numbers,
    numbers.map((_, i) => i),
    'flood chunks 0..m-1 in order, none missing or repeated',
  );
  return numbers.length;
}

/** Updates the page was given that the journal does not hold, identical, at the same seq. */
function lostAgainst(delivered: AgentSessionUpdate[], journal: AgentSessionUpdate[]): number {
  const bySeq = new Map(journal.map((u) => [u.seq, JSON.stringify(u)]));
  return delivered.filter((u) => bySeq.get(u.seq) !== JSON.stringify(u)).length;
}

/** What the engine says the origin uses and may use, in bytes. */
interface Usage {
  readonly usage: number;
  readonly quota: number;
}

/** The per-engine steps of {@link quotaFault}: everything else is the same in both. */
interface Engine {
  readonly name: 'chromium' | 'firefox';
  /** The origin's quota while the fault runs, in bytes: room for the session and some flood. */
  readonly quota: number;
  /** Launches the browser on `profile` with the small quota in force for `origin`; returns its page. */
  launchSmall(profile: string, origin: string): Promise<Page>;
  /** Where the quota stands, as the engine enforces it. */
  usage(page: Page): Promise<Usage>;
  /**
   * Gives the quota back (the failed handle is already closed) and returns the page to go on with:
   * the same page, or a fresh one (no harness yet) of a new launch on the same profile.
   */
  restore(page: Page): Promise<Page>;
  close(): Promise<void>;
}

/** A profile on disk and its default (not off-the-record) context: where the override is enforced. */
function chromium(): Engine {
  let browser: Browser | undefined;
  let cdp: CDPSession | undefined;
  let origin = '';
  const usage = async () => {
    const { usage, quota, overrideActive } = await cdp!.send('Storage.getUsageAndQuota', { origin });
    return { usage, quota, overrideActive };
  };
  return {
    name: 'chromium',
    quota: 512 * 1024,
    async launchSmall(profile, o) {
      origin = o;
      browser = await puppeteer.launch({
        executablePath: ensureBrowsers(['chromium']).chromium,
        headless: true,
        args: chromiumArgs,
        userDataDir: profile,
      });
      const page = (await browser.pages())[0] ?? (await browser.newPage());
      assert.equal(page.browserContext(), browser.defaultBrowserContext(), 'the default browser context');
      cdp = await page.createCDPSession();
      // Before the origin touches IndexedDB (see the top of this file).
      await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: this.quota });
      assert.deepEqual(await usage(), { usage: 0, quota: this.quota, overrideActive: true });
      return page;
    },
    usage: () => usage(),
    async restore(page) {
      await cdp!.send('Storage.overrideQuotaForOrigin', { origin });
      assert.equal((await usage()).overrideActive, false, 'the override is cleared');
      return page;
    },
    close: async () => browser?.close(),
  };
}

/** The global temporary-storage limit, read at startup (see the top of this file). */
const FIREFOX_LIMIT_PREF = 'dom.quotaManager.temporaryStorage.fixedLimit';

function firefox(): Engine {
  let browser: Browser | undefined;
  let profile = '';
  const launch = async (limitKiB: number) => {
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: ensureBrowsers(['firefox']).firefox,
      headless: true,
      userDataDir: profile,
      extraPrefsFirefox: { [FIREFOX_LIMIT_PREF]: limitKiB },
    });
    return (await browser.pages())[0] ?? (await browser.newPage());
  };
  const usage = (page: Page) =>
    page.evaluate(() => navigator.storage.estimate().then((e) => ({ usage: e.usage!, quota: e.quota! })));
  return {
    name: 'firefox',
    // Room for the session's first turn and a few hundred flood updates (see the top of this file).
    quota: 1024 * 1024,
    async launchSmall(p) {
      profile = p;
      return launch(this.quota / 1024);
    },
    usage,
    async restore() {
      await browser!.close();
      // Explicitly the default: the small limit stays in the profile (prefs.js, user.js).
      return launch(-1);
    },
    close: async () => browser?.close(),
  };
}

/** The fault in one engine: launch with a small quota, flood, check, give the quota back, check again. */
async function quotaFault(t: TestContext, engine: Engine, demo: Demo, sessionsDir: string): Promise<void> {
  const profile = mkdtempSync(join(tmpdir(), `silo-quota-${engine.name}-profile-`));
  const started = performance.now();
  const seconds = (from: number) => `${((performance.now() - from) / 1000).toFixed(1)} s`;
  const pageErrors: string[] = [];
  const watch = (page: Page) => page.on('pageerror', (e) => pageErrors.push(String(e)));
  try {
    const bridge = demo.bridge!;
    let page = await engine.launchSmall(profile, demo.origin);
    watch(page);
    await load(page, demo.url, bridge, sessionsDir);
    const small = await engine.usage(page);
    const estimate = await page.evaluate(() => navigator.storage.estimate().then((e) => e.quota ?? 0));
    assert.equal(small.quota, engine.quota, 'the small quota is in force');
    t.diagnostic(`quota: ${small.quota} bytes enforced; storage.estimate() ${estimate}`);

    const { sessionId } = await page.evaluate(() => window.silo.open());
    assert.deepEqual(await page.evaluate(() => window.silo.prompt('before the flood')), {
      stopReason: 'end_turn',
    });

    /** Everything the page was given, across handles; checked against the journal at the end. */
    const delivered: AgentSessionUpdate[] = [];
    let journal: AgentSessionUpdate[] = [];
    await t.test('the flood outgrows the quota: failed, journal-write, the turn ends coded', async () => {
      const flood = performance.now();
      await page.evaluate((n: number) => window.silo.start(`/scenario flood ${n}`), FLOOD);
      await page.waitForFunction(() => window.silo.snapshot().state === 'failed', {
        timeout: 60_000,
        polling: 50,
      });
      const full = await engine.usage(page);
      t.diagnostic(`refused after ${seconds(flood)}; usage then ${full.usage} of ${full.quota} bytes`);
      const snapshot = await page.evaluate(() => window.silo.snapshot());
      assert.equal(snapshot.error?.code, 'journal-write');
      assert.match(snapshot.error!.message, /QuotaExceededError/);
      // Nothing the agent does now could be journaled or shown: Silo cancels the turn by itself, and
      // the prompt ends coded (without that, the flood would run on for most of an hour).
      const refused = performance.now();
      await page.waitForFunction(() => window.silo.turn?.error || window.silo.turn?.stopReason, {
        timeout: 30_000,
        polling: 50,
      });
      t.diagnostic(`the turn ended ${seconds(refused)} after the refusal was seen`);
      const turn = await page.evaluate(() => window.silo.turn!);
      assert.equal(turn.error?.code, 'journal-write', JSON.stringify(turn));
      // The handle stays failed and says why on every later prompt.
      const again = await page.evaluate(() => window.silo.prompt('while the quota is full'));
      assert.equal(again.error?.code, 'journal-write');
      assert.equal((await page.evaluate(() => window.silo.snapshot())).state, 'failed');
    });

    await t.test('the journal is a gapless prefix holding exactly what the page was given', async () => {
      journal = await page.evaluate(() => window.silo.transcript());
      const given = await page.evaluate(() => window.silo.delivered);
      delivered.push(...given);
      assertGapless(journal, 'after the refused write');
      const chunks = floodChunks(journal);
      assert.ok(chunks > 0, 'some of the flood was journaled before the quota ran out');
      assert.ok(chunks < FLOOD, 'the quota ran out before the flood ended');
      assert.equal(journal.at(-1)?.text, `${chunks - 1} `, 'the journal ends in the flood (no turn end)');
      // Deliveries happen only after commit: the page got exactly the journal, nothing more.
      assert.equal(lostAgainst(given, journal), 0, 'every delivered update is journaled');
      assert.equal(given.length, journal.length, 'nothing was delivered that is not journaled');
      t.diagnostic(`journal-write after ${journal.length} updates (${chunks} flood chunks)`);
      report({
        category: 'figure',
        n: journal.length,
        name: 'updates journaled before the IndexedDB quota refused a write',
        engine: engine.name,
      });
    });

    await t.test(
      'the quota is back: the failed handle closed, the session restores and prompts again',
      async () => {
        await page.evaluate(() => window.silo.close());
        const before = page;
        const restoring = performance.now();
        page = await engine.restore(page);
        if (page !== before) {
          watch(page);
          await load(page, demo.url, bridge, sessionsDir);
        }
        const back = await engine.usage(page);
        assert.ok(back.quota > engine.quota, `the quota is back (${back.quota} bytes)`);
        t.diagnostic(
          `quota back after ${seconds(restoring)}${page === before ? '' : ' (a new launch)'}: ${back.quota} bytes`,
        );
        const restored = await page.evaluate((id: string) => window.silo.open(id), sessionId);
        // The refused write cut the turn short before its turn_end could be journaled, so the journal
        // ends inside a turn: the restore loads (docs/restore.md), whatever the agent replays.
        assert.deepEqual(restored, { sessionId, resumeOutcome: 'loaded' });
        assert.equal((await page.evaluate(() => window.silo.snapshot())).state, 'connected');
        assert.deepEqual(await page.evaluate(() => window.silo.prompt('after the quota came back')), {
          stopReason: 'end_turn',
        });
        const after = await page.evaluate(() => window.silo.transcript());
        delivered.push(...(await page.evaluate(() => window.silo.delivered)));
        assertGapless(after, 'after recovery');
        assert.deepEqual(after.slice(0, journal.length), journal, 'the prefix is kept as it was');
        assert.ok(after.length > journal.length, 'the new turn is journaled after it');
        assert.equal(after.at(-1)?.turnEnd?.stopReason, 'end_turn');
        journal = after;
      },
    );

    await t.test('a reloaded page (a new worker) reads the same journal', async () => {
      await load(page, demo.url, bridge, sessionsDir);
      const reread = await page.evaluate((id: string) => window.silo.read(id), sessionId);
      assert.deepEqual(reread, journal);
      const lost = lostAgainst(delivered, reread);
      report({ category: 'lost', n: lost, name: 'IndexedDB quota exceeded', engine: engine.name });
      assert.equal(lost, 0, 'every update the page was given, before and after the fault, is journaled');
    });

    assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
    report({ category: 'faults', n: 1, name: 'IndexedDB quota exceeded', engine: engine.name });
    t.diagnostic(`took ${seconds(started)}`);
  } finally {
    await engine.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

// One demo (Vite, bridge, reference agent) for both engines; each engine has its own profile.
const sessionsDir = mkdtempSync(join(tmpdir(), 'silo-quota-sessions-'));
let demo: Demo | undefined;
before(async () => {
  demo = await startDemo({ port: 0, sessionsDir, log: () => {} });
});
after(async () => {
  await demo?.stop();
  rmSync(sessionsDir, { recursive: true, force: true });
});

for (const engine of [chromium(), firefox()]) {
  test(
    `IndexedDB quota exceeded mid-flood in ${engine.name}: journal-write, a gapless prefix, the session goes on once the quota is back`,
    { timeout: 90_000 },
    (t) => quotaFault(t, engine, demo!, sessionsDir),
  );
}
