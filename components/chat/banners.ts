/**
 * The banner of `<silo-chat>` (under its header): what went wrong with the connection or the last
 * message, a sign-in offer, a read-only notice — one at a time, each saying what happened.
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import { type AgentAuthMethod, type AgentSessionSnapshot, SiloError } from '../../src/index.ts';
import type { SiloChatActionStrings, SiloChatStrings } from '../shared/strings/chat.ts';

/** The element's connection phase before a session exists (`idle`) or while connecting. */
export type ChatPhase = 'idle' | 'connecting' | 'ready' | 'failed';

/**
 * Where the driver of a session a chat follows is, when it is (or was) a chat of this same page:
 * `here` while it drives, `gone` once it let the session go (removed, or on another session), until
 * a driver shows up again.
 */
export type PageDriver = 'here' | 'gone';

/** What the banner is drawn from. */
export interface BannerState {
  /** Bridge and `cwd` are set. */
  readonly configured: boolean;
  readonly phase: ChatPhase;
  readonly snapshot: AgentSessionSnapshot | undefined;
  /** The element's own last error (connect, send, picker). */
  readonly error: SiloError | undefined;
  /** `code\nmessage` of the error the user dismissed. */
  readonly dismissed: string | undefined;
  /** True when `error` is a prompt that reached the agent and then failed. */
  readonly turnBroke: boolean;
  /** True when the failed message can be sent again (the banner offers "Send again"). */
  readonly canResend: boolean;
  /** When the tab this one follows is this page: another chat of it drives the session, or did until it went. */
  readonly pageDriver?: PageDriver;
}

/** What the banner's buttons do. */
export interface BannerActions {
  /** Connect again (the same session); with `authenticate`, signing in with that method. */
  connect(authenticate?: string): void;
  /** Continue the read-only conversation in a new session. */
  continueInNew(): void;
  /** Hide the error shown (its `code\nmessage`). */
  dismiss(key: string | undefined): void;
  /** Send the failed message again. */
  resend(): void;
  /** Make this tab drive the conversation (it follows another tab). */
  takeOver(): void;
}

/** The key under which a dismissed error is remembered. */
const keyOf = (e: { code: string; message: string } | undefined) =>
  e ? `${e.code}\n${e.message}` : undefined;

/**
 * The banner for the current state, or `nothing`. An error banner has `role="alert"` and a Dismiss
 * button; a read-only, restore or following notice (another tab or another chat of the page drives
 * the session, or did until it went, with Take over) has `role="status"`. The connection's own error
 * shows only while it is not connected (it may linger in the snapshot after recovery).
 */
export function renderBanner(
  st: BannerState,
  act: BannerActions,
  s: SiloChatStrings & SiloChatActionStrings,
): TemplateResult | typeof nothing {
  if (!st.configured) return html`<div class="banner" part="banner">${s.noBridge}</div>`;
  const snapshot = st.snapshot;
  const own = snapshot?.state !== 'connected' ? snapshot?.error : undefined;
  const shown = st.error ?? own;
  const err =
    !shown || keyOf(shown) === st.dismissed
      ? undefined
      : shown === st.error
        ? st.error
        : new SiloError(shown.code, shown.message);
  // Following another tab is not an error: say so calmly, and offer to take over.
  if (snapshot?.role === 'follower' && !st.error) {
    const text =
      st.pageDriver === 'gone'
        ? s.followingPageDriverGone
        : snapshot.driverPresent === false
          ? s.followingDriverGone
          : st.pageDriver === 'here'
            ? s.followingInPage
            : s.following;
    return html`<div class="banner" part="banner following" role="status">
      <span class="text">${text}</span>
      <button type="button" part="take-over" @click=${() => act.takeOver()}>${s.takeOver}</button>
    </div>`;
  }
  if (snapshot?.resumeOutcome === 'journal-only' || snapshot?.state === 'read-only') {
    const held = snapshot.restoreNote === 'held-elsewhere';
    return html`<div class="banner" part="banner" role="status">
      <span>${held ? s.restoreNote['held-elsewhere'] : s.journalOnly}</span>
      ${held ? html`<button type="button" part="try-again" @click=${() => act.connect()}>${s.tryAgain}</button>` : nothing}
      <button type="button" @click=${() => act.continueInNew()}>${s.continueInNew}</button>
    </div>`;
  }
  const note = snapshot?.restoreNote;
  if (!err && note) return html`<div class="banner" part="banner" role="status">${s.restoreNote[note]}</div>`;
  if (!err) return nothing;
  if (err.code === 'auth-required' && st.phase === 'failed') return signIn(err, act, s);
  const message =
    err.code === 'unreachable'
      ? s.unreachable
      : st.phase === 'failed'
        ? s.connectFailed(err.message)
        : err === st.error && st.turnBroke
          ? s.turnInterrupted(err.message)
          : shown === own
            ? s.connectionLost(err.message)
            : s.sendFailed(err.message);
  return html`<div class="banner error" part="banner" role="alert">
    <span class="text">${message}</span>
    ${st.phase === 'failed' ? html`<button type="button" @click=${() => act.connect()}>${s.retry}</button>` : nothing}
    ${
      st.canResend && err === st.error && st.phase !== 'failed'
        ? html`<button type="button" part="resend" @click=${() => act.resend()}>${s.resend}</button>`
        : nothing
    }
    <button type="button" class="dismiss" part="dismiss" @click=${() => act.dismiss(keyOf(shown))}>${s.dismiss}</button>
  </div>`;
}

/** The agent needs a sign-in: a button for each method a page can use, the others explained. */
function signIn(err: SiloError, act: BannerActions, s: SiloChatStrings): TemplateResult {
  const methods = (err.data as { authMethods?: readonly AgentAuthMethod[] } | undefined)?.authMethods ?? [];
  return html`<div class="banner error" part="banner" role="alert">
    <span class="text">${s.signInNeeded(err.message)}</span>
    ${methods.map((m) =>
      m.usable
        ? html`<button type="button" part="sign-in" title=${m.description ?? ''} @click=${() => act.connect(m.id)}>
            ${s.signInWith(m.name)}
          </button>`
        : html`<span class="text" part="sign-in-elsewhere">${terminalHint(m, s)}</span>`,
    )}
    <button type="button" @click=${() => act.connect()}>${s.retry}</button>
  </div>`;
}

/** What to do for a method a page cannot use: the command to run when the agent names one. */
function terminalHint(m: AgentAuthMethod, s: SiloChatStrings): string {
  const t = m.terminal;
  if (t?.command) return s.signInTerminal(m.name, [t.command, ...t.args].join(' '), true);
  if (t?.args.length) return s.signInTerminal(m.name, t.args.join(' '), false);
  return s.signInElsewhere(m.name);
}
