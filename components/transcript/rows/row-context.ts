/**
 * What the row templates (rows.ts, tool-card.ts, permission-prompt.ts) need from their element, in a
 * module of its own so that those templates import it and not one another in a circle. Types only.
 * @packageDocumentation
 */
import type { TemplateResult } from 'lit';
import type {
  AgentContentBlock,
  AgentElicitationRequest,
  AgentPermissionRequest,
} from '../../../src/index.ts';
import type { SiloTranscriptStrings } from '../../shared/strings/strings.ts';

/** Local state of a live permission prompt. */
export interface PromptState {
  busy?: boolean;
  chosen?: string;
  error?: string;
}

/** What row templates need from their element. */
export interface RowContext {
  readonly strings: SiloTranscriptStrings;
  readonly locale: string | undefined;
  /** How many rows the log holds (each row's `aria-setsize` in the feed). */
  readonly rowCount: number;
  permission(id: string): AgentPermissionRequest | undefined;
  elicitation(id: string): AgentElicitationRequest | undefined;
  promptState(id: string): PromptState;
  choose(request: AgentPermissionRequest, optionId: string): void;
  /** "Branch from here" on a turn's end (absent: not offered). */
  branch?(turn: number): void;
  /** What can be done with the turn this turn-end row ends (Retry, Continue), if anything. */
  turnActions(key: string, stopReason: string): readonly TurnAction[];
  /** The user chose `action` on the last turn's end. */
  turnAction(action: TurnAction): void;
}

/** What the last turn's end offers: its prompt again, or going on after the token limit. */
export type TurnAction = 'retry' | 'continue';

/** Renders a content block (text, image, resource…) the way messages do; `key` names it (a row's key and part). */
export type BlockRenderer = (
  b: AgentContentBlock,
  owner: object,
  ctx: RowContext,
  key: string,
) => TemplateResult;
