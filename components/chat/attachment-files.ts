/**
 * What `<silo-chat>`'s attachments do once there is a file: read it, check it, show it as a removable
 * chip (images with a thumbnail) and turn it into the ACP content block sent when the agent's
 * `promptCapabilities` allow it. A chunk of its own (loaded with `import()` by chat/attachments.ts
 * when the first file is pasted, dropped or picked), out of the first paint. Nothing is fetched: a
 * file is read from the user's own disk (`File`), and a thumbnail is a `data:` URL of that file.
 *
 * What is sent (see docs/components.md, "Attachments"):
 * - a PNG, JPEG, GIF or WebP image: an `image` block (base64 data, MIME type, and its name as the URI
 *   `attachment:///<name>`), if the agent accepts
 *   images (`promptCapabilities.image`); otherwise it is refused;
 * - a text file (UTF-8 without NUL characters): a `resource` block with its text, if the agent accepts
 *   embedded context (`embeddedContext`); otherwise its text goes in a `text` block, introduced by its
 *   name in a fenced code block (every agent accepts text);
 * - any other file: a `resource` block with a base64 `blob`, if the agent accepts embedded context;
 *   otherwise it is refused.
 * A file over {@link MAX_ATTACHMENT_BYTES}, or more than {@link MAX_ATTACHMENTS_TOTAL_BYTES} in one
 * message, is refused with a message. A refused file is not added; the typed text and other files stay.
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { AgentContentBlock, AgentPromptCapabilities } from '../../src/index.ts';
import { fileNameOf } from '../shared/format.ts';
import type { SiloChatAttachmentStrings } from '../shared/strings/chat.ts';

/** The largest file that can be attached (5 MiB). */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
/** The most one message can carry in attachments (10 MiB: base64 stays under the bridge's 16 MiB frame). */
export const MAX_ATTACHMENTS_TOTAL_BYTES = 10 * 1024 * 1024;
/** Image types sent as `image` blocks. */
const SENDABLE_IMAGES = /^image\/(?:png|jpeg|gif|webp)$/;

/** One attached file, read once when it was added. */
export interface Attachment {
  readonly id: string;
  readonly name: string;
  readonly mimeType: string;
  readonly size: number;
  /** `image`: an image block; `text`: UTF-8 text; `binary`: anything else. */
  readonly kind: 'image' | 'text' | 'binary';
  /** The text of a `text` file. */
  readonly text?: string;
  /** Base64 contents of an `image` or `binary` file. */
  readonly data?: string;
}

/** Base64 of bytes (in slices, so a large file does not overflow the argument list). */
function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Reads a file into an {@link Attachment}. Rejects when the browser cannot read it. */
async function read(file: File): Promise<Attachment> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const base = { id: crypto.randomUUID(), name: file.name || 'file', size: file.size };
  if (SENDABLE_IMAGES.test(file.type))
    return { ...base, mimeType: file.type, kind: 'image', data: base64(bytes) };
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    if (!text.includes('\u0000')) return { ...base, mimeType: file.type || 'text/plain', kind: 'text', text };
  } catch {
    // not UTF-8: a binary file
  }
  return { ...base, mimeType: file.type || 'application/octet-stream', kind: 'binary', data: base64(bytes) };
}

/** Why the agent cannot take this attachment (with these capabilities), or undefined when it can. */
export function refusal(
  a: Attachment,
  caps: AgentPromptCapabilities,
  s: SiloChatAttachmentStrings,
): string | undefined {
  if (a.kind === 'image' && !caps.image) return s.imagesNotAccepted;
  if (a.kind === 'binary' && !caps.embeddedContext) return s.filesNotAccepted;
  return undefined;
}

/** The content block that carries an attachment (check {@link refusal} first). */
export function toBlock(a: Attachment, caps: AgentPromptCapabilities): AgentContentBlock {
  const uri = `attachment:///${encodeURIComponent(a.name)}`;
  // The image's name goes with it as its `uri` (ACP's field for where an image came from), so the
  // transcript can show it; the agent reads the image from `data`.
  if (a.kind === 'image') return { type: 'image', mimeType: a.mimeType, data: a.data!, uri };
  if (a.kind === 'text' && !caps.embeddedContext) {
    const fence = a.text!.includes('```') ? '````' : '```';
    return { type: 'text', text: `${a.name}:\n${fence}\n${a.text}\n${fence}` };
  }
  return {
    type: 'resource',
    resource:
      a.kind === 'text'
        ? { uri, mimeType: a.mimeType, text: a.text! }
        : { uri, mimeType: a.mimeType, blob: a.data! },
  };
}

/** A text file sent inline, as {@link toBlock} writes it for an agent without embedded context. */
const INLINE_FILE = /^([^\n]+):\n(`{3,})\n([\s\S]*)\n\2$/;

/** Bytes of base64 data. */
const bytesOf = (b64: string) => Math.floor((b64.replace(/[\s=]/g, '').length * 3) / 4);

/**
 * A sent prompt taken apart again (to edit it): the text the user typed and the files that went with
 * it, as {@link toBlock} made their blocks — an image, a resource with text or a blob, or a text file
 * sent inline. Any other block is left out.
 */
export function fromBlocks(blocks: readonly AgentContentBlock[]): {
  text: string;
  attachments: Attachment[];
} {
  const texts: string[] = [];
  const attachments: Attachment[] = [];
  for (const b of blocks) {
    const f = b as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    const base = { id: crypto.randomUUID() };
    if (b.type === 'text') {
      const text = str(f.text);
      const inline = INLINE_FILE.exec(text);
      if (inline)
        attachments.push({
          ...base,
          name: inline[1]!,
          mimeType: 'text/plain',
          kind: 'text',
          text: inline[3]!,
          size: new Blob([inline[3]!]).size,
        });
      else texts.push(text);
    } else if (b.type === 'image' && str(f.data)) {
      const mimeType = str(f.mimeType);
      const name = fileNameOf(str(f.uri)) || `image.${mimeType.split('/')[1] ?? 'png'}`;
      attachments.push({
        ...base,
        name,
        mimeType,
        kind: 'image',
        data: str(f.data),
        size: bytesOf(str(f.data)),
      });
    } else if (b.type === 'resource') {
      const r = (f.resource ?? {}) as Record<string, unknown>;
      const name = fileNameOf(str(r.uri)) || 'file';
      if (typeof r.text === 'string')
        attachments.push({
          ...base,
          name,
          mimeType: str(r.mimeType) || 'text/plain',
          kind: 'text',
          text: r.text,
          size: new Blob([r.text]).size,
        });
      else if (str(r.blob))
        attachments.push({
          ...base,
          name,
          mimeType: str(r.mimeType) || 'application/octet-stream',
          kind: 'binary',
          data: str(r.blob),
          size: bytesOf(str(r.blob)),
        });
    }
  }
  return { text: texts.join(''), attachments };
}

/** The blocks of a message's attachments (capabilities unknown: none assumed beyond text). */
export function toBlocks(
  list: readonly Attachment[],
  caps: AgentPromptCapabilities = { image: false, audio: false, embeddedContext: false },
): AgentContentBlock[] {
  return list.map((a) => toBlock(a, caps));
}

/** Formats a byte count for people (`12 KB`, `5 MB`). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;
}

/**
 * Reads `files` and passes each one that can be attached to `add`, in order. A file too large, over
 * the message's total (counting `current` and what was added before it), unreadable, or of a kind the
 * agent does not accept (`caps`, when known) is left out; resolves to why, one message per file.
 * Never rejects.
 */
export async function readFiles(
  files: Iterable<File>,
  current: readonly Attachment[],
  add: (a: Attachment) => void,
  s: SiloChatAttachmentStrings,
  caps: () => AgentPromptCapabilities | undefined,
): Promise<string[]> {
  const errors: string[] = [];
  let total = current.reduce((n, a) => n + a.size, 0);
  for (const file of files) {
    if (file.size > MAX_ATTACHMENT_BYTES) {
      errors.push(s.tooLarge(file.name, formatBytes(file.size), formatBytes(MAX_ATTACHMENT_BYTES)));
      continue;
    }
    if (total + file.size > MAX_ATTACHMENTS_TOTAL_BYTES) {
      errors.push(s.tooMuch(file.name, formatBytes(MAX_ATTACHMENTS_TOTAL_BYTES)));
      continue;
    }
    let a: Attachment;
    try {
      a = await read(file);
    } catch {
      errors.push(s.readFailed(file.name));
      continue;
    }
    const known = caps();
    const why = known && refusal(a, known, s);
    if (why) {
      errors.push(s.notAttached(a.name, why));
      continue;
    }
    total += a.size;
    add(a);
  }
  return errors;
}

/** The chips of attached files (`part="attachments"`, each `attachment`); `remove` takes one out. */
export function renderList(
  list: readonly Attachment[],
  s: SiloChatAttachmentStrings,
  remove: (id: string) => void,
): TemplateResult {
  return html`<ul class="attachments" part="attachments" aria-label=${s.attachments}>
        ${list.map(
          (a) => html`<li class="attachment" part="attachment" data-kind=${a.kind}>
            ${
              a.kind === 'image'
                ? html`<img part="attachment-preview" alt="" src="data:${a.mimeType};base64,${a.data!}" />`
                : nothing
            }
            <span class="name">${a.name}</span>
            <span class="size">${formatBytes(a.size)}</span>
            <button
              type="button"
              part="remove-attachment"
              aria-label=${s.removeAttachment(a.name)}
              title=${s.removeAttachment(a.name)}
              @click=${() => remove(a.id)}
            >×</button>
          </li>`,
        )}
      </ul>`;
}
