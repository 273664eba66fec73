/**
 * The demo page: a history of journaled sessions (readable offline; searched, renamed and deleted
 * through the service), new session, restore with its outcome, "Continue in a new session", export/import, a scenario picker for the reference
 * agent, and the live `<silo-chat>`. It uses only the package's public entry points. The modules:
 * app.ts (service, elements, state), history.ts, live.ts (bridge and chat), sidebar.ts, bar.ts,
 * menu.ts and drawer.ts (the phone's history drawer).
 */
import { render } from 'lit';
import 'silo-acp/components';
import { chat, onPaint, service, state, viewer } from './app.ts';
import { barTemplate } from './bar.ts';
import { paintDrawer } from './drawer.ts';
import { refreshHistory } from './history.ts';
import { checkBridge } from './live.ts';
import { sidebarTemplate } from './sidebar.ts';

const sidebar = document.getElementById('sidebar')!;
const bar = document.getElementById('session-bar')!;

function paint(): void {
  render(sidebarTemplate(), sidebar);
  render(barTemplate(), bar);
  paintDrawer();
  const renaming = sidebar.querySelector<HTMLInputElement>('input.rename');
  if (renaming && document.activeElement !== renaming) {
    renaming.focus();
    renaming.select();
  }
  const viewing = state.viewing;
  chat.hidden = viewing !== undefined || !state.bridge;
  viewer.hidden = viewing === undefined;
  if (viewing && (viewer.sessionId !== viewing || viewer.service !== service)) {
    viewer.service = service;
    viewer.sessionId = viewing;
  } else if (!viewing && viewer.sessionId) {
    // Read again from the journal next time: the session may have grown meanwhile.
    viewer.sessionId = undefined;
  }
}

onPaint(paint);
paint();
void refreshHistory();
void checkBridge();
// A printed URL opened in this tab again only changes the fragment: no reload, so redeem it here.
addEventListener('hashchange', () => {
  if (location.hash.includes('launch=')) void checkBridge();
});
