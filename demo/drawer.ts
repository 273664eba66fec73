/**
 * The phone's layout (up to 760 px wide, as demo/styles.css says): `state.phone`, and the history as
 * a drawer. The sidebar slides in over the chat, which comes first. While closed it is inert (no
 * focus, no screen reader); Esc, the scrim or its Close button closes it, and focus goes back to the
 * button that opened it. It slides only when opened or closed, not when the window is resized.
 */
import { state, update } from './app.ts';

const phone = matchMedia('(max-width: 760px)');
state.phone = phone.matches;
const sidebar = document.getElementById('sidebar')!;
const scrim = document.getElementById('scrim')!;
let shown = false;

scrim.addEventListener('click', () => update({ drawer: false }));
sidebar.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && state.drawer) update({ drawer: false });
});
phone.addEventListener('change', () => {
  sidebar.classList.remove('sliding');
  update({ phone: phone.matches, drawer: false });
});
sidebar.addEventListener('transitionend', () => sidebar.classList.remove('sliding'));

/** Shows the drawer as `state.drawer` says (after the bar and the sidebar are painted). */
export function paintDrawer(): void {
  const open = state.drawer && phone.matches;
  document.body.classList.toggle('drawer-open', open);
  scrim.hidden = !open;
  sidebar.inert = phone.matches && !open;
  if (open === shown) return;
  shown = open;
  sidebar.classList.add('sliding');
  if (open) sidebar.querySelector<HTMLElement>('button:not([disabled])')?.focus();
  else if (phone.matches) document.querySelector<HTMLElement>('.drawer-toggle')?.focus();
}
