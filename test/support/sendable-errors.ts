/**
 * A failed assertion whose `actual` or `expected` is a DOM node cannot be reported: the test runner
 * sends results with `structuredClone`, which throws on nodes, so the test file never finishes and the
 * run hangs until its overall timeout (every later browser waits behind it). Registered in a test file,
 * this replaces such values by a short description after each failed test, so the failure is reported.
 */
export function keepFailuresSendable(): void {
  afterEach(function () {
    const err = this.currentTest?.err as { actual?: unknown; expected?: unknown } | undefined;
    if (!err) return;
    if (err.actual instanceof Node) err.actual = describeNode(err.actual);
    if (err.expected instanceof Node) err.expected = describeNode(err.expected);
  });
}

/** A node as `<tag part=… data-…>` plus where it is (detached, or under which shadow hosts). */
export function describeNode(node: Node): string {
  if (!(node instanceof Element)) return node.nodeName;
  const attrs = Array.from(node.attributes)
    .filter((a) => a.name === 'part' || a.name === 'id' || a.name.startsWith('data-'))
    .map((a) => ` ${a.name}="${a.value}"`)
    .join('');
  const hosts: string[] = [];
  for (let root = node.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode())
    hosts.push(root.host.localName);
  const where = node.isConnected ? (hosts.length ? ` in ${hosts.join(' < ')}` : '') : ' (detached)';
  return `<${node.localName}${attrs}>${where}`;
}
