// A stdio "agent" whose output nests deeply. It answers `initialize`, then writes three
// `session/update` notifications: one with `_meta` nested 300 levels deep (deep, yet serializable),
// one nested 1,000,000 levels deep (JSON.parse takes it, JSON.stringify overflows the stack), then a
// plain one. Then it waits for stdin to close.
const nested = (depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const update = (text, meta) =>
  `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"${text}"}${meta ? `,"_meta":{"deep":${meta}}` : ''}}}}\n`;
process.stdin.setEncoding('utf8');
process.stdin.once('data', (chunk) => {
  const { id } = JSON.parse(chunk.slice(0, chunk.indexOf('\n')));
  process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"protocolVersion":1}}\n`);
  process.stdout.write(update('deep', nested(300)));
  process.stdout.write(update('too deep', nested(1_000_000)));
  process.stdout.write(update('after'));
});
process.stdin.on('end', () => process.exit(0));
