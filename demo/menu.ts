/**
 * The demo's menus (`<details class="menu">`: a summary that opens a panel over the page): a click
 * outside or Esc closes the open one, and Esc gives focus back to its summary.
 */

/** Closes the menu holding `inside`, if any. */
export function closeMenu(inside: Element): void {
  const menu = inside.closest('details.menu');
  if (menu instanceof HTMLDetailsElement) menu.open = false;
}

document.addEventListener('pointerdown', (e) => {
  for (const menu of document.querySelectorAll<HTMLDetailsElement>('details.menu[open]'))
    if (!menu.contains(e.target as Node)) menu.open = false;
});
document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape') return;
  for (const menu of document.querySelectorAll<HTMLDetailsElement>('details.menu[open]')) {
    menu.open = false;
    menu.querySelector('summary')?.focus();
    e.preventDefault();
  }
});
