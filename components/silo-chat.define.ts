/** Registers `<silo-chat>` and the elements it uses (idempotent: registering twice is harmless). */
import './silo-elicitation.define.ts';
import './silo-transcript.define.ts';
import { SiloChat } from './silo-chat.ts';

if (!customElements.get('silo-chat')) customElements.define('silo-chat', SiloChat);

declare global {
  interface HTMLElementTagNameMap {
    'silo-chat': SiloChat;
  }
}

export { SiloChat };
