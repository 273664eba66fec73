/**
 * The worker's live copy of a session's state (title, usage, commands, config options, legacy mode):
 * a holder around the pure reducer in `src/session-state.ts`, the same one the transcript model uses.
 */

import { isObject } from '../src/json.ts';
import {
  configOptionsOf,
  EMPTY_SESSION_STATE,
  reduceSessionState,
  type SessionState,
  withMode,
  withModel,
  withSessionResponse,
} from '../src/session-state.ts';
import type { AgentSessionConfigOption, AgentSessionSnapshot, AgentSessionUpdate } from '../src/types.ts';
import { modeUpdateMarker } from './replay-shape.ts';

/** Session state as the worker's snapshot shows it. Every change goes through the reducer. */
export class LiveSessionState {
  current: SessionState = EMPTY_SESSION_STATE;
  /** The title the user gave the session (`rename`): it wins over the reducer's. */
  userTitle: string | undefined;

  /** The title the page shows: the user's, else the agent's or the first prompt's. */
  get title(): string | undefined {
    return this.userTitle ?? this.current.title;
  }

  /** Config options plus the mode option (dropped when a config option already covers modes). */
  get options(): AgentSessionConfigOption[] {
    return configOptionsOf(this.current);
  }

  /** Applies one normalized update; returns the new title when it set one (to be remembered). */
  apply(update: AgentSessionUpdate): string | undefined {
    const before = this.current.title;
    this.current = stateAfter(this.current, update);
    const title = this.current.title;
    return title !== undefined && title !== before ? title : undefined;
  }

  /**
   * Takes the state a session's journal folds to (worker/journal-fold.ts), when the session is bound:
   * what was held before (a reconnect's, a response's) is replaced; the agent's config options and
   * modes come from the response that follows. The session record's title names the session unless
   * an update of the journal named it or cleared its name (`titled`); the user's title stays first.
   */
  restore(
    state: SessionState,
    titled: boolean,
    record: { readonly title?: string; readonly userTitle?: string },
  ): void {
    this.userTitle = record.userTitle;
    if (titled || record.title === undefined) this.current = state;
    else {
      const { titleFrom: _, ...rest } = state;
      this.current = { ...rest, title: record.title };
    }
  }

  /** Applies a session response (`session/new`, `load`, `resume`, `set_config_option`). */
  applyResponse(response: unknown): void {
    this.current = withSessionResponse(this.current, response);
  }

  find(id: string): AgentSessionConfigOption | undefined {
    return this.options.find((o) => o.id === id);
  }

  /** Records a value the agent accepted for a legacy mode. */
  setMode(value: string): void {
    this.current = withMode(this.current, value);
  }

  /** Records a model the agent accepted through `session/set_model`. */
  setModel(value: string): void {
    this.current = withModel(this.current, value);
  }

  /**
   * What the journal remembered of the session: its title (shown before any update says otherwise)
   * and the one the user gave it.
   */
  remember(record: { readonly title?: string; readonly userTitle?: string }): void {
    if (record.title) this.current = { ...this.current, title: record.title };
    this.userTitle = record.userTitle;
  }

  /** What a follower copies from the owner's snapshot (its title is the user's when they gave one). */
  mirror(snapshot: AgentSessionSnapshot): void {
    this.userTitle = undefined;
    const { title: _, usage: __, tokens: ___, ...rest } = this.current;
    this.current = {
      ...rest,
      ...(snapshot.agentInfo.title !== undefined ? { title: snapshot.agentInfo.title } : {}),
      ...(snapshot.usage ? { usage: snapshot.usage } : {}),
      ...(snapshot.tokens ? { tokens: snapshot.tokens } : {}),
      commands: [...snapshot.availableCommands],
    };
  }
}

/**
 * The session state after one more normalized update: the reducer's, and Gemini CLI's mode marker
 * (journaled as a `current_mode_update` whose raw is the agent's text).
 */
export function stateAfter(state: SessionState, update: AgentSessionUpdate): SessionState {
  const next = reduceSessionState(state, update);
  const marker =
    update.kind === 'current_mode_update' && isObject(update.raw) ? modeUpdateMarker(update.raw) : undefined;
  return marker === undefined ? next : withMode(next, marker);
}
