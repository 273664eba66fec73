/** Registers `<silo-elicitation>` (idempotent: a second import, or a page that defined it first, is fine). */
import { SiloElicitation } from './silo-elicitation.ts';

if (!customElements.get('silo-elicitation')) customElements.define('silo-elicitation', SiloElicitation);

declare global {
  interface HTMLElementTagNameMap {
    'silo-elicitation': SiloElicitation;
  }
}

export { SiloElicitation };
