/**
 * Attachments of `<silo-chat>`'s composer: files and images pasted, dropped or picked with the Attach
 * button, shown as removable chips (images with a thumbnail) and sent as ACP content blocks when the
 * agent's `promptCapabilities` allow them. Nothing is fetched: a file is read from the user's own
 * disk (`File`), and a thumbnail is a `data:` URL of that file.
 *
 * What is sent (see docs/components.md, "Attachments"):
 * - a PNG, JPEG, GIF or WebP image: an `image` block (base64 data, MIME type), if the agent accepts
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
import type { AgentContentBlock, AgentPromptCapabilities } from '../src/index.ts';
import type { SiloChatAttachmentStrings } from './strings-chat.ts';

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
  if (a.kind === 'image') return { type: 'image', mimeType: a.mimeType, data: a.data! };
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

/** The attachments of one composer: adding (with its checks), removing, and their chips. */
export class Attachments {
  list: Attachment[] = [];
  /** Why the last file(s) could not be attached, shown until the next change. */
  error: string | undefined;

  constructor(
    private readonly changed: () => void,
    private readonly strings: () => SiloChatAttachmentStrings,
    /** The agent's prompt capabilities, when known (not before Silo talked to the agent). */
    private readonly caps: () => AgentPromptCapabilities | undefined,
  ) {}

  /**
   * Reads and adds files. A file too large, over the message's total, unreadable, or of a kind the
   * agent does not accept is left out and {@link error} says why; the others are added. Never rejects.
   */
  async add(files: Iterable<File>): Promise<void> {
    const s = this.strings();
    const errors: string[] = [];
    let total = this.list.reduce((n, a) => n + a.size, 0);
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
      const caps = this.caps();
      const why = caps && refusal(a, caps, s);
      if (why) {
        errors.push(s.notAttached(a.name, why));
        continue;
      }
      total += a.size;
      this.list = [...this.list, a];
    }
    this.error = errors.length ? errors.join(' ') : undefined;
    this.changed();
  }

  remove(id: string): void {
    this.list = this.list.filter((a) => a.id !== id);
    this.error = undefined;
    this.changed();
  }

  /** Takes every attachment out (they are being sent). */
  take(): Attachment[] {
    const out = this.list;
    this.list = [];
    this.error = undefined;
    this.changed();
    return out;
  }

  /** Puts attachments back in front (a message not sent, a queued one cancelled). */
  restore(list: readonly Attachment[]): void {
    this.list = [...list, ...this.list];
    this.changed();
  }

  /** Paste into the composer: files on the clipboard are attached (text still pastes as text). */
  onPaste = (e: ClipboardEvent): void => {
    const files = Array.from(e.clipboardData?.files ?? []);
    if (files.length === 0) return;
    if (!e.clipboardData?.types.includes('text/plain')) e.preventDefault();
    void this.add(files);
  };

  /** Drag over the composer: accepts files. */
  onDragOver = (e: DragEvent): void => {
    if (!e.dataTransfer?.types.includes('Files')) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  };

  /** Drop on the composer: the dropped files are attached. */
  onDrop = (e: DragEvent): void => {
    const files = Array.from(e.dataTransfer?.files ?? []);
    if (files.length === 0) return;
    e.preventDefault();
    void this.add(files);
  };

  /** The Attach button and its hidden file picker (`part="attach"`). */
  renderButton(): TemplateResult {
    const s = this.strings();
    return html`<input
        type="file"
        multiple
        hidden
        tabindex="-1"
        aria-hidden="true"
        @change=${(e: Event) => {
          const input = e.target as HTMLInputElement;
          const files = Array.from(input.files ?? []);
          input.value = '';
          void this.add(files);
        }}
      /><button
        type="button"
        part="attach"
        title=${s.attachLabel}
        aria-label=${s.attachLabel}
        @click=${(e: Event) =>
          ((e.currentTarget as HTMLElement).previousElementSibling as HTMLInputElement).click()}
      ><span class="attach-text">${s.attach}</span><span class="attach-icon" aria-hidden="true">+</span></button>`;
  }

  /** The chips of the attached files (`part="attachments"`, each `attachment`), and why one was refused. */
  renderChips(): TemplateResult | typeof nothing {
    const s = this.strings();
    if (this.list.length === 0 && !this.error) return nothing;
    return html`${
      this.error
        ? html`<p class="note" part="attachment-error" id="attachment-error" role="alert">${this.error}</p>`
        : nothing
    }${
      this.list.length
        ? html`<ul class="attachments" part="attachments" aria-label=${s.attachments}>
        ${this.list.map(
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
              @click=${() => this.remove(a.id)}
            >×</button>
          </li>`,
        )}
      </ul>`
        : nothing
    }`;
  }
}
