/**
 * The request ledger of one session: the interactive requests the agent makes (permissions and
 * questions). It gives each one an id unique in the session's journal for the session's whole life,
 * normalizes each request once, journals the request and how it ended in wire order, shows it to the
 * page while it can be answered — only once the commit that holds its row has been delivered, so the
 * page always has a request's row before the request itself — and settles it exactly once (answered,
 * cancelled with the turn, or unanswerable when its connection or its page went away).
 *
 * What the page is shown and how its answers become the agent's responses is worker/live-requests.ts;
 * each end as it is journaled is worker/request-ends.ts.
 */
import type {
  AnyMessage,
  CreateElicitationRequest,
  CreateElicitationResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { type NormalizedElicitation, normalizeElicitation, toRecord } from '../src/elicitation/model.ts';
import { SiloError } from '../src/errors.ts';
import type { Raw } from '../src/json.ts';
import type { AgentSessionUpdate, AgentToolCall, PermissionOption } from '../src/types.ts';
import type { ElicitationAction } from '../src/worker-api.ts';
import type { OpenRequest } from './journal-fold.ts';
import {
  CANCELLED_ELICITATION,
  CANCELLED_PERMISSION,
  elicitationResponse,
  elicitationWire,
  type LiveRequest,
  permissionResponse,
  permissionWire,
  type RequestDelivery,
} from './live-requests.ts';
import { normalizeToolCall } from './normalize.ts';
import { answeredEnd, type RequestEnd, unanswerableEnd } from './request-ends.ts';

/** What the ledger needs from its session. */
export interface LedgerHost {
  /**
   * Journals an update Silo records itself (synchronously assigned its place in the journal): its
   * seq, or undefined when nothing can be journaled (no writer, or a stopped one).
   */
  record(update: Omit<AgentSessionUpdate, 'seq'>): number | undefined;
  /**
   * Resolves once update `seq` is committed and its batch handed to the delivery (the page and the
   * tabs that follow get it before anything delivered later); rejects if it never will be.
   */
  committed(seq: number): Promise<void>;
  /** Where live requests are shown (the page, and the tabs that follow). */
  readonly delivery: RequestDelivery;
  /** The session's id ('' before it is known). */
  readonly sessionId: string;
  /** Whether a request of this kind may be shown to the page now (else it is answered cancelled). */
  mayAsk(kind: 'permission' | 'elicitation'): boolean;
}

/** One request the agent made over the current connection. */
interface Entry {
  readonly kind: 'permission' | 'elicitation';
  /** Silo's id: the journal rows' and the page's. */
  readonly id: string;
  /** The seq of its journaled row (undefined: not journaled, so never shown). */
  readonly seq?: number;
  readonly options?: readonly PermissionOption[];
  /** A permission's tool call, normalized once when it arrived. */
  readonly toolCall?: AgentToolCall;
  /** A question, normalized once when it arrived. */
  readonly question?: NormalizedElicitation;
  answerText?: Record<string, string>;
  /** Set once its resolution is journaled (url questions stay listed until `elicitation/complete`). */
  resolved?: boolean;
  /** What the page was shown, while it can be answered. */
  shown?: LiveRequest;
  /** While shown to the page: settles the agent's request. */
  settle?: (answer: RequestPermissionResponse | CreateElicitationResponse) => void;
  cancelled?: RequestPermissionResponse | CreateElicitationResponse;
}

/** The interactive requests of one session. Entries are keyed `${link serial}:${JSON-RPC id}`. */
export class RequestLedger {
  private readonly entries = new Map<string, Entry>();
  /** Journaled requests with no journaled resolution, in journal order (see {@link journalOpen}). */
  private open: OpenRequest[] = [];
  /** Ids this ledger gave (their ends are journaled by this ledger). */
  private readonly mine = new Set<string>();

  constructor(private readonly host: LedgerHost) {}

  /** From the tap, in wire order: journals a permission request or a question before it is handled. */
  onRequest(serial: number, id: string | number, method: string | undefined, params: Raw): void {
    const key = `${serial}:${id}`;
    if (method === 'session/request_permission') {
      const rowId = this.newId('p');
      const options = Array.isArray(params.options) ? (params.options as PermissionOption[]) : [];
      const toolCall = normalizeToolCall((params.toolCall ?? {}) as Raw, false);
      const seq = this.host.record({
        kind: 'permission',
        permission: { id: rowId, ...(toolCall ? { toolCall } : {}), options },
        raw: params,
      });
      this.entries.set(key, {
        kind: 'permission',
        id: rowId,
        seq,
        options,
        ...(toolCall ? { toolCall } : {}),
      });
    } else if (method === 'elicitation/create') {
      const question = normalizeElicitation(params, { form: true, url: true });
      if (question.invalid) {
        // Never shown nor journaled: the handler answers it -32602.
        this.entries.set(key, { kind: 'elicitation', id: '', question, resolved: true });
        return;
      }
      const rowId = this.newId('e');
      const seq = this.host.record({
        kind: 'elicitation',
        elicitation: toRecord(question, rowId),
        raw: params,
      });
      this.entries.set(key, { kind: 'elicitation', id: rowId, seq, question });
    }
  }

  /** From the tap: the client answered the agent's request `id`; journals how it ended. */
  onResponse(serial: number, id: string | number, message: AnyMessage): void {
    const key = `${serial}:${id}`;
    const entry = this.entries.get(key);
    if (!entry || entry.resolved) {
      if (entry?.id === '') this.entries.delete(key);
      return;
    }
    entry.resolved = true;
    if (entry.question?.elicitationId === undefined) this.entries.delete(key);
    this.journalEnd(entry.id, answeredEnd(entry.kind, entry.id, entry.answerText, message));
  }

  /** `elicitation/complete`: the external flow of a url question finished. Unknown ids are ignored. */
  completeUrl(elicitationId: unknown): void {
    if (typeof elicitationId !== 'string') return;
    for (const [key, entry] of this.entries) {
      if (entry.id && entry.question?.elicitationId === elicitationId) {
        this.entries.delete(key);
        this.host.record({
          kind: 'elicitation_complete',
          elicitation: { id: entry.id, completed: true },
          raw: { elicitationId },
        });
        return;
      }
    }
  }

  /**
   * The SDK's handler for `session/request_permission`: resolves with the page's answer. One that
   * could not be journaled is answered cancelled, never shown.
   */
  permission(
    serial: number,
    requestId: string | number,
    params: RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse> {
    const entry = this.entries.get(`${serial}:${requestId}`);
    if (entry?.seq === undefined || !this.host.mayAsk('permission'))
      return Promise.resolve(CANCELLED_PERMISSION);
    const pending = this.wait(entry, CANCELLED_PERMISSION, signal);
    const wire = permissionWire(entry.id, this.host.sessionId, entry.toolCall, params.options);
    this.show(entry, { kind: 'permission', wire, seq: entry.seq });
    return pending;
  }

  /** The SDK's handler for `elicitation/create`: rejects `-32602` for an invalid one. */
  elicitation(
    serial: number,
    requestId: string | number,
    params: CreateElicitationRequest,
    signal: AbortSignal,
  ): Promise<CreateElicitationResponse> {
    const entry = this.entries.get(`${serial}:${requestId}`);
    // Not seen by the tap as this session's (another session's, say): still refuse an invalid one.
    const n = entry ? entry.question : normalizeElicitation(params, { form: true, url: true });
    if (n?.invalid) {
      this.entries.delete(`${serial}:${requestId}`);
      return Promise.reject(RequestError.invalidParams({ reason: n.invalid }));
    }
    if (entry?.seq === undefined || !n || !this.host.mayAsk('elicitation'))
      return Promise.resolve(CANCELLED_ELICITATION);
    const pending = this.wait(entry, CANCELLED_ELICITATION, signal);
    this.show(entry, { kind: 'elicitation', wire: elicitationWire(entry.id, n), seq: entry.seq });
    return pending;
  }

  /**
   * Shows a request to the page once the commit that holds its row has been delivered — unless it
   * ended meanwhile (the turn cancelled, the agent withdrew it, its connection ended): then it is never
   * shown. A row that cannot be committed (the journal failed) leaves it unshown, answered cancelled.
   */
  private show(entry: Entry, request: LiveRequest): void {
    const settle = entry.settle;
    this.host.committed(request.seq).then(
      () => {
        if (!settle || entry.settle !== settle) return;
        entry.shown = request;
        this.host.delivery.show(request);
      },
      () => settle?.(entry.cancelled!),
    );
  }

  /**
   * The page chose an option (or `null` to cancel). Throws `closed` once the request ended (answered
   * already, from this tab or another), `invalid-params` for an unknown option.
   */
  answerPermission(id: string, optionId: string | null): void {
    const entry = this.find(id, 'permission');
    if (!entry?.settle) throw SiloError.closed('This permission request can no longer be answered');
    entry.settle(permissionResponse(entry.options, optionId));
  }

  /** The page answered a question. Accept validates first: `invalid-params` with `data.errors`. */
  answerElicitation(id: string, action: ElicitationAction): void {
    const entry = this.find(id, 'elicitation');
    if (!entry?.settle) throw SiloError.closed('This question can no longer be answered');
    const answer = elicitationResponse(entry.question!, action);
    if (answer.answerText) entry.answerText = answer.answerText;
    entry.settle(answer.response);
  }

  /** The requests shown to the page that can still be answered, oldest first. */
  pending(): LiveRequest[] {
    return [...this.entries.values()].flatMap((e) => (e.settle && e.shown ? [e.shown] : []));
  }

  /** The turn was cancelled: answers every request shown (or about to be shown) cancelled. */
  cancelAll(): void {
    for (const entry of [...this.entries.values()]) entry.settle?.(entry.cancelled!);
  }

  /**
   * The connection `serial` ended: its requests can no longer be answered. Those without a journaled
   * end are journaled `unanswerable` and the page is told.
   */
  linkEnded(serial: number): void {
    for (const [key, entry] of this.entries) {
      if (!key.startsWith(`${serial}:`)) continue;
      this.entries.delete(key);
      entry.settle = undefined;
      if (!entry.resolved && entry.id) this.endUnanswerable(entry.kind, entry.id);
    }
  }

  /** When a session is bound: the requests its journal holds unanswered (worker/journal-fold.ts). */
  journalOpen(requests: readonly OpenRequest[]): void {
    this.open = [...requests];
  }

  /**
   * After the journal was read on a restore: a request the journal holds open that no connection of
   * this worker asked (its page died with it open) can never be answered; journal it `unanswerable`.
   */
  endOrphans(): void {
    const orphans = this.open.filter((r) => !this.mine.has(r.id));
    this.open = this.open.filter((r) => this.mine.has(r.id));
    for (const r of orphans) this.endUnanswerable(r.kind, r.id);
  }

  private endUnanswerable(kind: 'permission' | 'elicitation', id: string): void {
    this.journalEnd(id, unanswerableEnd(kind, id));
  }

  /** Journals how request `id` ended and tells the page (and the tabs that follow). */
  private journalEnd(id: string, end: RequestEnd): void {
    this.host.record(end.update);
    this.host.delivery.requestEnded(id, end.resolution);
  }

  private wait<R extends RequestPermissionResponse | CreateElicitationResponse>(
    entry: Entry,
    cancelled: R,
    signal: AbortSignal,
  ): Promise<R> {
    return new Promise<R>((resolve) => {
      const settle = (answer: RequestPermissionResponse | CreateElicitationResponse) => {
        if (entry.settle !== settle) return;
        entry.settle = undefined;
        entry.shown = undefined;
        resolve(answer as R);
      };
      entry.settle = settle;
      entry.cancelled = cancelled;
      if (signal.aborted) settle(cancelled);
      else signal.addEventListener('abort', () => settle(cancelled), { once: true });
    });
  }

  private find(id: string, kind: Entry['kind']): Entry | undefined {
    for (const entry of this.entries.values()) if (entry.id === id && entry.kind === kind) return entry;
    return undefined;
  }

  private newId(prefix: 'p' | 'e'): string {
    const id = `${prefix}-${crypto.randomUUID()}`;
    this.mine.add(id);
    return id;
  }
}
