// The searchable text of transcript rows (components/transcript/find/text.ts): what find in <silo-transcript>
// searches instead of the DOM. Rows come from the real model, fed normalized updates.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { countIn, fold, markdownText, rowText } from '../../components/transcript/find/text.ts';
import { TranscriptModel } from '../../src/transcript/model.ts';
import { MessageIdSynthesizer, normalizeUpdate } from '../../worker/normalize.ts';

function rows(raws: Record<string, unknown>[]) {
  const ids = new MessageIdSynthesizer();
  const model = new TranscriptModel();
  model.applyAll(raws.map((raw, seq) => normalizeUpdate(raw, seq, ids)));
  return model.rows;
}

describe('find text', () => {
  test('fold keeps offsets: a character whose lower case is longer stays as it is', () => {
    assert.equal(fold('Zebra ÉTÉ'), 'zebra été');
    assert.equal(fold('İstanbul'), 'İstanbul');
    assert.equal(fold('İstanbul').length, 'İstanbul'.length);
  });

  test('countIn counts occurrences without overlaps', () => {
    assert.equal(countIn('aaaa', 'aa'), 2);
    assert.equal(countIn('zebra, zebra', 'zebra'), 2);
    assert.equal(countIn('', 'x'), 0);
  });

  test('Markdown reads as rendered: markers dropped, link text kept, snake_case kept', () => {
    assert.equal(markdownText('The **latest** answer'), 'The latest answer');
    assert.equal(markdownText('# Title\n> quoted\n- item\n1. first'), 'Title\nquoted\nitem\nfirst');
    assert.equal(markdownText('see [the docs](https://x.test/a) and ![alt](i.png)'), 'see the docs and alt');
    assert.equal(
      markdownText('call `snake_case_name` or *emphasis* or _this_'),
      'call snake_case_name or emphasis or this',
    );
  });

  test('every row type gives the text a reader sees', () => {
    const [user, agent, tool, plan] = rows([
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'Find **me** literally' } },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'A **Zebra** here' } },
      {
        sessionUpdate: 'tool_call',
        toolCallId: 't1',
        title: 'Edit zoo.ts',
        kind: 'edit',
        status: 'completed',
        locations: [{ path: '/src/zoo.ts' }],
        content: [{ type: 'diff', path: '/src/zoo.ts', oldText: 'a\nb\n', newText: 'a\nzebra\n' }],
      },
      { sessionUpdate: 'plan', entries: [{ content: 'Paint it', priority: 'high', status: 'pending' }] },
    ]);
    assert.equal(rowText(user!), 'find **me** literally');
    assert.equal(rowText(agent!), 'a zebra here');
    assert.equal(rowText(tool!), 'edit zoo.ts\n/src/zoo.ts\n/src/zoo.ts\na\nzebra\nb');
    assert.equal(rowText(plan!), 'paint it');
  });
  test("a tool card's terminal is searched as drawn: its output's end, escapes removed", () => {
    const [card] = rows([
      {
        sessionUpdate: 'tool_call',
        toolCallId: 't',
        title: 'make',
        content: [{ type: 'terminal', terminalId: 't' }],
        _meta: { terminal_info: { terminal_id: 't' } },
      },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 't',
        _meta: { terminal_output_delta: { terminal_id: 't', data: '\u001b[31mZebra\u001b[0m failed\n' } },
      },
    ]);
    assert.equal(rowText(card!), 'make\n\nzebra failed\n');
  });
});
