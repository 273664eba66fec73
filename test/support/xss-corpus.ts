/**
 * The XSS corpus every rendering test feeds through Silo: each payload, if it ever ran, would push its
 * number onto `window.__xss`, so a test asserts that array stays empty.
 */
export const XSS_PAYLOADS: readonly string[] = [
  '<img src=x onerror="window.__xss.push(1)">',
  '<script>window.__xss.push(2)</script>',
  '[click](javascript:window.__xss.push(3))',
  '<a href="javascript:window.__xss.push(4)">a</a>',
  '<svg onload="window.__xss.push(5)"></svg>',
  '<iframe src="javascript:window.__xss.push(6)"></iframe>',
  '"><img src=x onerror=window.__xss.push(7)>',
  '[data](data:text/html,<script>window.__xss.push(8)</script>)',
  '<details open ontoggle="window.__xss.push(9)">x</details>',
  '<math><mtext><table><mglyph><style><img src=x onerror=window.__xss.push(10)>',
  '![img](javascript:window.__xss.push(11))',
  '<form action="javascript:window.__xss.push(12)"><button>go</button></form>',
  '<a href="vbscript:msgbox(1)">vb</a> <a href="  javascript:window.__xss.push(13)">sp</a>',
  '<style>:host{display:none}</style><object data="javascript:window.__xss.push(14)"></object>',
];
