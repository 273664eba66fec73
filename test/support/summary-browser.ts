/**
 * Browser side of the suite's summary (see test/support/summary.ts and summary-plugin.mjs): records
 * figures through the `silo-report` server command and reads whether the long variants run.
 */
import { executeServerCommand } from '@web/test-runner-commands';
import type { SummaryCategory } from './summary.ts';

/** Appends one summary record (engine added by the plugin). */
export async function report(
  category: SummaryCategory,
  n: number,
  name: string,
  unit?: string,
): Promise<void> {
  await executeServerCommand('silo-report', { category, n, name, ...(unit ? { unit } : {}) });
}

/** Whether the long variants run (`npm test -- --long`), and the engine running this test. */
export function testEnv(): Promise<{ long: boolean; engine: 'chromium' | 'firefox' | string }> {
  return executeServerCommand('silo-env', {});
}
