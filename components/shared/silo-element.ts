/**
 * The base class of Silo's elements: a `LitElement` with one way to fire an event, {@link
 * SiloElement.emit}, typed by the `silo-*` events each element declares in
 * `GlobalEventHandlersEventMap`. Controllers fire their element's events through it too.
 * @packageDocumentation
 */
import { LitElement } from 'lit';

/** The `silo-*` events declared in `GlobalEventHandlersEventMap` as `CustomEvent`s. */
export type SiloEventName = {
  [K in keyof GlobalEventHandlersEventMap]: K extends `silo-${string}`
    ? GlobalEventHandlersEventMap[K] extends CustomEvent<unknown>
      ? K
      : never
    : never;
}[keyof GlobalEventHandlersEventMap];

/** The detail of the `silo-*` event `K`. */
export type SiloEventDetail<K extends SiloEventName> =
  GlobalEventHandlersEventMap[K] extends CustomEvent<infer D> ? D : never;

/** A Lit element that fires its `silo-*` events with {@link emit}. */
export class SiloElement extends LitElement {
  /**
   * Fires `name` with `detail` on this element, synchronously, as a bubbling, composed (it leaves the
   * shadow root), non-cancelable `CustomEvent`. Listeners' exceptions are reported by the browser, not
   * thrown here.
   * @internal
   */
  emit<K extends SiloEventName>(name: K, detail: SiloEventDetail<K>): void {
    const event = new CustomEvent(name, { detail, bubbles: true, composed: true });
    this.dispatchEvent(event);
  }
}

/** What a controller needs to fire its element's events. */
export type SiloEmitter = Pick<SiloElement, 'emit'>;
