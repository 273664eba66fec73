// embed.html's one module script (a file, not inline: the demo's CSP allows no inline script).
import '/dist/standalone/components.js'; // the package's self-contained bundle (no build step)

// On your page, write the connection string silo-bridge printed into the `bridge` attribute:
//   <silo-chat bridge="ws://127.0.0.1:7777/#token=…" cwd="/home/me/project">
// Here `npm start` hands it to the page instead, so nothing needs to be copied.
const chat = document.querySelector('silo-chat');
const bridge = await fetch('/.silo-bridge.json').then((r) => r.json());
chat.setAttribute('cwd', bridge.cwd);
chat.setAttribute('bridge', bridge.connection);
