// Reading JSONL transcripts Silo did not write: hand-written and foreign files (no trailing newline,
// CRLF or CR line ends, a byte-order mark, unknown kinds, two exports end to end, a truncated last
// line, a file that is not a transcript, 100 MB) either read completely — every update, in order,
// numbered in file order — or are refused with a coded error naming the line. Never a silent loss.
// The browser side (the journal's import, the viewer) is test/browser/transcript/transcript-import.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseJsonl, readJsonlExport } from '../../src/export.ts';
import type { SiloError } from '../../src/index.ts';
import { TranscriptModel } from '../../src/transcript/model.ts';
import { bigJsonl, COMPLETE, HAND_WRITTEN_KINDS, REFUSED } from '../support/jsonl-files.ts';

describe('JSONL import of files Silo did not write', () => {
  for (const file of COMPLETE) {
    test(`${file.name}: every update, in order, numbered in file order`, () => {
      const updates = parseJsonl(file.text);
      const kinds = Array.from({ length: file.copies }, () => HAND_WRITTEN_KINDS).flat();
      assert.deepEqual(
        updates.map((u) => u.kind),
        kinds,
      );
      assert.deepEqual(
        updates.map((u) => u.seq),
        kinds.map((_, i) => i),
      );
      assert.ok(updates.every((u) => typeof u.raw === 'object' && u.raw !== null));
      // The transcript model shows all of them: nothing is skipped as already seen.
      const model = new TranscriptModel();
      model.applyAll(updates);
      const messages = model.rows
        .filter((r) => r.type === 'message')
        .map((r) => (r as { text: string }).text);
      assert.deepEqual(
        messages,
        Array.from({ length: file.copies }, () => ['Hello', 'Hi there. Bye.']).flat(),
      );
      assert.equal(model.rows.filter((r) => r.type === 'unknown').length, 2 * file.copies);
    });
  }

  for (const file of REFUSED) {
    test(`${file.name}: refused, coded, naming line ${file.line}`, () => {
      assert.throws(
        () => parseJsonl(file.text),
        (e: SiloError) => {
          assert.equal(e.code, 'invalid-params');
          assert.deepEqual(e.data, { line: file.line });
          assert.match(e.message, file.message);
          return true;
        },
      );
    });
  }

  test("an export's header is read as its information, not as an update", () => {
    const { updates, info } = readJsonlExport(COMPLETE.find((f) => f.copies === 2)!.text);
    assert.deepEqual(info, { agent: 'Other agent' });
    assert.equal(updates.length, 2 * HAND_WRITTEN_KINDS.length);
    assert.ok(updates.every((u) => u.kind !== 'silo_export'));
  });

  test('100 MB: read completely', () => {
    const { text, count } = bigJsonl(100);
    assert.ok(text.length >= 100_000_000);
    const updates = parseJsonl(text);
    assert.equal(updates.length, count);
    assert.equal(updates.at(-1)!.seq, count - 1);
    assert.equal(
      updates.at(-1)!.text,
      JSON.parse(text.slice(text.lastIndexOf('\n', text.length - 2) + 1)).text,
    );
  });
});
