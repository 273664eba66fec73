/**
 * The reference agent, built on the SDK's `agent()` API: capabilities, sessions (new, load, resume,
 * list, close, delete — each can be switched off), modes and config options, authentication, and
 * prompt turns played by the scenario named in the prompt (`/scenario <name> [args]`). This module
 * only registers the methods; the handlers live by concern: handshake.ts (`initialize`,
 * `authenticate`), prompt.ts (the turn), session-methods.ts (the rest), sessions.ts (what they share).
 */
import { type AgentApp, agent } from '@agentclientprotocol/sdk';
import { useUrlModeIds } from './config.ts';
import { AGENT_INFO, authenticate, initialize } from './handshake.ts';
import { parseSteer } from './mid-turn.ts';
import type { AgentOptions } from './options.ts';
import { cancel, prompt, steer } from './prompt.ts';
import {
  closeSession,
  deleteSession,
  forkSession,
  listSessions,
  loadSession,
  newSession,
  parseFork,
  parseSetModel,
  resumeSession,
  setSessionConfigOption,
  setSessionMode,
  setSessionModel,
} from './session-methods.ts';
import { Sessions } from './sessions.ts';
import type { RawWriter } from './turn.ts';

/** Creates the agent app for one connection (one process over stdio). */
export function createReferenceAgent(options: AgentOptions, rawWriter: RawWriter): AgentApp {
  useUrlModeIds(options.urlModeIds);
  const sessions = new Sessions(options);

  let app = agent({ name: AGENT_INFO.name })
    .onRequest('initialize', (cx) => initialize(sessions, cx))
    .onRequest('authenticate', (cx) => authenticate(sessions, cx))
    .onRequest('session/new', (cx) => newSession(sessions, cx))
    .onRequest('session/prompt', (cx) => prompt(sessions, rawWriter, cx))
    .onNotification('session/cancel', (cx) => cancel(sessions, cx))
    .onRequest('session/set_mode', (cx) => setSessionMode(sessions, cx))
    .onRequest('session/set_model', parseSetModel, (cx) => setSessionModel(sessions, cx))
    .onRequest('session/set_config_option', (cx) => setSessionConfigOption(sessions, cx));

  if (options.fork) app = app.onRequest('session/fork', parseFork, (cx) => forkSession(sessions, cx));
  if (options.steering) app = app.onRequest('_session/steering', parseSteer, (cx) => steer(sessions, cx));
  if (options.loadSession) app = app.onRequest('session/load', (cx) => loadSession(sessions, cx));
  if (options.resume) app = app.onRequest('session/resume', (cx) => resumeSession(sessions, cx));
  if (options.list) app = app.onRequest('session/list', (cx) => listSessions(sessions, cx));
  if (options.close) app = app.onRequest('session/close', (cx) => closeSession(sessions, cx));
  if (options.delete) app = app.onRequest('session/delete', (cx) => deleteSession(sessions, cx));
  return app;
}
