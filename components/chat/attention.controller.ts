/**
 * `<silo-chat>` while its page is hidden and the agent waits for the user (a permission request or a
 * question), as a Lit reactive controller: the document's title says so, and with the `notify`
 * attribute a Web Notification does too. Both go once the page is seen again or nothing waits.
 * @packageDocumentation
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { AgentElicitationRequest, AgentPermissionRequest } from '../../src/index.ts';
import { formatNumber } from '../shared/format.ts';
import type { SiloChatAttentionStrings } from '../shared/strings/chat.ts';

/** A live request of the chat's session: a permission request or a question. */
type LiveRequest = AgentPermissionRequest | AgentElicitationRequest;

/** What the controller needs from its element. */
export interface AttentionConfig {
  /** The session's live requests (the chat's `onPermission` / `onElicitation`); ended ones are skipped. */
  requests(): readonly LiveRequest[];
  strings(): SiloChatAttentionStrings;
  locale(): string | undefined;
  /** False leaves the document's title alone (`keep-document-title`). */
  title(): boolean;
  /** True shows a Web Notification for each request that starts while the page is hidden (`notify`). */
  notify(): boolean;
}

const isHidden = () => document.visibilityState === 'hidden';

/** A permission and a question of one session may share an id: the kind is part of the key. */
const keyOf = (req: LiveRequest) =>
  `${req.sessionId ?? ''}\n${'options' in req ? 'permission' : 'question'}\n${req.id}`;

/** The longest tool title a notification carries (the rest is cut, with an ellipsis). */
const TOOL_TITLE_MAX = 80;

/**
 * A tool's title as one short line of plain text: control and format characters (bidi overrides,
 * zero-width characters) and line breaks become spaces, and it is cut at {@link TOOL_TITLE_MAX}.
 */
export function plainToolTitle(title: string | undefined): string {
  const line = (title ?? '').replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\s]+/gu, ' ').trim();
  return line.length > TOOL_TITLE_MAX ? `${line.slice(0, TOOL_TITLE_MAX - 1).trimEnd()}…` : line;
}

/** One chat's part of the title: the requests it has waiting, and its wording of the title. */
interface TitleClaim {
  readonly keys: ReadonlySet<string>;
  readonly word: (count: number, title: string) => string;
}

/**
 * Every chat of the document shares the one title: each claims the requests it has waiting (a
 * request shown by two chats of one page counts once), and the title counts them all.
 */
const claims = new Map<object, TitleClaim>();

/** The title written here and the page's own title under it, while it shows. */
let shown: { readonly text: string; readonly base: string } | undefined;

/**
 * Sets `owner`'s claim (none: `undefined` or no keys) and brings the title up to date: prefixed while
 * the page is hidden and any request waits, else the page's own. It never fights the page: it
 * writes only when a chat's requests or the page's visibility change, and the title it restores is
 * the one under its prefix; when the page set a title of its own meanwhile, that one stays (and is
 * the one prefixed next time).
 */
function claimTitle(owner: object, claim: TitleClaim | undefined): void {
  if (claim?.keys.size) claims.set(owner, claim);
  else claims.delete(owner);
  const keys = new Set<string>();
  for (const c of claims.values()) for (const k of c.keys) keys.add(k);
  const first = claims.values().next().value;
  if (first && keys.size > 0 && isHidden()) {
    const base = shown && document.title === shown.text ? shown.base : document.title;
    const text = first.word(keys.size, base);
    if (document.title !== text) document.title = text;
    // Read back: the browser collapses white space in what it was given.
    shown = { text: document.title, base };
  } else if (shown) {
    if (document.title === shown.text) document.title = shown.base;
    shown = undefined;
  }
}

/**
 * A notification for `req`, or undefined when the browser has none, the page was not granted the
 * permission (`Notification.permission` other than `granted`: this never asks), or the browser
 * refuses to construct one (Chrome on Android allows them only from a service worker). Its title is
 * fixed; its body is fixed text with, for a permission, the tool's title as plain text. Its `tag`
 * names the session and the request, so the tabs that follow one session show it once. A click on
 * it focuses the window and closes it.
 */
function notificationFor(req: LiveRequest, s: SiloChatAttentionStrings): Notification | undefined {
  const N = globalThis.Notification;
  if (typeof N !== 'function' || N.permission !== 'granted') return undefined;
  const body = 'options' in req ? s.notifyPermission(plainToolTitle(req.toolCall.title)) : s.notifyQuestion;
  try {
    const n = new N(s.notifyTitle, { body, tag: `silo:${keyOf(req).replaceAll('\n', ':')}` });
    n.addEventListener('click', () => {
      window.focus();
      n.close();
    });
    return n;
  } catch {
    return undefined;
  }
}

/**
 * Tells the user, outside the page, that the agent waits for them — only while the page is hidden
 * (`document.visibilityState`), never while it is seen:
 *
 * - **The title** (unless `title()` is false): prefixed with {@link SiloChatAttentionStrings.waitingTitle}
 *   ("(1) Waiting for you · Page") as soon as the page is hidden with a request waiting, or a request
 *   starts while it is hidden; restored when the page is visible again, or when the last request ends
 *   (answered here or in another tab, withdrawn, the turn cancelled, the connection lost) or the
 *   element is removed.
 * - **A notification** (only when `notify()` is true and the page was granted the permission): one
 *   for each request that starts while the page is hidden (not for one already waiting when it is
 *   hidden: the user saw it); closed when that request ends, when the page is visible again, or when
 *   the element is removed. Failing to show one is silent (the title still says it).
 *
 * It reads the live requests after every render of the chat (a new request renders it) and listens
 * to each request's `signal` and to the document's `visibilitychange`.
 */
export class AttentionController implements ReactiveController {
  #seen = new WeakSet<LiveRequest>();
  #notifications = new Map<LiveRequest, Notification>();
  #connected = false;

  constructor(
    host: ReactiveControllerHost,
    private readonly cfg: AttentionConfig,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.#connected = true;
    document.addEventListener('visibilitychange', this.#sync);
    this.#sync();
  }

  hostUpdated(): void {
    this.#sync();
  }

  hostDisconnected(): void {
    this.#connected = false;
    document.removeEventListener('visibilitychange', this.#sync);
    for (const n of this.#notifications.values()) n.close();
    this.#notifications.clear();
    claimTitle(this, undefined);
  }

  /** Takes in new requests, closes the notifications of ended ones, and updates the title. */
  #sync = (): void => {
    if (!this.#connected) return;
    const open = this.cfg.requests().filter((r) => !r.signal.aborted);
    const hidden = isHidden();
    const s = this.cfg.strings();
    for (const req of open) {
      if (this.#seen.has(req)) continue;
      this.#seen.add(req);
      req.signal.addEventListener('abort', this.#sync, { once: true });
      if (!hidden || !this.cfg.notify()) continue;
      const n = notificationFor(req, s);
      if (n) this.#notifications.set(req, n);
    }
    for (const [req, n] of this.#notifications) {
      if (hidden && !req.signal.aborted && open.includes(req)) continue;
      n.close();
      this.#notifications.delete(req);
    }
    const locale = this.cfg.locale();
    claimTitle(
      this,
      this.cfg.title()
        ? {
            keys: new Set(open.map(keyOf)),
            word: (count, t) => s.waitingTitle(formatNumber(count, locale), t),
          }
        : undefined,
    );
  };
}
