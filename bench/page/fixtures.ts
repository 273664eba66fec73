/**
 * What the page's benchmarks share to set up: the working directory their sessions name, fresh
 * database names (each measurement its own journal), and an empty `<silo-transcript>` to open one in.
 */
import type { SiloTranscript } from '../../components/transcript/silo-transcript.ts';
import { nextFrame } from './measure.ts';

/** The `cwd` of every session the benchmarks open. */
export const CWD = '/tmp/silo-bench';

/** A database name no other measurement uses. */
export const freshName = (what: string) => `silo-bench-${what}-${crypto.randomUUID()}`;

/** A `<silo-transcript>` in the page, rendered empty, one frame later. */
export async function mountTranscript(): Promise<SiloTranscript> {
  const el = document.createElement('silo-transcript') as SiloTranscript;
  el.style.cssText = 'display: block; width: 960px; height: 640px';
  document.body.append(el);
  await el.updateComplete;
  await nextFrame();
  return el;
}
