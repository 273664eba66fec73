/** Scenarios that ask the client: permission requests and elicitations (form and url mode). */
import type { RequestPermissionResponse, StopReason } from '@agentclientprotocol/sdk';
import type { Scenario } from '../scenarios.ts';
import { waitingOn } from '../thread-status.ts';
import type { Turn } from '../turn.ts';

export const PERMISSION_OPTIONS = [
  { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject-always', name: 'Always reject', kind: 'reject_always' },
] as const;

function outcomeText(response: RequestPermissionResponse): string {
  return response.outcome.outcome === 'selected' ? response.outcome.optionId : 'cancelled';
}

async function askPermission(
  turn: Turn,
  toolCallId: string,
  title: string,
): Promise<RequestPermissionResponse> {
  const call = { sessionUpdate: 'tool_call', toolCallId, title, kind: 'edit', status: 'pending' };
  // Qwen Code announces a call that needs permission only through the request; its history has it.
  if (turn.options.replayShape === 'qwen') turn.remember(call);
  else await turn.update(call);
  return waitingOn(turn.options.threadStatus, turn.client, turn.sessionId, 'waitingOnApproval', () =>
    turn.client.request('session/request_permission', {
      sessionId: turn.sessionId,
      toolCall: { toolCallId: turn.toolCallId(toolCallId), title, kind: 'edit', status: 'pending' },
      options: [...PERMISSION_OPTIONS],
    }),
  );
}

async function finishTool(
  turn: Turn,
  toolCallId: string,
  response: RequestPermissionResponse,
): Promise<void> {
  const allowed = response.outcome.outcome === 'selected' && response.outcome.optionId.startsWith('allow');
  await turn.update({
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: allowed ? 'completed' : 'failed',
    content: [{ type: 'content', content: { type: 'text', text: allowed ? 'Written.' : 'Not allowed.' } }],
  });
}

/**
 * One permission request with every option kind, to write `file` (first argument, default
 * `config.json`); the answer is echoed as `Permission: <optionId|cancelled>`. With a second argument
 * `hold`, an allowed call goes on as Claude's Bash does: one `tool_call_update` with no status, and
 * nothing more until the turn is cancelled.
 */
export async function permission(turn: Turn): Promise<StopReason> {
  const response = await askPermission(turn, 'call-permission', `Write ${turn.args[0] ?? 'config.json'}`);
  if (response.outcome.outcome === 'cancelled' || turn.signal.aborted) return 'cancelled';
  if (turn.args[1] === 'hold' && response.outcome.optionId.startsWith('allow')) {
    await turn.update({ sessionUpdate: 'tool_call_update', toolCallId: 'call-permission', rawInput: {} });
    await turn.cancelled();
    return 'cancelled';
  }
  await finishTool(turn, 'call-permission', response);
  await turn.say(`Permission: ${outcomeText(response)}`);
  return turn.end();
}

/** Two permission requests open at once. */
export async function permissionTwice(turn: Turn): Promise<StopReason> {
  const [a, b] = await Promise.all([
    askPermission(turn, 'call-permission-1', 'Write a.txt'),
    askPermission(turn, 'call-permission-2', 'Write b.txt'),
  ]);
  if (turn.signal.aborted || a.outcome.outcome === 'cancelled' || b.outcome.outcome === 'cancelled')
    return 'cancelled';
  await finishTool(turn, 'call-permission-1', a);
  await finishTool(turn, 'call-permission-2', b);
  await turn.say(`Permissions: ${outcomeText(a)}, ${outcomeText(b)}`);
  return turn.end();
}

/**
 * A permission request and a question, both withdrawn with `$/cancel_request` after `ms` (default
 * 300) when the client has not answered; echoes what came back as `Withdrawn: permission <…>, question <…>`.
 */
export async function withdraw(turn: Turn): Promise<StopReason> {
  const ms = Number(turn.args[0] ?? 300);
  const withdrawal = new AbortController();
  const options = { cancellationSignal: withdrawal.signal };
  await turn.update({
    sessionUpdate: 'tool_call',
    toolCallId: 'call-withdrawn',
    title: 'Delete cache',
    kind: 'delete',
  });
  const permission = turn.client
    .request(
      'session/request_permission',
      {
        sessionId: turn.sessionId,
        toolCall: {
          toolCallId: turn.toolCallId('call-withdrawn'),
          title: 'Delete cache',
          kind: 'delete',
          status: 'pending',
        },
        options: [...PERMISSION_OPTIONS],
      },
      options,
    )
    .then(outcomeText, (e: { code?: number }) => `error ${e.code}`);
  const question = turn.client
    .request(
      'elicitation/create',
      {
        sessionId: turn.sessionId,
        mode: 'form',
        message: 'Which cache?',
        requestedSchema: { type: 'object', properties: { which: { type: 'string', enum: ['all', 'old'] } } },
      } as never,
      options,
    )
    .then(
      (r: { action: string }) => r.action,
      (e: { code?: number }) => `error ${e.code}`,
    );
  const timer = setTimeout(() => withdrawal.abort(), ms);
  const [p, q] = await Promise.all([permission, question]);
  clearTimeout(timer);
  await turn.update({ sessionUpdate: 'tool_call_update', toolCallId: 'call-withdrawn', status: 'failed' });
  await turn.say(`Withdrawn: permission ${p}, question ${q}`);
  return turn.end();
}

/** The form of `elicit-form`: every property type, defaults, bounds and required fields. */
export const FORM_SCHEMA = {
  type: 'object',
  title: 'Project setup',
  description: 'A few questions before I start.',
  properties: {
    name: {
      type: 'string',
      title: 'Name',
      description: 'Your name',
      minLength: 2,
      maxLength: 40,
      default: 'Ada',
    },
    email: { type: 'string', title: 'Email', format: 'email' },
    code: { type: 'string', title: 'Code', description: 'Three capital letters', pattern: '^[A-Z]{3}$' },
    started: { type: 'string', title: 'Start date', format: 'date' },
    site: { type: 'string', title: 'Website', format: 'uri' },
    color: { type: 'string', title: 'Colour', enum: ['red', 'green', 'blue'], default: 'green' },
    size: {
      type: 'string',
      title: 'Size',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'm', title: 'Medium', description: 'The usual' },
        { const: 'l', title: 'Large' },
      ],
      default: 'm',
    },
    ratio: { type: 'number', title: 'Ratio', minimum: 0, maximum: 1, default: 0.5 },
    count: { type: 'integer', title: 'Count', minimum: 1, maximum: 10, default: 3 },
    agree: { type: 'boolean', title: 'I agree to the terms', default: false },
    tags: {
      type: 'array',
      title: 'Tags',
      items: { type: 'string', enum: ['fast', 'safe', 'cheap'] },
      minItems: 1,
      maxItems: 2,
      default: ['safe'],
    },
    features: {
      type: 'array',
      title: 'Features',
      items: {
        anyOf: [
          { const: 'lint', title: 'Linting' },
          { const: 'test', title: 'Tests' },
          { const: 'docs', title: 'Documentation' },
        ],
      },
    },
  },
  required: ['name', 'color', 'count', 'agree'],
};

/** The form of `elicit-custom`: a property of an unknown type next to a known one. */
export const CUSTOM_SCHEMA = {
  type: 'object',
  properties: {
    volume: { type: '_slider', title: 'Volume', minimum: 0, maximum: 11, step: 1 },
    note: { type: 'string', title: 'Note' },
  },
};

function advertised(turn: Turn, mode: 'form' | 'url'): boolean {
  return Boolean(turn.clientCapabilities.elicitation?.[mode]) || turn.args.includes('force');
}

export async function elicitForm(turn: Turn, schema: object, message: string): Promise<StopReason> {
  if (!advertised(turn, 'form')) {
    await turn.say('The client did not advertise elicitation.form, so I will not ask.');
    return turn.end();
  }
  // With `tool`, as Claude's AskUserQuestion: the question belongs to a tool call announced first.
  const tool = turn.args.includes('tool');
  if (tool)
    await turn.update({ sessionUpdate: 'tool_call', toolCallId: 'call-ask', title: 'Asking for your input' });
  const response = await turn.client.request('elicitation/create', {
    sessionId: turn.sessionId,
    mode: 'form',
    message,
    requestedSchema: schema,
    ...(tool ? { toolCallId: turn.toolCallId('call-ask') } : {}),
  } as never);
  if (turn.signal.aborted) return 'cancelled';
  await turn.say(`You answered: ${JSON.stringify(response)}`, { chunkSize: 100000 });
  // With `linger`, the turn's end waits until it is cancelled (or the process ends), as the last
  // updates of Claude's turn come ~200 ms after its text: a page that dies then dies mid-turn.
  if (turn.args.includes('linger')) await turn.cancelled();
  // A question answered `cancel` ends the turn as cancelled, as a cancelled permission does: a client
  // that cancels the turn answers its open questions before it sends session/cancel.
  return (response as { action?: string }).action === 'cancel' ? 'cancelled' : turn.end();
}

export const elicitFormScenario = (turn: Turn) =>
  elicitForm(turn, FORM_SCHEMA, 'Tell me about your project.');
export const elicitCustom = (turn: Turn) => elicitForm(turn, CUSTOM_SCHEMA, 'Set the volume.');

/** The URL a url-mode elicitation asks the user to open. */
export const ELICIT_URL = 'https://example.com/silo-login?state=reference-agent';

export async function elicitUrl(turn: Turn, complete: boolean): Promise<StopReason> {
  if (!advertised(turn, 'url')) {
    await turn.say('The client did not advertise elicitation.url, so I will not ask.');
    return turn.end();
  }
  const elicitationId = `elicit-${Date.now().toString(36)}`;
  const response = await turn.client.request('elicitation/create', {
    sessionId: turn.sessionId,
    mode: 'url',
    elicitationId,
    url: ELICIT_URL,
    message: 'Sign in to continue.',
  } as never);
  if (turn.signal.aborted) return 'cancelled';
  const accepted = (response as { action?: string }).action === 'accept';
  if (accepted && complete) {
    await turn.client.notify('elicitation/complete', { elicitationId });
  }
  await turn.say(
    `You answered: ${JSON.stringify(response)}${accepted && !complete ? ' (this elicitation will never complete)' : ''}`,
    { chunkSize: 100000 },
  );
  return turn.end();
}

/** This file's scenarios, in the order `/scenario list` and the demo's picker show them (index.ts). */
export const scenarios: readonly Scenario[] = [
  {
    name: 'permission',
    args: '[file] [hold]',
    description:
      'session/request_permission (to write file, default config.json) with every option kind; answers with what was chosen (hold: an allowed call runs until cancelled, as Claude’s Bash).',
    run: permission,
  },
  {
    name: 'permission-twice',
    args: '',
    description: 'Two permission requests open at once; waits for both.',
    run: permissionTwice,
  },
  {
    name: 'withdraw',
    args: '[ms]',
    description:
      'A permission request and a question, withdrawn with $/cancel_request after ms (default 300).',
    run: withdraw,
  },
  {
    name: 'elicit-form',
    args: '[force] [tool] [linger]',
    description:
      'elicitation/create form mode with every property type; replies "You answered: {json}" (tool: for a tool call announced first, as Claude’s AskUserQuestion; linger: then the turn ends only when cancelled).',
    run: elicitFormScenario,
  },
  {
    name: 'elicit-custom',
    args: '[force]',
    description: 'A form with an unknown property type `_slider`.',
    run: elicitCustom,
  },
  {
    name: 'elicit-url',
    args: '[force]',
    description: 'URL-mode elicitation; sends elicitation/complete after accept.',
    run: (t) => elicitUrl(t, true),
  },
  {
    name: 'elicit-url-pending',
    args: '[force]',
    description: 'URL-mode elicitation that never completes.',
    run: (t) => elicitUrl(t, false),
  },
];
