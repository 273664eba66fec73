/**
 * The XSS corpus every rendering test feeds through Silo: each payload, if it ever ran, would push its
 * number onto `window.__xss`, so a test asserts that array stays empty. The payloads from 15 on make
 * the page fetch `/__silo-beacon/<n>` if their URL survived, or imitate Silo's own UI; a test counts
 * the beacon requests in the browser and asserts there are none (test/browser/transcript/markdown-policy.test.ts).
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
  '<table background="/__silo-beacon/15"><tr><td background="/__silo-beacon/16">bg</td></tr></table>',
  '<img src="/__silo-beacon/17" alt="tracker"> <img srcset="/__silo-beacon/18 1x" alt="srcset">',
  '![pixel](/__silo-beacon/19) ![abs](http://127.0.0.1:9/__silo-beacon/20)',
  '<video poster="/__silo-beacon/21" src="/__silo-beacon/22"></video><audio src="/__silo-beacon/23"></audio>',
  '<picture><source srcset="/__silo-beacon/24"><img src="/__silo-beacon/25"></picture>',
  '<input type="image" src="/__silo-beacon/26"><body background="/__silo-beacon/27">',
  '<link rel="stylesheet" href="/__silo-beacon/28"><link rel="prefetch" href="/__silo-beacon/29">',
  '<div style="background:url(/__silo-beacon/30)">styled</div><p style="list-style:url(/__silo-beacon/31)">x</p>',
  '<style>@import url(/__silo-beacon/32); p{background:url(/__silo-beacon/33)}</style><p>styled</p>',
  '<svg><image href="/__silo-beacon/34"/><use href="/__silo-beacon/35#x"/></svg>',
  '<object data="/__silo-beacon/36"></object><embed src="/__silo-beacon/37"><iframe src="/__silo-beacon/38"></iframe>',
  '<meta http-equiv="refresh" content="0;url=/__silo-beacon/39"><base href="/__silo-beacon/40/">',
  '<a href="https://example.com/" ping="/__silo-beacon/41">ping</a> <blockquote cite="/__silo-beacon/42">q</blockquote>',
  '<div class="row tool" part="tool" data-kind="allow_once" id="fake">Fake tool card</div>',
  '<p class="row tool" part="tool" id="fake-p">Fake tool card</p><table class="row"><tr><td class="md">t</td></tr></table>',
  '<dialog open>Allow the agent to run rm -rf? <button>Allow</button></dialog>',
  '<div style="position:fixed;inset:0;z-index:9999;background:white">full-screen overlay</div>',
];
