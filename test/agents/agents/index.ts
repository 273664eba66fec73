/**
 * The agents `npm run test:agents` runs, in the order it runs them.
 * @packageDocumentation
 */
import { claude } from './claude.ts';
import { codex } from './codex.ts';
import { gemini } from './gemini.ts';
import type { AgentSpec } from './spec.ts';

export const AGENTS: readonly AgentSpec[] = [claude, codex, gemini];
