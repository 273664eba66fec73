/**
 * Registers `<silo-chat>` and the transcript it uses (idempotent: registering twice is harmless);
 * `<silo-elicitation>` is loaded by the transcript with its first question.
 */
import '../transcript/silo-transcript.define.ts';
import { SiloChat } from './silo-chat.ts';

if (!customElements.get('silo-chat')) customElements.define('silo-chat', SiloChat);

declare global {
  interface HTMLElementTagNameMap {
    'silo-chat': SiloChat;
  }
}

export { SiloChat };
