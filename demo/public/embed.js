// embed.html's one module script (a file, not inline: the demo's CSP allows no inline script).
import '/dist/standalone/components.js'; // the package's self-contained bundle (no build step)

// On your page, write the connection string silo-bridge printed into the `bridge` attribute:
//   <silo-chat bridge="ws://127.0.0.1:7777/#token=…" cwd="/home/me/project">
// Here `npm start` hands it to the page instead, so nothing needs to be copied. The demo's "Minimal
// embed" opens this page with a one-time launch key in the #fragment; it is redeemed for this tab's
// secret, kept in history.state for reloads, as demo/bridge-config.ts describes.
const chat = document.querySelector('silo-chat');
const bearer = (secret) => ({ authorization: `Bearer ${secret}` });
const key = new URLSearchParams(location.hash.slice(1)).get('launch');
if (key) {
  history.replaceState(history.state, '', location.pathname);
  const opened = await fetch('/.silo-session', { method: 'POST', headers: bearer(key) });
  if (opened.ok) history.replaceState({ siloDemoSession: (await opened.json()).session }, '');
}
const session = history.state?.siloDemoSession;
const answer = await fetch('/.silo-bridge.json', {
  cache: 'no-store',
  headers: session ? bearer(session) : {},
});
if (answer.ok) {
  const bridge = await answer.json();
  chat.setAttribute('cwd', bridge.cwd);
  chat.setAttribute('bridge', bridge.connection);
} else {
  const notice = document.createElement('p');
  notice.id = 'notice';
  notice.setAttribute('role', 'status');
  notice.textContent =
    answer.status === 403
      ? 'This tab has no launch key: open this page with the "Minimal embed" link of a demo tab.'
      : 'No bridge is running.';
  chat.before(notice);
}
