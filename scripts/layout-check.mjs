// The geometry the demo and <silo-chat> must keep at every window size (issue #28 §2), measured in a
// page by puppeteer: `measureLayout` runs in the page (pass it to `page.evaluate`), `layoutProblems`
// reads its result in Node. Used by test/e2e/demo-layout.test.ts, which fails on any problem, and by
// scripts/screenshot.mjs, which prints them beside the screenshots.

/**
 * Runs in the page: the boxes of everything interactive (through shadow roots), which of them overlap
 * or are clipped, the transcript's log, the composer's text box and Send, and the chat's top.
 * Everything inside a transcript's log is left out of the overlap and clip checks: rows scroll there,
 * and a row's own controls (Copy over a code block) sit over it by design; the log itself is a box.
 */
export function measureLayout() {
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  /** The element's ancestors, through shadow roots. */
  const ancestors = function* (el) {
    for (let n = el.parentNode ?? el.host; n; n = n.parentNode ?? n.host) if (n.nodeType === 1) yield n;
  };
  const all = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      all.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  // The transcript's log (a `feed` with rows, an empty `region` before them): its `log` part.
  const isLog = (el) => el.getAttribute('part')?.split(' ').includes('log') === true;
  const inLog = (el) => [...ancestors(el)].some(isLog);
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) return false;
    // The content of a closed <details> has boxes in Chromium (content-visibility), but is not shown.
    if (el.checkVisibility && !el.checkVisibility({ contentVisibilityAuto: true })) return false;
    for (const a of [el, ...ancestors(el)]) {
      if (a.localName === 'details' && !a.open && !el.closest('summary')) return false;
      if (a.inert || a.hidden) return false;
      const cs = getComputedStyle(a);
      if (cs.visibility === 'hidden' || cs.display === 'none' || Number(cs.opacity) === 0) return false;
    }
    return true;
  };
  const name = (el) => {
    const part = el.getAttribute('part');
    const label = el.getAttribute('aria-label') ?? el.textContent?.replace(/\s+/g, ' ').trim().slice(0, 30);
    return `${el.localName}${el.id ? `#${el.id}` : ''}${part ? `[part=${part}]` : ''}${label ? ` "${label}"` : ''}`;
  };
  // A label around a control is what a click lands on (its text cut is a control cut).
  const INTERACTIVE =
    'button, select, textarea, input:not([type=hidden]), label:has(input, select, textarea), summary, a[href], [role=log], [tabindex]:not([tabindex="-1"])';
  const boxes = all
    .filter((el) => el.matches(INTERACTIVE) && !inLog(el) && shown(el))
    .map((el) => ({ el, name: name(el), r: el.getBoundingClientRect() }));
  const contains = (a, b) => a === b || [...ancestors(b)].includes(a);
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (contains(a.el, b.el) || contains(b.el, a.el)) continue;
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (w > 1 && h > 1)
        overlaps.push(`${a.name} overlaps ${b.name} (${Math.round(w)}×${Math.round(h)} px)`);
    }
  const clipped = [];
  for (const { el, name: n, r } of boxes) {
    // Cut by the window or by an ancestor that hides or scrolls what overflows it.
    let left = 0;
    let top = 0;
    let right = vw;
    let bottom = vh;
    let scrolls = false;
    for (const a of ancestors(el)) {
      const cs = getComputedStyle(a);
      if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
      const c = a.getBoundingClientRect();
      left = Math.max(left, c.left);
      right = Math.min(right, c.right);
      // A list that scrolls up and down (a sidebar in a short window) shows the rest on a scroll;
      // one that scrolls sideways hides it (a cut row of pickers).
      if (/auto|scroll/.test(cs.overflowY) && a.scrollHeight > a.clientHeight) {
        scrolls = true;
        continue;
      }
      top = Math.max(top, c.top);
      bottom = Math.min(bottom, c.bottom);
    }
    if (scrolls) {
      top = Number.NEGATIVE_INFINITY;
      bottom = Number.POSITIVE_INFINITY;
    }
    if (r.left < left - 1 || r.top < top - 1 || r.right > right + 1 || r.bottom > bottom + 1)
      clipped.push(
        `${n} is cut off (${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)})`,
      );
    // Its own text cut (a label wider than its button).
    else if (el.matches('button, summary') && el.scrollWidth > el.clientWidth + 1)
      clipped.push(`${n}: its text is cut (${el.scrollWidth} px in ${el.clientWidth})`);
  }
  const rect = (el) => {
    if (!el || !shown(el)) return undefined;
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
  };
  const logs = all.filter((el) => isLog(el) && shown(el));
  const composer = all.find((el) => el.getAttribute('part') === 'composer' && shown(el));
  const textarea = composer?.querySelector('textarea');
  const chat = all.find(
    (el) => (el.localName === 'silo-chat' || el.localName === 'silo-transcript') && shown(el),
  );
  const composerBox = rect(composer);
  const pad = composer ? getComputedStyle(composer) : undefined;
  return {
    vw,
    vh,
    horizontalScroll: document.documentElement.scrollWidth > vw + 1,
    verticalScroll: document.documentElement.scrollHeight > vh + 1,
    overlaps,
    clipped,
    log: rect(logs[0]),
    chat: rect(chat),
    composerInner:
      composerBox && pad
        ? composerBox.width - parseFloat(pad.paddingLeft) - parseFloat(pad.paddingRight)
        : undefined,
    textarea: rect(textarea),
    send: rect(composer?.querySelector('[part~="send"], [part~="stop"]')),
  };
}

/**
 * What is wrong with a {@link measureLayout} result, one sentence each (none: the layout holds): the
 * transcript's log gets at least half the window's height, the chat starts at the top, the composer's
 * text box keeps at least 60 % of the composer's width (and 200 px), Send is inside the window, and
 * nothing interactive overlaps, is cut off, or scrolls the page.
 */
export function layoutProblems(m) {
  const problems = [...m.overlaps, ...m.clipped];
  if (m.horizontalScroll) problems.push('the page scrolls sideways');
  if (m.verticalScroll) problems.push('the page scrolls (the chat should fit the window)');
  if (!m.log) problems.push('no transcript log is visible');
  else if (m.log.height < m.vh / 2)
    problems.push(`the transcript gets ${Math.round(m.log.height)} px of ${m.vh} (less than half)`);
  if (!m.chat) problems.push('no chat is visible');
  else if (m.chat.top > 80) problems.push(`the chat starts ${Math.round(m.chat.top)} px down`);
  if (m.textarea && m.composerInner !== undefined) {
    const min = Math.max(200, 0.6 * m.composerInner);
    if (m.textarea.width < min)
      problems.push(
        `the text box is ${Math.round(m.textarea.width)} px wide of ${Math.round(m.composerInner)}`,
      );
  }
  if (m.send && (m.send.bottom > m.vh || m.send.right > m.vw || m.send.top < 0 || m.send.left < 0))
    problems.push(`Send is outside the window (${Math.round(m.send.left)},${Math.round(m.send.top)})`);
  return problems;
}
