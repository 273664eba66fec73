/**
 * One ACP content block in the transcript, from the agent or from the user's own prompt: text
 * (Markdown), image, audio, embedded resource, resource link, or a placeholder. Nothing here makes
 * the page fetch anything: an image or audio shows only from its base64 `data` (as a `data:` URL,
 * allowed MIME types only), never from its `uri`; a resource link is an `<a>` opened in a new tab on
 * a click (http and https only), never fetched; agent strings reach the DOM as escaped Lit bindings,
 * or, for Markdown, sanitized (content/markdown.ts).
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { AgentContentBlock } from '../../../src/index.ts';
import { highlightCode } from '../../content/code.lazy.ts';
import { onCodeCopyClick } from '../../content/copy.ts';
import { plainText } from '../../content/long-text.ts';
import { safeHref } from '../../content/safe-href.ts';
import { clipLabel } from '../../content/text-budget.ts';
import { fileNameOf } from '../../shared/format.ts';
import type { SiloTranscriptStrings } from '../../shared/strings/strings.ts';

/** Image types shown inline (from base64 data only). */
export const IMAGE_TYPES = /^image\/(?:png|jpeg|gif|webp|avif|bmp)$/;
const AUDIO_TYPES = /^audio\/(?:wav|x-wav|mpeg|mp3|ogg|webm|flac|aac|mp4)$/;
/** Base64 as the `data` of an image or a blob must be: nothing else can enter a `data:` URL. */
export const BASE64 = /^[A-Za-z0-9+/=\s]*$/;
/** A resource of at most this many lines is shown open. */
const OPEN_RESOURCE_LINES = 12;

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** Whether `text` has at most `n` lines (reads up to its `n`-th newline). */
function atMostLines(text: string, n: number): boolean {
  let at = -1;
  for (let k = 0; k < n; k++) {
    at = text.indexOf('\n', at + 1);
    if (at === -1) return true;
  }
  return false;
}

/**
 * Renders one content block; `key` names it (a row's key and part: the open state of its long text).
 * `markdown(text)` renders a text block's sanitized Markdown (the caller's content/markdown.lazy.ts
 * directive). An unknown type, or an image or audio of a type not allowed, shows a placeholder naming it.
 */
export function renderContentBlock(
  b: AgentContentBlock,
  s: SiloTranscriptStrings,
  key: string,
  locale: string | undefined,
  markdown: (text: string) => unknown,
): TemplateResult {
  const f = b as Record<string, unknown>;
  switch (b.type) {
    case 'text':
      return html`<div class="md" @click=${(e: Event) => onCodeCopyClick(e, s)} ${highlightCode()}>${markdown(str(f.text))}</div>`;
    case 'image':
      return image(str(f.mimeType), str(f.data), str(f.uri), s);
    case 'audio': {
      const mime = str(f.mimeType);
      const data = str(f.data);
      if (!AUDIO_TYPES.test(mime) || !data || !BASE64.test(data)) {
        return html`<div class="placeholder" part="placeholder">${s.unknownBlock(`audio ${mime}`)}</div>`;
      }
      return html`<audio controls aria-label=${s.audio(mime)} src="data:${mime};base64,${data}"></audio>`;
    }
    case 'resource_link': {
      const name = clipLabel(str(f.title) || str(f.name) || str(f.uri));
      const href = safeHref(f.uri);
      return html`<div class="resource" part="resource-link">
        ${
          href
            ? html`<a href=${href} target="_blank" rel="noopener noreferrer nofollow">${name}</a>`
            : html`<code>${name}</code>`
        }
        ${typeof f.description === 'string' ? html`<span class="muted">${clipLabel(f.description)}</span>` : nothing}
      </div>`;
    }
    case 'resource':
      return resource((f.resource ?? {}) as Record<string, unknown>, s, key, locale);
    default:
      return html`<div class="placeholder" part="placeholder">${s.unknownBlock(String(b.type))}</div>`;
  }
}

/**
 * An image from its base64 data, with its file name under it when its `uri` names one; one with only
 * a `uri` (or a type not allowed) is a placeholder.
 */
function image(mime: string, data: string, uri: string, s: SiloTranscriptStrings): TemplateResult {
  if (!IMAGE_TYPES.test(mime) || !BASE64.test(data)) {
    return html`<div class="placeholder" part="placeholder">${s.unsupportedImage(mime)}</div>`;
  }
  if (!data) return html`<div class="placeholder" part="placeholder">${s.imageNotShown(uri || mime)}</div>`;
  const name = fileNameOf(uri);
  const img = html`<img class="image" part="image" alt=${name || s.image(mime)} src="data:${mime};base64,${data}" />`;
  if (!name) return img;
  return html`<figure class="named-image">
    ${img}<figcaption class="file-name" part="file-name" title=${uri}>${name}</figcaption>
  </figure>`;
}

/** A resource's name (its URI's file name, else the URI) with its whole URI as a tooltip. */
function resourceName(uri: string, s: SiloTranscriptStrings): TemplateResult {
  return html`<span class="file-name" part="file-name" title=${uri}>${s.resource(fileNameOf(uri) || uri)}</span>`;
}

/**
 * An embedded resource: its file name (and type) as the summary; text as a code block (open when short);
 * a base64 image blob as an image; any other blob as its name and type.
 */
function resource(
  r: Record<string, unknown>,
  s: SiloTranscriptStrings,
  key: string,
  locale: string | undefined,
): TemplateResult {
  const uri = clipLabel(str(r.uri));
  const mime = clipLabel(str(r.mimeType));
  if (typeof r.text === 'string') {
    const open = atMostLines(r.text, OPEN_RESOURCE_LINES);
    return html`<details class="resource" part="resource" ?open=${open}>
      <summary>${resourceName(uri, s)}${mime ? html` <span class="muted">${mime}</span>` : nothing}</summary>
      <pre tabindex="0"><code>${plainText(key, r.text, s, locale)}</code></pre>
    </details>`;
  }
  const blob = str(r.blob);
  if (blob && IMAGE_TYPES.test(mime) && BASE64.test(blob)) {
    return html`<figure class="resource" part="resource">
      <img class="image" part="image" alt=${s.image(mime)} src="data:${mime};base64,${blob}" />
      <figcaption>${resourceName(uri, s)}</figcaption>
    </figure>`;
  }
  return html`<div class="resource" part="resource">
    ${resourceName(uri, s)}${mime ? html` <span class="muted">${mime}</span>` : nothing}
  </div>`;
}
