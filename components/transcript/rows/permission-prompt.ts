/**
 * A permission prompt: the agent's question, the command it would run (when it names one), its options
 * while it is live (the first allow option is the primary button, reject options look distinct), and afterwards what was answered, cancelled or
 * left unanswerable. Drawn inside its tool call's card when the model put it there
 * (`ToolCallRow.permission`, the card shows what will run or change), else as a row of its own.
 *
 * Keys, with focus on a live prompt or one of its buttons: `Y` chooses the first "allow once" option
 * (else the first allow option), `N` the first "reject once" option (else the first reject option);
 * Escape answers nothing and moves focus to that reject option, so that Enter then rejects.
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { PermissionOption as AgentPermissionOption, PermissionRow } from '../../../src/index.ts';
import { highlightedText } from '../../content/code.lazy.ts';
import { plainText } from '../../content/long-text.ts';
import { clipLabel, PLAIN_SHOWN } from '../../content/text-budget.ts';
import type { RowContext } from './row-context.ts';

/** The command a request would run (`rawInput.command`: a string, or an argument list), if it names one. */
function commandOf(rawInput: unknown): string | undefined {
  const command = (rawInput as { command?: unknown } | null | undefined)?.command;
  if (typeof command === 'string') return command;
  if (Array.isArray(command) && command.every((c) => typeof c === 'string')) return command.join(' ');
  return undefined;
}

/** Whether the permission of `row` can still be answered here. */
export function permissionOpen(row: PermissionRow, ctx: RowContext): boolean {
  const r = row.record;
  const live = ctx.permission(r.id);
  return !r.resolution && !ctx.promptState(r.id).chosen && live !== undefined && !live.signal.aborted;
}

/** The option a key chooses: the first of kind `exact`, else the first whose kind starts with `prefix`. */
function optionFor(options: readonly AgentPermissionOption[], exact: string, prefix: string) {
  return options.find((o) => o.kind === exact) ?? options.find((o) => o.kind.startsWith(prefix));
}

/** The prompt itself (no row around it); `inCard` when its tool call's card holds it. */
export function permissionPrompt(row: PermissionRow, ctx: RowContext, inCard = false): TemplateResult {
  const s = ctx.strings;
  const r = row.record;
  const live = ctx.permission(r.id);
  const state = ctx.promptState(r.id);
  const title = clipLabel(r.toolCall?.title || live?.toolCall.title || s.untitledTool);
  const options = r.options ?? live?.options ?? [];
  const chosenId = r.resolution === 'selected' ? r.optionId : state.chosen;
  const chosen = options.find((o) => o.optionId === chosenId);
  const open = permissionOpen(row, ctx);
  let outcome: TemplateResult | typeof nothing = nothing;
  if (chosenId !== undefined) outcome = html`${s.permissionChosen(chosen?.name ?? chosenId)}`;
  else if (r.resolution === 'cancelled') outcome = html`${s.permissionCancelled}`;
  else if (r.resolution === 'unanswerable' || live?.signal.aborted)
    outcome = html`${s.permissionUnanswerable}`;
  else if (!live) outcome = html`${s.permissionUnanswered}`;
  const primary = optionFor(options, 'allow_once', 'allow');
  // What will run, when the request names a command (its diffs are in the card, or below in a row).
  const command = commandOf(r.toolCall?.rawInput ?? live?.toolCall.rawInput);
  const onKeydown = (e: KeyboardEvent) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const key = e.key.toLowerCase();
    if (e.key === 'Escape' && !e.shiftKey) {
      const card = e.currentTarget as HTMLElement;
      const reject =
        card.querySelector<HTMLButtonElement>('button[data-kind="reject_once"]:not([disabled])') ??
        card.querySelector<HTMLButtonElement>('button.reject:not([disabled])');
      if (!reject) return;
      e.preventDefault();
      e.stopPropagation();
      reject.focus();
    } else if ((key === 'y' || key === 'n') && !e.shiftKey && live && !state.busy) {
      const option =
        key === 'y' ? optionFor(options, 'allow_once', 'allow') : optionFor(options, 'reject_once', 'reject');
      if (!option) return;
      e.preventDefault();
      e.stopPropagation();
      ctx.choose(live, option.optionId);
    }
  };
  return html`<div
    class="card prompt permission ${open ? 'open' : ''} ${inCard ? 'in-card' : ''}"
    part="permission-prompt"
    role="group"
    aria-label=${s.permissionAsk(title)}
    aria-keyshortcuts=${open ? 'Y N Escape' : nothing}
    data-prompt=${r.id}
    ?data-pending=${open}
    tabindex="-1"
    @keydown=${open ? onKeydown : nothing}
  >
    <div class="ask">${s.permissionAsk(title)}</div>
    ${
      open && command !== undefined
        ? html`<pre class="preview output" part="permission-command" tabindex="0"><code>${command.length > PLAIN_SHOWN ? plainText(`p:${r.id}#command`, command, s, ctx.locale) : highlightedText(command, 'bash')}</code></pre>`
        : nothing
    }
    ${
      open
        ? html`<div class="options" part="permission-options">
            ${options.map(
              (o) => html`<button
                type="button"
                part="permission-option"
                class="${o.kind.startsWith('allow') ? 'allow' : 'reject'} ${o === primary ? 'primary' : ''}"
                data-option=${o.optionId}
                data-kind=${o.kind}
                ?disabled=${state.busy}
                @click=${() => live && ctx.choose(live, o.optionId)}
              >
                ${clipLabel(String(o.name))}
              </button>`,
            )}
          </div>
          <div class="keys muted" part="permission-keys">${s.permissionKeys}</div>`
        : html`<div class="resolution" part="permission-resolution">${outcome}</div>`
    }
    ${state.error ? html`<div class="error" role="alert">${s.permissionFailed(state.error)}</div>` : nothing}
  </div>`;
}

/** A permission with no tool card to hold it: a row of its own. */
export function permissionRow(row: PermissionRow, index: number, ctx: RowContext): TemplateResult {
  return html`<div class="row" data-index=${index} data-key=${row.key} tabindex="-1" role="article" aria-posinset=${index + 1 || nothing} aria-setsize=${ctx.rowCount} part="row permission">
    ${permissionPrompt(row, ctx)}
  </div>`;
}
