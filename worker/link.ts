/**
 * One ACP connection to the agent through the bridge: the SDK's `client()` app over the tapped
 * WebSocket stream, `initialize` with the capabilities Silo implements, and the protocol-version check.
 * Updates never reach the SDK: the tap hands them to the {@link LinkHost} in wire order.
 */
import {
  type AnyMessage,
  type ClientConnection,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  client,
  type InitializeResponse,
  methods,
  PROTOCOL_VERSION,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import { AGENT_EXITED_METHOD, CLOSE_AGENT_EXITED, CLOSE_AGENT_LIMIT } from '../bridge/protocol.ts';
import { SiloError } from '../src/errors.ts';
import type { AgentBridgeOptions } from '../src/types.ts';
import { openBridge, type SocketEnd } from './transport.ts';

/** What a link reports to its session. Tap callbacks run synchronously, in wire order. */
export interface LinkHost {
  /** A `session/update` notification's params (unvalidated). */
  onUpdate(params: Record<string, unknown>): void;
  /** An agent→client request or notification other than updates, seen by the tap before the SDK. */
  onInbound(message: AnyMessage): void;
  /** A response the client sends to one of the agent's requests. */
  onOutboundResponse(id: string | number, message: AnyMessage): void;
  permission(
    id: string | number,
    params: RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse>;
  elicitation(
    id: string | number,
    params: CreateElicitationRequest,
    signal: AbortSignal,
  ): Promise<CreateElicitationResponse>;
}

/** Why a link ended. */
export interface LinkEnd {
  readonly error: SiloError;
  readonly socket?: SocketEnd;
  readonly agentExit?: {
    readonly code: number | null;
    readonly signal: string | null;
    readonly reason?: string;
    readonly stderr?: string;
  };
}

/**
 * The capabilities Silo implements and advertises; nothing else (no fs, no `terminal/*` methods).
 * - `_meta.terminal_output` / `terminal_output_delta`: Silo draws a command's output from a tool
 *   call's `_meta` (`terminal_info`, `terminal_output` replacing, `terminal_output_delta`
 *   appending, `terminal_exit`). With both, claude-agent-acp and codex-acp stream appends (Codex's
 *   `terminal_output` alone would carry appends too, which Claude's means to replace): docs/agents.md.
 * - `_meta["subagent-transcript"]`: claude-agent-acp sends its subagents' whole transcript (text,
 *   thoughts, tool calls, each stamped `_meta.claudeCode.parentToolUseId`) in the session, and
 *   replays it on `session/load`; Silo draws it inside the Task card. Not `subagents` (ACP child
 *   sessions): Claude then hides the Task call and leaves its subagents out of a load's replay
 *   (Silo still journals and draws child sessions an agent announces: docs/agents.md).
 */
export const CLIENT_CAPABILITIES = {
  elicitation: { form: {}, url: {} },
  session: { notices: {}, compaction: {}, configOptions: { boolean: {} } },
  _meta: { terminal_output: true, terminal_output_delta: true, 'subagent-transcript': true },
} as const;

let linkSerial = 0;

/** How long a failed `initialize` waits for the bridge's close that says why the agent ended. */
const INITIALIZE_CLOSE_GRACE_MS = 1000;

/** A live connection. Create with {@link AgentLink.open}. */
export class AgentLink {
  /** Distinguishes request ids of successive connections (agents restart ids at 0). */
  readonly serial = ++linkSerial;
  initialize!: InitializeResponse;
  readonly ended: Promise<LinkEnd>;
  private agentExit: LinkEnd['agentExit'];
  private connection!: ClientConnection;

  private constructor(
    private readonly host: LinkHost,
    bridge: AgentBridgeOptions,
  ) {
    const link = openBridge(bridge, {
      inbound: (m) => this.inbound(m),
      outbound: (m) => {
        const r = m as { id?: string | number; method?: string };
        if (r.method === undefined && r.id !== undefined && r.id !== null) host.onOutboundResponse(r.id, m);
      },
    });
    const app = client({ name: 'silo' })
      .onRequest(methods.client.session.requestPermission, ({ params, requestId, signal }) =>
        host.permission(requestId as string | number, params, signal),
      )
      .onRequest(methods.client.elicitation.create, ({ params, requestId, signal }) =>
        host.elicitation(requestId as string | number, params, signal),
      )
      .onNotification('*', () => {});
    this.connection = app.connect(link.stream);
    this.ended = Promise.all([this.connection.closed.catch(() => {}), link.ended]).then(([, socket]) =>
      this.describeEnd(socket),
    );
  }

  /**
   * Opens a connection and runs `initialize`. Rejects with `unreachable` (bridge down or refusing),
   * `protocol-version` (the agent speaks another version; the connection is closed), or `closed`.
   */
  static async open(bridge: AgentBridgeOptions, host: LinkHost): Promise<AgentLink> {
    const link = new AgentLink(host, bridge);
    try {
      link.initialize = await link.request(methods.agent.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: CLIENT_CAPABILITIES,
        clientInfo: { name: 'silo-acp', title: 'Silo', version: '0.1.0' },
      });
    } catch (error) {
      // An agent that exits before it answers leaves only the bridge's close (code and reason, see
      // bridge/protocol.ts), which follows the failed answer at once: wait briefly for it.
      const end = await Promise.race([
        link.ended,
        new Promise<undefined>((resolve) => setTimeout(resolve, INITIALIZE_CLOSE_GRACE_MS)),
      ]);
      link.close();
      const agentEnded =
        end?.agentExit || end?.socket?.code === CLOSE_AGENT_EXITED || end?.socket?.code === CLOSE_AGENT_LIMIT;
      throw agentEnded ? end.error : SiloError.from(error);
    }
    if (link.initialize.protocolVersion !== PROTOCOL_VERSION) {
      link.close();
      throw new SiloError(
        'protocol-version',
        `The agent speaks ACP version ${String(link.initialize.protocolVersion)}; Silo speaks ${PROTOCOL_VERSION}`,
        { requested: PROTOCOL_VERSION, answered: link.initialize.protocolVersion },
      );
    }
    return link;
  }

  /** Sends a request; rejects with a SiloError (the agent's code mapped, or how the link ended). */
  async request<R>(
    method: string,
    params: unknown,
    options?: { cancellationSignal?: AbortSignal; stopWaitingOnCancel?: boolean },
  ): Promise<R> {
    try {
      return (await this.connection.agent.request(method, params, options)) as R;
    } catch (error) {
      const ended = this.connection.signal.aborted ? await this.ended : undefined;
      throw ended?.error ?? SiloError.from(error);
    }
  }

  notify(method: string, params: unknown): Promise<void> {
    return this.connection.agent.notify(method, params);
  }

  /** Closes the connection (the bridge then ends the agent process). */
  close(): void {
    this.connection.close();
  }

  get closedSignal(): AbortSignal {
    return this.connection.signal;
  }

  private inbound(message: AnyMessage): boolean {
    const m = message as { method?: string; params?: unknown; id?: unknown };
    if (m.method === methods.client.session.update) {
      if (typeof m.params === 'object' && m.params !== null)
        this.host.onUpdate(m.params as Record<string, unknown>);
      return false;
    }
    if (m.method === AGENT_EXITED_METHOD) {
      const p = (m.params ?? {}) as {
        code?: number | null;
        signal?: string | null;
        reason?: string;
        stderr?: string;
      };
      this.agentExit = {
        code: p.code ?? null,
        signal: p.signal ?? null,
        ...(typeof p.reason === 'string' ? { reason: p.reason } : {}),
        ...(typeof p.stderr === 'string' ? { stderr: p.stderr.slice(0, 200) } : {}),
      };
      return false;
    }
    if (m.method !== undefined) this.host.onInbound(message);
    return true;
  }

  private describeEnd(socket: SocketEnd): LinkEnd {
    const exit = this.agentExit;
    if (exit) {
      const how = exit.reason
        ? `the bridge ended it: ${exit.reason}`
        : exit.signal
          ? `signal ${exit.signal}`
          : `code ${exit.code}`;
      const stderr = exit.stderr ? `: ${exit.stderr}` : '';
      return {
        socket,
        agentExit: exit,
        error: SiloError.closed(`The agent exited (${how})${stderr}`, { ...exit, ...socket }),
      };
    }
    if (socket.code === CLOSE_AGENT_EXITED || socket.code === CLOSE_AGENT_LIMIT) {
      // No notification (the agent ended before answering `initialize`): the close reason says how,
      // e.g. "agent exited with code 3: <its last stderr line>".
      return {
        socket,
        error: SiloError.closed(`The agent ended before it answered: ${socket.reason}`, socket),
      };
    }
    if (socket.neverOpened) {
      return {
        socket,
        error: new SiloError(
          'unreachable',
          'The bridge could not be reached or refused this page (check the URL, the token and the allowed origins)',
          socket,
        ),
      };
    }
    const reason = socket.reason ? `: ${socket.reason}` : '';
    return {
      socket,
      error: SiloError.closed(`The connection to the bridge closed (${socket.code}${reason})`, socket),
    };
  }
}
