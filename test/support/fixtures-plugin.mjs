// A @web/test-runner plugin that hands browser tests the recorded real traffic in
// test/fixtures/claude-agent-acp/ through `executeServerCommand`.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/claude-agent-acp');

export function siloFixtures() {
  return {
    name: 'silo-fixtures',
    executeCommand({ command, payload }) {
      if (command !== 'silo-fixture') return undefined;
      const name = String(payload?.name ?? '');
      if (!/^[a-z]+$/.test(name)) throw new Error(`bad fixture name ${name}`);
      return readFileSync(join(FIXTURES_DIR, `${name}.jsonl`), 'utf8');
    },
  };
}
