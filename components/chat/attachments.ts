/**
 * Attachments of `<silo-chat>`'s composer: files and images pasted, dropped or picked with the Attach
 * button, shown as removable chips (images with a thumbnail) and sent as ACP content blocks when the
 * agent's `promptCapabilities` allow them (what is sent: attachment-files.ts and
 * docs/components.md, "Attachments").
 *
 * Only what must run at the event is here, in the first paint: the Attach button, and the paste, drag
 * and drop handlers, which take the files and prevent the browser's default at once. Reading the
 * files, their checks, chips and content blocks are a chunk of their own (attachment-files.ts),
 * loaded with `import()` by the first file added (attachment-files.chunk.ts). An {@link Attachment} is only ever made by that
 * chunk, so wherever there is one the chunk is in.
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { AgentContentBlock, AgentPromptCapabilities } from '../../src/index.ts';
import type { SiloChatAttachmentStrings } from '../shared/strings/chat.ts';
import { type Files, filesChunk } from './attachment-files.chunk.ts';
import type { Attachment } from './attachment-files.ts';

export type { Attachment } from './attachment-files.ts';

/** The files chunk, once an attachment exists (only the chunk makes one, after it loaded). */
function loaded(): Files {
  const m = filesChunk.value;
  if (!m) throw new Error('An attachment exists before the attachments chunk was loaded');
  return m;
}

/** Why the agent cannot take this attachment (with these capabilities), or undefined when it can. */
export function refusal(
  a: Attachment,
  caps: AgentPromptCapabilities,
  s: SiloChatAttachmentStrings,
): string | undefined {
  return loaded().refusal(a, caps, s);
}

/** The blocks of a message's attachments (capabilities unknown: none assumed beyond text). */
export function toBlocks(list: readonly Attachment[], caps?: AgentPromptCapabilities): AgentContentBlock[] {
  return list.length ? loaded().toBlocks(list, caps) : [];
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
   * Reads and adds files, loading the files chunk first (once). A file too large, over the message's
   * total, unreadable, or of a kind the agent does not accept is left out and {@link error} says why;
   * the others are added. If the chunk cannot be loaded, no file is added and each is reported
   * unreadable; the next add tries again. Never rejects.
   */
  async add(files: Iterable<File>): Promise<void> {
    const s = this.strings();
    const list = Array.from(files);
    let errors: string[];
    try {
      const m = await filesChunk.load();
      errors = await m.readFiles(list, this.list, (a) => (this.list = [...this.list, a]), s, this.caps);
    } catch {
      errors = list.map((f) => s.readFailed(f.name));
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

  /**
   * Puts the files of a sent prompt back (Edit last), loading the files chunk first (once); resolves
   * to the text the user typed in it. Rejects when the chunk cannot be loaded (nothing changes then).
   */
  async fromPrompt(blocks: readonly AgentContentBlock[]): Promise<string> {
    const m = await filesChunk.load();
    const { text, attachments } = m.fromBlocks(blocks);
    this.restore(attachments);
    return text;
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
    if (this.list.length === 0 && !this.error) return nothing;
    return html`${
      this.error
        ? html`<p class="note" part="attachment-error" id="attachment-error" role="alert">${this.error}</p>`
        : nothing
    }${this.list.length ? loaded().renderList(this.list, this.strings(), (id) => this.remove(id)) : nothing}`;
  }
}
