/**
 * What bounds target 3, profiled in every scale run: a heap snapshot of the page (DevTools
 * `HeapProfiler.takeHeapSnapshot`) with the base journal's transcript open, summed by what holds the
 * bytes — the transcript's text (strings of 256 characters or more: messages, thoughts, diffs' file
 * texts), shorter strings (keys, ids, statuses, short messages), ropes (strings still held as a tree of
 * joined pieces), the rows' objects and arrays, and the rest (compiled code, the DOM and other native
 * objects, the runtime's own). Taken at the base size, not the big one: the snapshot of a million
 * updates would be some 300 MB of JSON, and the make-up per update is the same.
 */
import type { Page } from 'puppeteer-core';

/** Self sizes, in bytes, summed by kind of node. */
export interface HeapComposition {
  total: number;
  /** Flat strings of 256 characters or more. */
  longText: number;
  /** Flat strings under 256 characters. */
  shortStrings: number;
  /** Strings held as ropes (V8's concatenated strings: their nodes, not their pieces). */
  ropes: number;
  /** JS objects and arrays (the rows, their parts, the key maps…). */
  objects: number;
  /** Compiled code and the runtime's own (code, closures, shapes, system objects). */
  code: number;
  /** Native objects (the DOM, buffers). */
  native: number;
  other: number;
}

/** The make-up's parts with their names for the report, in a fixed order (bytes). */
export function heapParts(c: HeapComposition): [string, number][] {
  return [
    ['text: strings of 256 characters or more', c.longText],
    ['shorter strings', c.shortStrings],
    ['ropes (strings not flattened)', c.ropes],
    ['objects and arrays', c.objects],
    ['code and runtime', c.code],
    ['DOM and native', c.native],
    ['other', c.other],
  ];
}

/** A heap snapshot of `page` (after a garbage collection), summed into {@link HeapComposition}. */
export async function heapComposition(page: Page): Promise<HeapComposition> {
  const cdp = await page.createCDPSession();
  const chunks: string[] = [];
  try {
    cdp.on('HeapProfiler.addHeapSnapshotChunk', (e) => chunks.push(e.chunk));
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  } finally {
    await cdp.detach();
  }
  return compose(JSON.parse(chunks.join('')));
}

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

function compose(s: Snapshot): HeapComposition {
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const [type, name, size] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const out: HeapComposition = {
    total: 0,
    longText: 0,
    shortStrings: 0,
    ropes: 0,
    objects: 0,
    code: 0,
    native: 0,
    other: 0,
  };
  for (let i = 0; i < s.nodes.length; i += fields.length) {
    const bytes = s.nodes[i + size]!;
    out.total += bytes;
    switch (types[s.nodes[i + type]!]) {
      case 'string':
      case 'sliced string':
        if (s.strings[s.nodes[i + name]!]!.length >= 256) out.longText += bytes;
        else out.shortStrings += bytes;
        break;
      case 'concatenated string':
        out.ropes += bytes;
        break;
      case 'object':
      case 'array':
      case 'number':
      case 'bigint':
        out.objects += bytes;
        break;
      case 'code':
      case 'closure':
      case 'hidden':
      case 'object shape':
      case 'regexp':
        out.code += bytes;
        break;
      case 'native':
        out.native += bytes;
        break;
      default:
        out.other += bytes;
    }
  }
  return out;
}
