/** Small display helpers of the demo: outcome labels, relative times, short ids. */
import type { AgentResumeOutcome, AgentSessionSummary } from 'silo-acp';

/** What a restore did, in words. */
export const OUTCOME_LABEL: Record<AgentResumeOutcome, string> = {
  new: 'New session',
  resumed: 'Resumed — the agent continued where it left off',
  loaded: 'Reloaded — the agent replayed the conversation',
  'journal-only': 'Journal only — readable here, the agent cannot continue it',
  forked: 'Branched — a new session from a turn of another',
};

/** A short badge for an outcome. */
export const OUTCOME_BADGE: Record<AgentResumeOutcome, string> = {
  new: 'new',
  resumed: 'resumed',
  loaded: 'loaded',
  'journal-only': 'journal-only',
  forked: 'branched',
};

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "5 minutes ago", "yesterday"…; an empty string for a missing or invalid date. */
export function timeAgo(iso: string | undefined, now = Date.now()): string {
  const t = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(t)) return '';
  const seconds = Math.round((t - now) / 1000);
  if (Math.abs(seconds) < 10) return 'just now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second')
      return relative.format(Math.round(seconds / size), unit);
  }
  return '';
}

/** The first characters of an id, for display. */
export function shortId(id: string): string {
  return id.length > 10 ? `${id.slice(0, 8)}…` : id;
}

/** A session's display title. */
export function sessionTitle(s: AgentSessionSummary): string {
  return s.title?.trim() || `Untitled session ${shortId(s.sessionId)}`;
}

/** A short agent name from a command line or an agent name. */
export function agentName(agent: string | undefined): string {
  if (!agent) return 'unknown agent';
  return agent.includes('agent/cli.ts') ? 'Silo reference agent' : agent;
}
