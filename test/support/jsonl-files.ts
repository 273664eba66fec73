/**
 * JSONL transcripts as people and other tools write them, not as Silo exports them: for the import
 * tests in Node (test/node/jsonl-import.test.ts) and in the browser
 * (test/browser/transcript/transcript-import.test.ts). Each one either imports completely (every
 * update, in order) or is refused with a coded error naming its line.
 */

/** Hand-written updates: no `raw` on some, no `seq` on any, kinds Silo does not know. */
export const HAND_WRITTEN = [
  '{"kind":"user_message_chunk","messageId":"u1","text":"Hello","content":{"type":"text","text":"Hello"}}',
  '{"kind":"agent_message_chunk","messageId":"a1","text":"Hi there.","content":{"type":"text","text":"Hi there."},"raw":{}}',
  '{"kind":"_vendor_progress","raw":{"sessionUpdate":"_vendor_progress","percent":40}}',
  '{"kind":"something_new","note":"a kind from a later Silo"}',
  '{"kind":"agent_message_chunk","messageId":"a1","text":" Bye.","content":{"type":"text","text":" Bye."}}',
  '{"kind":"turn_end","turnEnd":{"stopReason":"end_turn"}}',
];

/** What every complete import of {@link HAND_WRITTEN} holds: the kinds, in order. */
export const HAND_WRITTEN_KINDS = HAND_WRITTEN.map((l) => (JSON.parse(l) as { kind: string }).kind);

/** Files that import completely: each holds {@link HAND_WRITTEN} (twice for `two exports end to end`). */
export const COMPLETE: readonly { name: string; text: string; copies: number }[] = [
  { name: 'no trailing newline', text: HAND_WRITTEN.join('\n'), copies: 1 },
  { name: 'CRLF line ends', text: `${HAND_WRITTEN.join('\r\n')}\r\n`, copies: 1 },
  { name: 'CR line ends', text: HAND_WRITTEN.join('\r'), copies: 1 },
  { name: 'a byte-order mark', text: `\uFEFF${HAND_WRITTEN.join('\n')}\n`, copies: 1 },
  {
    name: 'blank lines and indentation',
    text: `\n\n${HAND_WRITTEN.map((l) => `  ${l}\t`).join('\n\n')}\n\n`,
    copies: 1,
  },
  {
    // `cat a.jsonl b.jsonl`: two exports (of two sessions: other message ids), each with its header
    // and its own seq from 0.
    name: 'two exports end to end',
    text: ['a', 'b']
      .map(
        (session) =>
          `{"kind":"silo_export","agent":"Other agent","raw":{}}\n${HAND_WRITTEN.map((l, seq) => `${l.slice(0, -1).replace(/"messageId":"(\w+)"/, `"messageId":"$1-${session}"`)},"seq":${seq}}`).join('\n')}\n`,
      )
      .join(''),
    copies: 2,
  },
];

/** Files that are refused: the line named, and what the message says. */
export const REFUSED: readonly { name: string; text: string; line: number; message: RegExp }[] = [
  {
    name: 'a truncated last line',
    text: `${HAND_WRITTEN.join('\n')}\n{"kind":"agent_message_chunk","messageId":"a2","text":"It was cu`,
    line: HAND_WRITTEN.length + 1,
    message: /^Line 7 of the transcript is not JSON: the file ends in the middle of it/,
  },
  {
    name: 'a JSON-RPC wire log (not a transcript)',
    text: '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{}}}\n',
    line: 1,
    message: /^Line 1 of the transcript is not an update$/,
  },
  {
    name: 'a bad line in the middle',
    text: `${HAND_WRITTEN[0]}\n[1, 2]\n${HAND_WRITTEN[1]}\n`,
    line: 2,
    message: /^Line 2 of the transcript is not an update$/,
  },
];

/**
 * About `megabytes` MB of a long conversation, as an export holds it (one update a line, `seq` from
 * 0): turns of a prompt and 9 answer chunks of ~500 characters. Returns the text and its update count.
 */
export function bigJsonl(megabytes: number): { text: string; count: number } {
  const lines: string[] = [];
  let size = 0;
  const pad = 'x'.repeat(480);
  for (let seq = 0; size < megabytes * 1_000_000; seq++) {
    const turn = Math.floor(seq / 10);
    const user = seq % 10 === 0;
    const text = user ? `question ${turn}` : `${pad} ${seq}`;
    const line = JSON.stringify({
      kind: user ? 'user_message_chunk' : 'agent_message_chunk',
      messageId: `${user ? 'u' : 'a'}${turn}`,
      text,
      content: { type: 'text', text },
      seq,
      raw: {},
    });
    lines.push(line);
    size += line.length + 1;
  }
  return { text: `${lines.join('\n')}\n`, count: lines.length };
}
