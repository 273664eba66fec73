/** Registers `<silo-transcript>` (idempotent: a second import, or a page that defined it first, is fine). */
import { SiloTranscript } from './silo-transcript.ts';

if (!customElements.get('silo-transcript')) customElements.define('silo-transcript', SiloTranscript);

declare global {
  interface HTMLElementTagNameMap {
    'silo-transcript': SiloTranscript;
  }
}

export { SiloTranscript };
