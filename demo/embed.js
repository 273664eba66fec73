// embed.html's one module script (a file, not inline: the demo's CSP allows no inline script).
import '/dist/components.js'; // the package's own bundle (silo-acp/components)

// On your page, write the bridge's URL and token (printed by silo-bridge) into the attributes:
//   <silo-chat bridge-url="ws://127.0.0.1:7777" bridge-token="…" cwd="/home/me/project">
// Here `npm start` hands them to the page instead, so nothing needs to be copied.
const chat = document.querySelector('silo-chat');
const bridge = await fetch('/.silo-bridge.json').then((r) => r.json());
chat.setAttribute('cwd', bridge.cwd);
chat.setAttribute('bridge-url', bridge.url);
chat.setAttribute('bridge-token', bridge.token);
