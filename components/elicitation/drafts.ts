/**
 * The answers typed into each live question so far, the field last focused and whether focus is still
 * in it, shared by every `<silo-elicitation>` that shows the question: a virtualized row is created
 * anew when it scrolls back into view (or its source is reloaded), and the new element takes the draft
 * over, so the swap never throws away typed text or moves the caret elsewhere. Drafts live as long as
 * their request object.
 * @packageDocumentation
 */
import type { AgentElicitationAnswer, AgentElicitationRequest } from '../../src/index.ts';

/** What one question's elements share. */
export interface ElicitationDraft {
  values: Record<string, AgentElicitationAnswer>;
  /** The `data-question` id of the field focused last. */
  field?: string;
  /** Whether focus was in the question when its element went away (removal fires no focusout). */
  focused?: boolean;
}

const drafts = new WeakMap<AgentElicitationRequest, ElicitationDraft>();

/** The draft of a request, if an element showed it before. */
export function draftOf(request: AgentElicitationRequest | undefined): ElicitationDraft | undefined {
  return request ? drafts.get(request) : undefined;
}

/** Starts the draft of a request an element shows for the first time. */
export function startDraft(
  request: AgentElicitationRequest,
  values: Record<string, AgentElicitationAnswer>,
): void {
  drafts.set(request, { values });
}

/**
 * Follows focus in a question's shadow root for its draft: the field focused last, and whether focus
 * is inside. On the shadow root, because moves between its own fields do not reach the host.
 */
export function trackDraftFocus(root: ShadowRoot, active: () => AgentElicitationRequest | undefined): void {
  root.addEventListener('focusin', (e) => {
    const draft = draftOf(active());
    if (!draft) return;
    const from = e.composedPath()[0];
    const field = from instanceof Element ? from.closest('[data-question]') : null;
    draft.focused = true;
    if (field) draft.field = field.getAttribute('data-question') ?? undefined;
  });
  root.addEventListener('focusout', () => {
    const draft = draftOf(active());
    if (draft) draft.focused = false;
  });
}

/** The input of the field focused last in this question's draft, if it is still shown. */
export function draftFocusTarget(
  root: ShadowRoot,
  request: AgentElicitationRequest | undefined,
): HTMLElement | null {
  const field = draftOf(request)?.field;
  if (field === undefined) return null;
  return root.querySelector<HTMLElement>(
    `[data-question="${CSS.escape(field)}"] :is(input, select, textarea)`,
  );
}
