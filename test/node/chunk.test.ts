// The lazy chunks' loader (components/shared/chunk.ts `Chunk`, used by the Markdown, rows, find and find
// bar chunks): one load shared by every caller, the module kept once in, and a failed load forgotten
// so that the next caller (a transcript's next render, the next find) tries again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Chunk } from '../../components/shared/chunk.ts';

test('a chunk loads once, and a failed load is tried again by the next caller', async () => {
  let calls = 0;
  let fail = true;
  const chunk = new Chunk<{ name: string }>(async () => {
    calls++;
    if (fail) throw new Error('network down');
    return { name: 'rows' };
  });
  const [a, b] = [chunk.load(), chunk.load()];
  assert.equal(a, b, 'callers during a load share it');
  await assert.rejects(a, /network down/);
  assert.equal(calls, 1);
  assert.equal(chunk.value, undefined, 'nothing is kept from a failed load');

  fail = false;
  assert.deepEqual(await chunk.load(), { name: 'rows' });
  assert.equal(calls, 2, 'the next load tried again');
  assert.deepEqual(chunk.value, { name: 'rows' });
  await chunk.load();
  assert.equal(calls, 2, 'a loaded chunk is not loaded again');
});
