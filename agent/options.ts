/**
 * Options of the reference agent. Every optional behaviour can be switched off, by flag or by
 * environment variable, so tests can force each path a client must handle.
 *
 * | flag | env | effect |
 * |---|---|---|
 * | `--no-load` | `SILO_AGENT_NO_LOAD=1` | no `loadSession` capability, no `session/load` handler |
 * | `--no-resume` | `SILO_AGENT_NO_RESUME=1` | no `sessionCapabilities.resume` |
 * | `--no-list` | `SILO_AGENT_NO_LIST=1` | no `sessionCapabilities.list` |
 * | `--no-close` | `SILO_AGENT_NO_CLOSE=1` | no `sessionCapabilities.close` |
 * | `--no-delete` | `SILO_AGENT_NO_DELETE=1` | no `sessionCapabilities.delete` |
 * | `--no-message-id` | `SILO_AGENT_NO_MESSAGE_ID=1` | chunks carry no `messageId`, live or in a `session/load` replay |
 * | `--interrupt-marker` | `SILO_AGENT_INTERRUPT_MARKER=1` | a cancelled turn leaves a `[Request interrupted by user]` user message in the history (as claude-agent-acp's does) |
 * | `--new-ids-on-load` | `SILO_AGENT_NEW_IDS_ON_LOAD=1` | `session/load` replays with fresh messageIds |
 * | `--sessions-dir DIR` | `SILO_AGENT_SESSIONS_DIR` | where sessions are kept (default `.silo-agent-sessions`) |
 * | `--protocol-version N` | `SILO_AGENT_PROTOCOL_VERSION` | answer `initialize` with version N instead of the client's |
 * | `--auth-required` | `SILO_AGENT_AUTH_REQUIRED=1` | `session/new`, `load` and `resume` fail with -32000 until `authenticate` (`reference-login`, or `reference-key` when `SILO_REFERENCE_API_KEY` is set) |
 * | `--list-page-size N` | `SILO_AGENT_LIST_PAGE_SIZE` | sessions per `session/list` page (default 50) |
 * | `--log-before-init` | `SILO_AGENT_LOG_BEFORE_INIT=1` | send a notification before the initialize response |
 * | `--reuse-tool-call-ids` | `SILO_AGENT_REUSE_TOOL_CALL_IDS=1` | a scenario run twice in a session reuses its tool-call ids |
 * | `--echo-prompt` | `SILO_AGENT_ECHO_PROMPT=1` | echo the prompt as `user_message_chunk`s before answering |
 * | `--string-request-ids` | `SILO_AGENT_STRING_REQUEST_IDS=1` | the agent's own requests (permissions, questions) carry string (UUID) JSON-RPC ids, as codex-acp's do |
 * | `--models` | `SILO_AGENT_MODELS=1` | session responses carry the unstable `models` field (as Gemini CLI's do) and no `model` config option |
 * | `--usage-shape AGENT` | `SILO_AGENT_USAGE_SHAPE` | every turn reports its usage as `claude`, `codex`, `gemini`, `qwen`, `copilot` or `opencode` does (agent/usage-shapes.ts) |
 * | `--usage-in-meta` | `SILO_AGENT_USAGE_IN_META=1` | the same as `--usage-shape gemini`: usage only in the prompt response's `_meta.quota` |
 * | `--replay-after-load-response` | `SILO_AGENT_REPLAY_AFTER_LOAD_RESPONSE=1` | `session/load` answers after the first replayed update; the rest of the replay follows the response (as Gemini CLI's does) |
 * | `--replay-shape codex\|gemini\|qwen\|copilot\|claude\|claude-0.23\|opencode` | `SILO_AGENT_REPLAY_SHAPE` | `session/load` replays the history shaped as that agent replays its own, and the agent behaves live as that one does where it differs (agent/replay-shape.ts) |
 * | `--commands-after-load` | `SILO_AGENT_COMMANDS_AFTER_LOAD=1` | `available_commands_update` right after every `session/load` and `session/resume` response (as claude-agent-acp's) |
 * | `--exclusive-sessions` | `SILO_AGENT_EXCLUSIVE_SESSIONS=1` | a session another live agent process has open cannot be loaded or resumed: -32600 "This session is in use by another client…", `data.reason: "thread_active_writer"` (as the current codex-acp) |
 * | `--auth-hang` | `SILO_AGENT_AUTH_HANG=1` | with `--auth-required`: `authenticate` with `reference-login` is never answered (as Cline's OAuth methods) |
 * | `--mode-update-marker` | `SILO_AGENT_MODE_UPDATE_MARKER=1` | a mode change is announced, after the response, as an `agent_message_chunk` `[MODE_UPDATE] <modeId>` (as Gemini CLI's is) instead of `current_mode_update` |
 * | `--close-delay-ms N` | `SILO_AGENT_CLOSE_DELAY_MS` | `session/close` is answered N ms after it arrives (default 0; an agent slow to let a session go) |
 * | `--late-replay-ms N` | `SILO_AGENT_LATE_REPLAY_MS` | with `--replay-after-load-response`: the rest of the replay starts N ms after the response (default 0) |
 * | `--forget-mode` | `SILO_AGENT_FORGET_MODE=1` | `session/load` and `session/resume` bring the session back with the default mode and model, not the ones last chosen (as codex-acp does) |
 * | `--no-title` | `SILO_AGENT_NO_TITLE=1` | the `default` scenario never sends `session_info_update` (Codex never names a session) |
 * | `--prompt-capabilities LIST` | `SILO_AGENT_PROMPT_CAPABILITIES` | the `promptCapabilities` it announces and enforces: a comma list of `image`, `audio`, `embeddedContext`, or `none` (default `image,embeddedContext`); a prompt with a block it does not allow fails with -32602 |
 * | `--steering` | `SILO_AGENT_STEERING=1` | `initialize` answers `_meta.steering.supported`; `_session/steering` hands a message to the running turn (agent/mid-turn.ts; claude-agent-acp 0.101, codex-acp 2.6) |
 * | `--prompt-queueing` | `SILO_AGENT_PROMPT_QUEUEING=1` | `agentCapabilities._meta.claudeCode.promptQueueing`; a prompt during a turn runs after it (claude-agent-acp 0.23) |
 * | `--url-mode-ids` | `SILO_AGENT_URL_MODE_IDS=1` | mode ids are URLs (`https://agentclientprotocol.com/protocol/session-modes#ask`), as Copilot CLI's are |
 * | `--thread-status` | `SILO_AGENT_THREAD_STATUS=1` | say what the session is doing as codex-acp 2.6 does: `session_info_update._meta.codex.threadStatus` (active, `waitingOnApproval` while a permission is asked, idle; agent/thread-status.ts) |
 * | `--fork` | `SILO_AGENT_FORK=1` | `sessionCapabilities.fork`: `session/fork` copies the whole session under a new id (as claude-agent-acp and OpenCode do) |
 * | `--fork-replay` | `SILO_AGENT_FORK_REPLAY=1` | with `--fork`: the fork's history is replayed as updates of the new session before the answer (as OpenCode does) |
 * | `--calls-log` | `SILO_AGENT_CALLS_LOG=1` | append `<method> <sessionId>` to `<sessions-dir>/calls.log` for every request and notification the client sends (agent/calls-log.ts) |
 * | `--hold-init` | `SILO_AGENT_HOLD_INIT=1` | answer `initialize` only once the process gets `SIGUSR2`, after writing `HOLD_INIT_LINE` on stderr (a test holds a client in "connecting" for as long as it needs) |
 * | `--sent-log` | `SILO_AGENT_SENT_LOG=1` | number every scenario update (`_meta["silo/sent"]`, `<pid>-<n>`) and, once its line is in the stdout pipe, append `<sessionId> <number>` to `<sessions-dir>/sent.log` — what tests measure loss against |
 *
 * Like every agent built on the SDK, its JSON-RPC request ids (permission requests, questions) start
 * at 0 in every process: a client cannot tell requests of two processes apart by their ids.
 */
import { resolve } from 'node:path';
import { REPLAY_SHAPES, type ReplayShape } from './replay-shape.ts';
import { USAGE_SHAPES, type UsageShape } from './usage-shapes.ts';

export interface AgentOptions {
  loadSession: boolean;
  resume: boolean;
  list: boolean;
  close: boolean;
  delete: boolean;
  messageId: boolean;
  newIdsOnLoad: boolean;
  interruptMarker: boolean;
  sessionsDir: string;
  protocolVersion: number | undefined;
  authRequired: boolean;
  listPageSize: number;
  logBeforeInit: boolean;
  holdInit: boolean;
  reuseToolCallIds: boolean;
  echoPrompt: boolean;
  sentLog: boolean;
  callsLog: boolean;
  steering: boolean;
  promptQueueing: boolean;
  urlModeIds: boolean;
  threadStatus: boolean;
  fork: boolean;
  forkReplay: boolean;
  stringRequestIds: boolean;
  models: boolean;
  usageShape: UsageShape | undefined;
  replayAfterLoadResponse: boolean;
  forgetMode: boolean;
  title: boolean;
  replayShape: ReplayShape | undefined;
  lateReplayMs: number;
  closeDelayMs: number;
  modeUpdateMarker: boolean;
  promptCapabilities: PromptCapabilityFlags;
  commandsAfterLoad: boolean;
  exclusiveSessions: boolean;
  authHang: boolean;
}

/** What the agent accepts in a prompt besides text and resource links (ACP `promptCapabilities`). */
export interface PromptCapabilityFlags {
  image: boolean;
  audio: boolean;
  embeddedContext: boolean;
}

function promptCapabilities(value: string | undefined): PromptCapabilityFlags {
  const caps = { image: false, audio: false, embeddedContext: false };
  if (value === undefined) throw new AgentUsageError('--prompt-capabilities needs a list');
  for (const name of value.split(',').map((v) => v.trim())) {
    if (name === 'none' || name === '') continue;
    if (!(name in caps))
      throw new AgentUsageError(
        `--prompt-capabilities: unknown capability ${name} (image, audio, embeddedContext, none)`,
      );
    caps[name as keyof PromptCapabilityFlags] = true;
  }
  return caps;
}

/** An unknown flag or a bad value; the message is for the user. */
export class AgentUsageError extends Error {
  override readonly name = 'AgentUsageError';
}

const truthy = (v: string | undefined) => v !== undefined && v !== '' && v !== '0' && v !== 'false';

function shapeValue(name: string, value: string | undefined): ReplayShape {
  if (!REPLAY_SHAPES.includes(value as ReplayShape))
    throw new AgentUsageError(`${name} needs one of ${REPLAY_SHAPES.join(', ')}`);
  return value as ReplayShape;
}

function oneOf<T extends string>(name: string, value: string | undefined, values: readonly T[]): T {
  if (!values.includes(value as T)) throw new AgentUsageError(`${name} needs one of ${values.join(', ')}`);
  return value as T;
}

function intValue(name: string, value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || !Number.isSafeInteger(n) || n < 0)
    throw new AgentUsageError(`${name} needs an integer`);
  return n;
}

/** Parses flags (after `node agent/cli.ts`) over environment defaults. Throws {@link AgentUsageError}. */
export function parseAgentArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): AgentOptions {
  const o: AgentOptions = {
    loadSession: !truthy(env.SILO_AGENT_NO_LOAD),
    resume: !truthy(env.SILO_AGENT_NO_RESUME),
    list: !truthy(env.SILO_AGENT_NO_LIST),
    close: !truthy(env.SILO_AGENT_NO_CLOSE),
    delete: !truthy(env.SILO_AGENT_NO_DELETE),
    messageId: !truthy(env.SILO_AGENT_NO_MESSAGE_ID),
    newIdsOnLoad: truthy(env.SILO_AGENT_NEW_IDS_ON_LOAD),
    interruptMarker: truthy(env.SILO_AGENT_INTERRUPT_MARKER),
    sessionsDir: env.SILO_AGENT_SESSIONS_DIR || '.silo-agent-sessions',
    protocolVersion: env.SILO_AGENT_PROTOCOL_VERSION
      ? intValue('SILO_AGENT_PROTOCOL_VERSION', env.SILO_AGENT_PROTOCOL_VERSION)
      : undefined,
    authRequired: truthy(env.SILO_AGENT_AUTH_REQUIRED),
    listPageSize: env.SILO_AGENT_LIST_PAGE_SIZE
      ? intValue('SILO_AGENT_LIST_PAGE_SIZE', env.SILO_AGENT_LIST_PAGE_SIZE)
      : 50,
    logBeforeInit: truthy(env.SILO_AGENT_LOG_BEFORE_INIT),
    holdInit: truthy(env.SILO_AGENT_HOLD_INIT),
    reuseToolCallIds: truthy(env.SILO_AGENT_REUSE_TOOL_CALL_IDS),
    echoPrompt: truthy(env.SILO_AGENT_ECHO_PROMPT),
    sentLog: truthy(env.SILO_AGENT_SENT_LOG),
    callsLog: truthy(env.SILO_AGENT_CALLS_LOG),
    steering: truthy(env.SILO_AGENT_STEERING),
    promptQueueing: truthy(env.SILO_AGENT_PROMPT_QUEUEING),
    urlModeIds: truthy(env.SILO_AGENT_URL_MODE_IDS),
    threadStatus: truthy(env.SILO_AGENT_THREAD_STATUS),
    fork: truthy(env.SILO_AGENT_FORK),
    forkReplay: truthy(env.SILO_AGENT_FORK_REPLAY),
    stringRequestIds: truthy(env.SILO_AGENT_STRING_REQUEST_IDS),
    models: truthy(env.SILO_AGENT_MODELS),
    usageShape: env.SILO_AGENT_USAGE_SHAPE
      ? oneOf('SILO_AGENT_USAGE_SHAPE', env.SILO_AGENT_USAGE_SHAPE, USAGE_SHAPES)
      : truthy(env.SILO_AGENT_USAGE_IN_META)
        ? 'gemini'
        : undefined,
    replayAfterLoadResponse: truthy(env.SILO_AGENT_REPLAY_AFTER_LOAD_RESPONSE),
    forgetMode: truthy(env.SILO_AGENT_FORGET_MODE),
    title: !truthy(env.SILO_AGENT_NO_TITLE),
    replayShape: env.SILO_AGENT_REPLAY_SHAPE
      ? shapeValue('SILO_AGENT_REPLAY_SHAPE', env.SILO_AGENT_REPLAY_SHAPE)
      : undefined,
    modeUpdateMarker: truthy(env.SILO_AGENT_MODE_UPDATE_MARKER),
    closeDelayMs: env.SILO_AGENT_CLOSE_DELAY_MS
      ? intValue('SILO_AGENT_CLOSE_DELAY_MS', env.SILO_AGENT_CLOSE_DELAY_MS)
      : 0,
    lateReplayMs: env.SILO_AGENT_LATE_REPLAY_MS
      ? intValue('SILO_AGENT_LATE_REPLAY_MS', env.SILO_AGENT_LATE_REPLAY_MS)
      : 0,
    promptCapabilities: promptCapabilities(env.SILO_AGENT_PROMPT_CAPABILITIES ?? 'image,embeddedContext'),
    commandsAfterLoad: truthy(env.SILO_AGENT_COMMANDS_AFTER_LOAD),
    exclusiveSessions: truthy(env.SILO_AGENT_EXCLUSIVE_SESSIONS),
    authHang: truthy(env.SILO_AGENT_AUTH_HANG),
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    switch (flag) {
      case '--no-load':
        o.loadSession = false;
        break;
      case '--no-resume':
        o.resume = false;
        break;
      case '--no-list':
        o.list = false;
        break;
      case '--no-close':
        o.close = false;
        break;
      case '--no-delete':
        o.delete = false;
        break;
      case '--no-message-id':
        o.messageId = false;
        break;
      case '--new-ids-on-load':
        o.newIdsOnLoad = true;
        break;
      case '--interrupt-marker':
        o.interruptMarker = true;
        break;
      case '--sessions-dir':
        o.sessionsDir = argv[++i] ?? '';
        if (!o.sessionsDir) throw new AgentUsageError('--sessions-dir needs a directory');
        break;
      case '--protocol-version':
        o.protocolVersion = intValue(flag, argv[++i]);
        break;
      case '--auth-required':
        o.authRequired = true;
        break;
      case '--list-page-size':
        o.listPageSize = Math.max(1, intValue(flag, argv[++i]));
        break;
      case '--log-before-init':
        o.logBeforeInit = true;
        break;
      case '--hold-init':
        o.holdInit = true;
        break;
      case '--reuse-tool-call-ids':
        o.reuseToolCallIds = true;
        break;
      case '--echo-prompt':
        o.echoPrompt = true;
        break;
      case '--sent-log':
        o.sentLog = true;
        break;
      case '--calls-log':
        o.callsLog = true;
        break;
      case '--steering':
        o.steering = true;
        break;
      case '--prompt-queueing':
        o.promptQueueing = true;
        break;
      case '--url-mode-ids':
        o.urlModeIds = true;
        break;
      case '--thread-status':
        o.threadStatus = true;
        break;
      case '--fork':
        o.fork = true;
        break;
      case '--fork-replay':
        o.forkReplay = true;
        break;
      case '--string-request-ids':
        o.stringRequestIds = true;
        break;
      case '--models':
        o.models = true;
        break;
      case '--usage-in-meta':
        o.usageShape = 'gemini';
        break;
      case '--usage-shape':
        o.usageShape = oneOf(flag, argv[++i], USAGE_SHAPES);
        break;
      case '--replay-after-load-response':
        o.replayAfterLoadResponse = true;
        break;
      case '--no-title':
        o.title = false;
        break;
      case '--prompt-capabilities':
        o.promptCapabilities = promptCapabilities(argv[++i]);
        break;
      case '--forget-mode':
        o.forgetMode = true;
        break;
      case '--replay-shape':
        o.replayShape = shapeValue(flag, argv[++i]);
        break;
      case '--close-delay-ms':
        o.closeDelayMs = intValue(flag, argv[++i]);
        break;
      case '--late-replay-ms':
        o.lateReplayMs = intValue(flag, argv[++i]);
        break;
      case '--mode-update-marker':
        o.modeUpdateMarker = true;
        break;
      case '--commands-after-load':
        o.commandsAfterLoad = true;
        break;
      case '--exclusive-sessions':
        o.exclusiveSessions = true;
        break;
      case '--auth-hang':
        o.authHang = true;
        break;
      default:
        throw new AgentUsageError(`unknown option ${flag}`);
    }
  }
  o.sessionsDir = resolve(o.sessionsDir);
  return o;
}
