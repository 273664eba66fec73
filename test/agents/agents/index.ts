/**
 * The agents `npm run test:agents` runs, in the order it runs them.
 * @packageDocumentation
 */
import { claude } from './claude.ts';
import { cline } from './cline.ts';
import { codex } from './codex.ts';
import { copilot } from './copilot.ts';
import { gemini } from './gemini.ts';
import { opencode } from './opencode.ts';
import { qwen } from './qwen.ts';
import type { AgentSpec } from './spec.ts';

export const AGENTS: readonly AgentSpec[] = [claude, codex, gemini, qwen, copilot, opencode, cline];
