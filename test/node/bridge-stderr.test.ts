// Which stderr line of an agent the bridge quotes when it ends (bridge/stderr.ts): the agent's own,
// not the Node warning, stack frames or version line Node prints after it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LastStderrLine } from '../../bridge/stderr.ts';

const quoted = (...lines: string[]) => {
  const last = new LastStderrLine();
  for (const l of lines) last.push(l);
  return last.value;
};

test('a Node warning and its hint after the agent line: the agent line is quoted', () => {
  assert.equal(
    quoted(
      'agent: the API key was refused',
      '(node:4242) MaxListenersExceededWarning: Possible EventTarget memory leak detected. 11 abort listeners added to [AbortSignal].',
      '(Use `node --trace-warnings ...` to show where the warning was created)',
    ),
    'agent: the API key was refused',
  );
  assert.equal(
    quoted('boom', '(node:1) [DEP0040] DeprecationWarning: The `punycode` module is deprecated.'),
    'boom',
  );
  assert.equal(quoted('boom', '(node:1) ExperimentalWarning: CommonJS module loading'), 'boom');
});

test('an uncaught error: its message, not its stack, properties, caret or the Node version', () => {
  assert.equal(
    quoted(
      '/srv/agent.js:10',
      "    throw new Error('no model');",
      '    ^',
      '',
      'Error: no model',
      '    at Object.<anonymous> (/srv/agent.js:10:11)',
      '    at Module._compile (node:internal/modules/cjs/loader:1376:14) {',
      "  code: 'ERR_NO_MODEL'",
      '}',
      '',
      'Node.js v20.11.0',
    ),
    'Error: no model',
  );
});

test('only Node lines: the last non-empty one; nothing written: none; long lines are cut at 200', () => {
  assert.equal(quoted('(node:7) Warning: x', ''), '(node:7) Warning: x');
  assert.equal(quoted(), undefined);
  assert.equal(quoted('', '   '), undefined);
  assert.equal(quoted('x'.repeat(500))?.length, 200);
});
