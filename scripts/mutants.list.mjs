/**
 * The mutants `npm run test:mutants` plants (scripts/mutants.mjs), one at a time: each a small bug a
 * user would lose something to, and the narrowest tests that must catch it, in the order they are
 * run (the first that fails kills the mutant). `find` is a short, stable piece of the file that must
 * occur exactly once (else the run stops: the mutant is stale); `replace` is what it becomes. A
 * mutant with several changes lists them in `edits`. A test is `{ node: file, grep? }` (node:test,
 * `--test-name-pattern`) or `{ browser: file, grep?, browsers? }` (the browser suite, default Chromium,
 * `SILO_GREP`).
 */

const PERMISSION_KEYS = { browser: 'test/browser/chat/chat-permission-keys.test.ts' };
const TOOL_CARD_KEYS = { browser: 'test/browser/transcript/tool-cards.test.ts', grep: 'choose by kind' };
const ATTACHMENT_LIMITS = { browser: 'test/browser/chat/chat-attachments.test.ts', grep: 'size limits' };
const PROMPT_ECHO = { browser: 'test/browser/session/prompt-echo.test.ts' };
const SESSION_STATE = { node: 'test/node/session-state.test.ts' };
const NORMALIZE = { node: 'test/node/normalize.test.ts' };
const JSONL = { node: 'test/node/jsonl-import.test.ts' };
const TAIL_PAINT = { browser: 'test/browser/transcript/transcript-tail-paint.test.ts' };
const RESTORE = { node: 'test/node/restore.test.ts' };
const GUARD = { node: 'test/node/guard.test.ts' };
const ADMISSION = { node: 'test/node/bridge-admission.test.ts' };
const ORPHANS = { node: 'test/node/bridge-orphans.test.ts' };
const MARKDOWN_POLICY = { browser: 'test/browser/transcript/markdown-policy.test.ts' };
const SESSION = { browser: 'test/browser/session/session.test.ts' };
const TURN_ENDS = { browser: 'test/browser/session/turn-ends.test.ts' };
const DELIVERY = { browser: 'test/browser/session/delivery.test.ts' };
const JOURNAL = { browser: 'test/browser/session/journal.test.ts' };
const JOURNAL_FOLD = { browser: 'test/browser/session/journal-fold.test.ts' };
const JOURNAL_FOLD_NODE = { node: 'test/node/journal-fold.test.ts' };
const FIND_TEXT = { node: 'test/node/find-text.test.ts' };

/** @type {readonly { name: string, what: string, file: string, find?: string, replace?: string, edits?: { find: string, replace: string }[], tests: object[] }[]} */
export const MUTANTS = [
  // ── The survivors of issue 30 ──────────────────────────────────────────────────────────────────
  {
    name: 'permission-n-approves',
    what: 'pressing N on a permission approves it',
    file: 'components/transcript/rows/permission-prompt.ts',
    find: ": optionFor(options, 'reject_once', 'reject')",
    replace: ": optionFor(options, 'allow_once', 'allow')",
    tests: [TOOL_CARD_KEYS, PERMISSION_KEYS],
  },
  {
    name: 'permission-escape-rejects',
    what: 'Escape on a permission rejects it instead of only moving focus to Reject',
    file: 'components/transcript/rows/permission-prompt.ts',
    find: '      reject.focus();',
    replace: '      reject.click();',
    tests: [PERMISSION_KEYS],
  },
  {
    name: 'attachments-total-not-added',
    what: 'the 10 MiB total of one message is not added up: three 4 MiB files pass',
    file: 'components/chat/attachment-files.ts',
    find: '    total += a.size;\n',
    replace: '',
    tests: [ATTACHMENT_LIMITS],
  },
  {
    name: 'attachments-attached-not-counted',
    what: 'files already attached do not count towards the total',
    file: 'components/chat/attachment-files.ts',
    find: 'let total = current.reduce((n, a) => n + a.size, 0);',
    replace: 'let total = 0;',
    tests: [ATTACHMENT_LIMITS],
  },
  {
    name: 'attachments-total-off-by-one',
    what: 'exactly 10 MiB in one message is refused',
    file: 'components/chat/attachment-files.ts',
    find: 'if (total + file.size > MAX_ATTACHMENTS_TOTAL_BYTES)',
    replace: 'if (total + file.size >= MAX_ATTACHMENTS_TOTAL_BYTES)',
    tests: [ATTACHMENT_LIMITS],
  },
  {
    name: 'attachments-file-limit-off',
    what: 'a file over 5 MiB is attached',
    file: 'components/chat/attachment-files.ts',
    find: 'if (file.size > MAX_ATTACHMENT_BYTES)',
    replace: 'if (file.size > 2 * MAX_ATTACHMENT_BYTES)',
    tests: [ATTACHMENT_LIMITS],
  },
  {
    name: 'echo-swallows-user-text',
    what: "the prompt-echo filter drops every user chunk at a turn's start, not only the echo",
    file: 'worker/echo.ts',
    find: "if (update.sessionUpdate !== 'user_message_chunk' || !this.continues(update.content))",
    replace: "if (update.sessionUpdate !== 'user_message_chunk')",
    tests: [PROMPT_ECHO],
  },
  {
    name: 'title-prompt-wins',
    what: "the first prompt's text replaces the title the agent gave before it",
    file: 'src/session-state.ts',
    find: "const free = state.title === undefined || state.titleFrom === 'command';",
    replace: "const free = state.title === undefined || state.titleFrom !== 'prompt';",
    tests: [SESSION_STATE],
  },
  {
    name: 'orphans-group-not-ended',
    what: 'a descendant that cleared its environment (env -i) but stays in the group outlives its agent',
    file: 'bridge/reaper.ts',
    edits: [
      { find: '    process.kill(-pgid, signal);\n', replace: '' },
      { find: 'if (s.pgrp === pgid || marked(name, marker))', replace: 'if (marked(name, marker))' },
    ],
    tests: [ORPHANS],
  },
  {
    name: 'orphans-marker-ignored',
    what: 'a setsid daemon that left the group is not found by its SILO_CONNECTION mark',
    file: 'bridge/reaper.ts',
    find: 'if (s.pgrp === pgid || marked(name, marker))',
    replace: 'if (s.pgrp === pgid)',
    tests: [ORPHANS],
  },
  // ── The weak tests of issue 30 ───────────────────────────────────────────────────────────────────
  {
    name: 'normalize-mutates-input',
    what: 'the normalizer writes its synthesized messageId into the raw update it was given',
    file: 'worker/normalize.ts',
    find: '        const content = contentBlock(raw.content);\n',
    replace:
      '        const content = contentBlock(raw.content);\n        if (messageId !== undefined) (raw as Record<string, unknown>).messageId ??= messageId;\n',
    tests: [NORMALIZE],
  },
  {
    name: 'jsonl-seq-kept',
    what: "an imported file's own seq numbers are kept: two exports end to end lose the second",
    file: 'src/jsonl.ts',
    find: 'out.push(u.raw === raw && u.seq === seq ? u : { ...u, raw, seq });',
    replace: 'out.push(u.raw === raw ? u : { ...u, raw });',
    tests: [JSONL],
  },
  {
    name: 'jsonl-cr-line-ends',
    what: 'a file with CR line ends is refused',
    file: 'src/jsonl.ts',
    find: 'text.split(/\\r\\n|\\r|\\n/)',
    replace: 'text.split(/\\r?\\n/)',
    tests: [JSONL],
  },
  // ── The race of issue 30 ─────────────────────────────────────────────────────────────────────────
  {
    name: 'tail-paint-goes-before-whole-journal',
    what: 'the tail paint goes before the whole journal is swapped in: the log jumps from its end',
    file: 'components/transcript/wiring.ts',
    find: '() => source.openAtEnd && source.complete,',
    replace: '() => source.openAtEnd,',
    tests: [TAIL_PAINT],
  },
  // ── Worker ────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'messageid-metadata-splits',
    what: "a usage or commands update in the middle of an id-less message splits it (Codex's thoughts)",
    file: 'worker/normalize.ts',
    find: 'if (SESSION_STATE_KINDS.has(kind)) return undefined;',
    replace: 'if (SESSION_STATE_KINDS.has(kind)) { this.run = undefined; return undefined; }',
    tests: [NORMALIZE],
  },
  {
    name: 'tool-kind-default',
    what: "a tool call of an unknown kind is shown as a read instead of 'other'",
    file: 'worker/normalize.ts',
    find: "else if (create || kindRaw !== undefined) call.kind = 'other';",
    replace: "else if (create || kindRaw !== undefined) call.kind = 'read';",
    tests: [NORMALIZE],
  },
  {
    name: 'worker-early-updates-dropped',
    what: 'updates the agent sends before its session id is known (commands after session/new) are lost',
    file: 'worker/ingest.ts',
    find: '    for (const p of early) this.onUpdate(p);\n',
    replace: '',
    tests: [SESSION],
  },
  {
    name: 'worker-write-failure-turn-goes-on',
    what: 'after a failed journal write the turn goes on, unjournaled and unseen',
    file: 'worker/session.ts',
    find: '      void this.cancel();\n    };',
    replace: '    };',
    // The quota e2e (a profile on disk, where Chromium enforces a quota): the flood must end coded.
    tests: [{ node: 'test/e2e/quota.test.ts' }],
  },
  {
    name: 'delivery-flood-drops-queued',
    what: 'during a flood, updates queued for the next window are replaced by the latest commit',
    file: 'worker/delivery.ts',
    find: '    for (const u of updates) this.outbox.push(u);',
    replace: '    this.outbox = [...updates];',
    tests: [DELIVERY],
  },
  {
    name: 'journal-failure-resolves-flushed',
    what: 'a failed journal write resolves flushed() instead of rejecting it',
    file: 'worker/journal-writer.ts',
    find: 'for (const w of this.waiters.splice(0)) w.reject(this.failure);',
    replace: 'for (const w of this.waiters.splice(0)) w.resolve();',
    tests: [JOURNAL],
  },
  {
    name: 'find-searches-every-render',
    what: "find reads the rows again on every render of the transcript, changed or not: `searching` turns true for nothing (a false 'searching')",
    file: 'components/transcript/find/find.controller.ts',
    find: 'if (this.#scanning || !this.#counts.readAll(this.rows.rows()))',
    replace: 'if (true)',
    tests: [
      {
        browser: 'test/browser/transcript/transcript-find-searching.test.ts',
        grep: 'a render that changed no row starts no search',
      },
    ],
  },
  {
    name: 'journal-closed-write-throws',
    what: 'a write to a journal a newer tab closed throws out of the writer instead of failing it coded (internal, not journal-write)',
    file: 'worker/journal-writer.ts',
    find: 'return Promise.reject(error); // the database closed (a newer tab upgrades it)',
    replace: 'throw error;',
    tests: [
      { browser: 'test/browser/reliability/reliability.test.ts', grep: 'a newer tab upgrades the database' },
    ],
  },
  {
    name: 'journal-session-record-stale',
    what: "the writer leaves the session record's nextSeq behind its segments: a reopened session writes over its own updates",
    file: 'worker/journal-writer.ts',
    find: 'if (record) sessions.put(',
    replace: 'if (false) sessions.put(',
    tests: [JOURNAL],
  },
  {
    name: 'journal-fold-other-version-used',
    what: "a fold kept by an older Silo is taken as this one's: wrong state, requests of another shape",
    file: 'worker/journal.ts',
    find: 'new JournalFold(kept?.v === FOLD_VERSION && kept.seq <= end ? kept : undefined)',
    replace: 'new JournalFold(kept && kept.seq <= end ? kept : undefined)',
    tests: [JOURNAL_FOLD],
  },
  {
    name: 'journal-fold-not-kept',
    what: "the journal's fold is never kept: every reload reads the whole journal again",
    file: 'worker/journal-writer.ts',
    find: 'return fold.seq - fold.kept >= KEEP_EVERY ||',
    replace: 'return false &&',
    tests: [JOURNAL_FOLD],
  },
  {
    name: 'journal-fold-request-never-closed',
    what: "an answered request stays open in the journal's fold: the next restore ends it unanswerable again",
    file: 'worker/journal-fold.ts',
    find: '    if (i >= 0) this.requests.splice(i, 1);',
    replace: '    void i;',
    tests: [JOURNAL_FOLD_NODE],
  },
  {
    name: 'turns-agent-turn-unframed',
    what: 'a turn the agent starts by itself is glued onto the turn before',
    file: 'worker/turns.ts',
    find: 'if (live && this.startsAgentTurn(raw))',
    replace: 'if (false && this.startsAgentTurn(raw))',
    tests: [TURN_ENDS],
  },
  {
    name: 'turns-dead-turn-left-open',
    what: 'a turn left open when its page died is never ended on restore',
    file: 'worker/session.ts',
    find: "          updates.frames.end('interrupted', 'The page closed before the turn ended');",
    replace: '          void 0;',
    tests: [TURN_ENDS],
  },
  // ── Ledger ────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'ledger-unknown-option-accepted',
    what: 'a permission answered with an option the agent did not offer is sent to the agent',
    file: 'worker/live-requests.ts',
    find: 'if (optionId !== null && !options?.some((o) => o.optionId === optionId)) {',
    replace: 'if (false) {',
    tests: [{ ...SESSION, grep: 'did not offer' }],
  },
  {
    name: 'ledger-cancel-leaves-requests',
    what: 'cancelling a turn leaves its permission requests waiting',
    file: 'worker/ledger.ts',
    find: 'for (const entry of [...this.entries.values()]) entry.settle?.(entry.cancelled!);',
    replace: 'void 0;',
    tests: [SESSION],
  },
  {
    name: 'ledger-orphans-left-open',
    what: 'a permission open when its page died is never ended unanswerable on restore',
    file: 'worker/ledger.ts',
    find: 'for (const r of orphans) this.endUnanswerable(r.kind, r.id);',
    replace: 'void orphans;',
    tests: [TURN_ENDS],
  },
  {
    name: 'ledger-selected-option-lost',
    what: 'the journal records a chosen permission as cancelled',
    file: 'worker/request-ends.ts',
    find: "const selected = outcome?.outcome === 'selected' && typeof outcome.optionId === 'string';",
    replace: 'const selected = false;',
    tests: [SESSION],
  },
  // ── Restore merge ─────────────────────────────────────────────────────────────────────────────
  {
    name: 'merge-agent-made-user-text',
    what: "the agent's own '[Request interrupted by user]' is taken for a prompt: a restore cannot merge",
    file: 'worker/replay-turns.ts',
    find: "      if (role === 'user' && AGENT_MADE_USER.test(text)) return;\n",
    replace: '',
    tests: [RESTORE],
  },
  {
    name: 'merge-cancelled-turn-required',
    what: 'a replay that leaves out a cancelled turn (Gemini CLI) cannot be merged',
    file: 'worker/replay-align.ts',
    find: 'const omittable = (turn: Turn) => turn.cancelled || turn.command;',
    replace: 'const omittable = (turn: Turn) => turn.command;',
    tests: [RESTORE],
  },
  {
    name: 'merge-text-always-agrees',
    what: 'a replay whose text differs from the journal is merged anyway',
    file: 'worker/replay-bodies.ts',
    find: 'return a.startsWith(b) || b.startsWith(a) || formable(a, theirs) || formable(b, mine);',
    replace: 'return true;',
    tests: [RESTORE],
  },
  {
    name: 'merge-repeats-journal-end',
    what: 'updates the journal already ends with are appended again',
    file: 'worker/replay-merge.ts',
    find: '    if (known && seen.has(JSON.stringify(v.raw))) continue;\n',
    replace: '',
    tests: [RESTORE],
  },
  {
    name: 'merge-cut-message-own-id',
    what: "a message cut short is completed under the agent's id, not the journal's: two bubbles",
    file: 'worker/replay-merge.ts',
    find: 'return lastChunk.messageId ? { ...rest, messageId: lastChunk.messageId } : rest;',
    replace: 'return raw;',
    tests: [RESTORE],
  },
  {
    name: 'merge-journal-longer-appends',
    what: 'a replay that holds less than the journal has its last turn appended again',
    file: 'worker/replay-merge.ts',
    find: "if (last ? last.mine < mine.length - 1 : mine.length > 1) return { verdict: 'merged', append: [] };",
    replace: '',
    tests: [RESTORE],
  },
  // ── Bridge: guard and admission ───────────────────────────────────────────────────────────────
  {
    name: 'guard-origin-unchecked',
    what: 'any web page may open a connection to the bridge (cross-site WebSocket hijacking)',
    file: 'bridge/guard.ts',
    find: '} else if (!config.origins.has(origin)) {',
    replace: '} else if (false) {',
    tests: [GUARD],
  },
  {
    name: 'guard-missing-origin-allowed',
    what: 'an upgrade without an Origin is accepted',
    file: 'bridge/guard.ts',
    find: "if (!config.allowMissingOrigin) return { status: 403, reason: 'missing Origin' };",
    replace: 'void 0;',
    tests: [GUARD],
  },
  {
    name: 'guard-several-tokens',
    what: 'an upgrade offering several tokens is judged by its first (more guesses per attempt)',
    file: 'bridge/guard.ts',
    find: 'const tokenProtocol = tokens.length === 1 ? tokens[0] : undefined;',
    replace: 'const tokenProtocol = tokens.length >= 1 ? tokens[0] : undefined;',
    tests: [GUARD],
  },
  {
    name: 'guard-host-port-unchecked',
    what: 'a Host header naming another port passes (DNS rebinding through another service)',
    file: 'bridge/guard.ts',
    find: '  if (url.port !== String(config.port)) return false;\n',
    replace: '',
    tests: [GUARD],
  },
  {
    name: 'guard-duplicate-headers',
    what: 'an upgrade with two Origin or Host headers is judged by one of them',
    file: 'bridge/guard.ts',
    find: 'if (duplicated) return',
    replace: 'if (false) return',
    tests: [GUARD],
  },
  {
    name: 'guard-max-connections-off-by-one',
    what: 'one connection more than --max-connections is accepted',
    file: 'bridge/guard.ts',
    find: 'if (state.liveConnections >= config.maxConnections) {',
    replace: 'if (state.liveConnections > config.maxConnections) {',
    tests: [GUARD],
  },
  {
    name: 'admission-no-deadline',
    what: 'a socket that never upgrades is never closed',
    file: 'bridge/admission.ts',
    find: '    this.drop(socket);\n    socket.destroy();',
    replace: '    this.drop(socket);',
    tests: [ADMISSION],
  },
  {
    name: 'admission-deadline-before-io',
    what: 'after a stall of the bridge, an upgrade sent in time is cut at the deadline before it is read',
    file: 'bridge/admission.ts',
    find: '() => setImmediate(() => this.expire(socket)),',
    replace: '() => this.expire(socket),',
    tests: [ADMISSION],
  },
  {
    name: 'admission-no-total-bound',
    what: 'waiting sockets of many addresses are not bounded in all',
    file: 'bridge/admission.ts',
    find: '    this.makeRoom(this.waiting.size, this.waiting.keys().next().value, this.limits.total, now);\n',
    replace: '',
    tests: [ADMISSION],
  },
  {
    name: 'admission-young-evicted',
    what: "a burst of a page's own sockets pushes out its first ones before they are read",
    file: 'bridge/admission.ts',
    find: 'if (size < 2 * bound && now - this.waiting.get(oldest)!.since < EVICTION_AGE_MS) return;',
    replace: 'void 0;',
    tests: [ADMISSION],
  },
  // ── Sanitizer and URLs ────────────────────────────────────────────────────────────────────────
  {
    name: 'sanitizer-data-attributes',
    what: 'agent Markdown keeps data-* attributes',
    file: 'components/content/markdown-sanitize.ts',
    find: 'if (ALLOWED_ATTRS.has(name)) copy.setAttribute(name, v);',
    replace: "if (ALLOWED_ATTRS.has(name) || name.startsWith('data-')) copy.setAttribute(name, v);",
    tests: [MARKDOWN_POLICY],
  },
  {
    name: 'sanitizer-class-and-style',
    what: "agent Markdown keeps class and style (it could dress as Silo's own prompts)",
    file: 'components/content/markdown-sanitize.ts',
    find: "...['title', 'align',",
    replace: "...['class', 'style', 'title', 'align',",
    tests: [MARKDOWN_POLICY],
  },
  {
    name: 'sanitizer-images-kept',
    what: 'agent Markdown keeps <img src>: the page fetches a URL without a click',
    file: 'components/content/markdown-sanitize.ts',
    edits: [
      {
        find: "...['ul', 'ol', 'li', 'dl', 'dt', 'dd', 'a'],",
        replace: "...['ul', 'ol', 'li', 'dl', 'dt', 'dd', 'a', 'img'],",
      },
      { find: "...['title', 'align',", replace: "...['src', 'title', 'align'," },
      { find: "if (tag === 'img') {", replace: "if (tag === 'img' && !ALLOWED_TAGS.has(tag)) {" },
    ],
    tests: [MARKDOWN_POLICY],
  },
  {
    name: 'sanitizer-rel-opener',
    what: 'agent links open without noopener noreferrer (the new tab can reach the page)',
    file: 'components/content/markdown-sanitize.ts',
    find: "a.setAttribute('rel', 'noopener noreferrer nofollow');",
    replace: "a.setAttribute('rel', 'nofollow');",
    tests: [MARKDOWN_POLICY],
  },
  {
    name: 'sanitizer-foreign-content',
    what: 'agent SVG and MathML are walked like HTML (their <a>, <style>, <title> share HTML names)',
    file: 'components/content/markdown-sanitize.ts',
    find: 'if (el.namespaceURI !== HTML_NS || DROP_WITH_CONTENT.has(tag)) continue;',
    replace: 'if (DROP_WITH_CONTENT.has(tag)) continue;',
    tests: [MARKDOWN_POLICY],
  },
  {
    name: 'sanitizer-unsafe-href',
    what: "a raw link's href is kept whatever its scheme (javascript:, data:)",
    file: 'components/content/markdown-sanitize.ts',
    find: "else if (name === 'href' && tag === 'a' && SAFE_URL.test(v))",
    replace: "else if (name === 'href' && tag === 'a')",
    tests: [MARKDOWN_POLICY],
  },
  {
    name: 'safe-url-javascript',
    what: 'javascript: links from the agent are kept',
    file: 'components/content/safe-href.ts',
    find: 'export const SAFE_URL = /^(?:https?:|mailto:)/i;',
    replace: 'export const SAFE_URL = /^(?:https?:|mailto:|javascript:)/i;',
    tests: [MARKDOWN_POLICY],
  },
  // ── Components ────────────────────────────────────────────────────────────────────────────────
  {
    name: 'content-image-uri-fetched',
    what: "an agent image given only by URL is fetched and shown (the page loads the agent's URL)",
    file: 'components/transcript/rows/content-blocks.ts',
    find: 'if (!data) return html`<div class="placeholder" part="placeholder">',
    replace:
      'if (!data) return html`<img class="image" part="image" alt="" src=\u0024{uri} />`;\n    if (!data) return html`<div class="placeholder" part="placeholder">',
    tests: [{ browser: 'test/browser/chat/chat-attachments.test.ts', grep: 'nothing is fetched' }],
  },
  {
    name: 'find-case-sensitive',
    what: 'find in the transcript is case-sensitive',
    file: 'components/transcript/find/text.ts',
    find: '  const lower = text.toLowerCase();',
    replace: '  const lower = text;',
    tests: [FIND_TEXT],
  },
  {
    name: 'tool-card-failed-closed',
    what: 'a failed tool call starts closed, its error hidden',
    file: 'components/transcript/rows/tool-card.ts',
    find: "return attention || row.toolCall.status === 'failed' || (running && live);",
    replace: 'return attention || (running && live);',
    tests: [{ browser: 'test/browser/transcript/tool-cards.test.ts', grep: 'a failed one starts open' }],
  },
  {
    name: 'composer-shift-enter-sends',
    what: 'Shift+Enter sends the message instead of starting a new line',
    file: 'components/chat/composer.controller.ts',
    find: "if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {",
    replace: "if (e.key === 'Enter' && !e.isComposing) {",
    tests: [{ browser: 'test/browser/chat/components-chat.test.ts', grep: 'Shift\\+Enter for a newline' }],
  },
  {
    name: 'chat-export-first-chunk-only',
    what: "the chat's Export JSONL saves only the stream's first chunk: a long session's file is cut short",
    file: 'components/chat/export.ts',
    find: '    parts.push(buffer.slice(0, written));',
    replace: '    if (parts.length === 0) parts.push(buffer.slice(0, written));',
    tests: [{ browser: 'test/browser/chat/chat-export.test.ts' }],
  },
  {
    name: 'page-reopen-follows',
    what: 'a service (or a <silo-chat> swapped for another on its cwd) that reopens a session another service of the page still closes comes up following, not driving',
    file: 'src/service.ts',
    find: '    if (resume && !resume.startFresh) await closedInPage(resume.sessionId);',
    replace: '',
    tests: [
      { browser: 'test/browser/session/tabs.test.ts', grep: 'another service of the page reopens' },
      { browser: 'test/browser/chat/chat-page-follower.test.ts', grep: 'the new one drives it' },
    ],
  },
];
