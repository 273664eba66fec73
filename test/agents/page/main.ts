/**
 * The page `npm run test:agents` drives: one `<silo-chat>` from the repository's sources, on the
 * bridge and working directory the query names (`?bridge=…&cwd=…`). With `&restore=<sessionId>` the
 * chat restores that session (as a history link would) instead of starting a new one. The service
 * is the page's own, so the driver can read the journal through `window.agentsPage`.
 * @packageDocumentation
 */
import { type AgentsService, createAgentsService } from 'silo-acp';
import 'silo-acp/components';

/** What the driver (test/agents/browser.ts) reads in the page. */
export interface AgentsPage {
  readonly chat: HTMLElement;
  readonly service: AgentsService;
}

declare global {
  interface Window {
    agentsPage: AgentsPage;
  }
}

const query = new URLSearchParams(location.search);
const cwd = query.get('cwd') ?? '';
const restore = query.get('restore');
// <silo-chat> restores the last session of its cwd, kept under this key (components/chat-session.ts).
if (restore) localStorage.setItem(`silo-chat:last-session:${cwd}`, restore);
const service = createAgentsService();
const chat = document.createElement('silo-chat') as HTMLElement & { service: AgentsService };
chat.service = service;
chat.setAttribute('cwd', cwd);
chat.setAttribute('bridge', query.get('bridge') ?? '');
document.body.append(chat);
window.agentsPage = { chat, service };
