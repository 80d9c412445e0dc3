"""What the browser is asked, in its own language: the page's rendered text, and the boxes of
the characters an excerpt covers (engine/verify/seen/browser_seer.py runs these through the DevTools
protocol; the page's own scripts never run).

`WALK` reads the page as laid out: the composed tree (shadow roots and the nodes slotted into
them), without what computes to `display: none`, with the text `::before` and `::after`
generate, a line break around every block box and a space around every inline box of its
own. It returns pieces `[kind, text, ref, label]`: kind 0 a text node's text, 1 generated
content (`label` when it is only a counter or a quote mark), 2 a line break, 3 a space;
`ref` indexes the nodes kept in `window[KEY]` for `BOXES`. A closed `<details>` is opened
first: a reader opens it with a click, and the verifier counts it as shown.

`SETTLE` ends every finite animation and rests every infinite one at the start of its cycle.
`BOXES` takes `[ref, start, end]` segments (UTF-16 offsets of a text node) and returns every
code point's box in document coordinates, with the document's size. `MARK` and `UNMARK` paint
those characters transparent through a CSS custom highlight (no element is added, no layout
changes), so two screenshots differ exactly where the excerpt's own glyphs are painted.
"""

from __future__ import annotations

WALK = r"""
(key) => {
  const nodes = [];
  const pieces = [];
  const SKIP = new Set(['script', 'style', 'template', 'noscript', 'head', 'title', 'desc',
    'metadata', 'defs', 'symbol', 'clippath', 'mask', 'pattern', 'marker', 'lineargradient',
    'radialgradient', 'filter', 'select', 'option', 'textarea', 'input', 'iframe', 'object',
    'embed', 'video', 'audio', 'canvas', 'img', 'button']);
  const PRE = /^(pre|pre-wrap|pre-line|break-spaces)$/;
  const unescape = (s) => s.replace(/\\([0-9a-fA-F]{1,6})\s?|\\(.)/g,
    (m, hex, ch) => hex ? String.fromCodePoint(parseInt(hex, 16)) : ch);
  const generated = (el, which) => {
    const style = getComputedStyle(el, which);
    const content = style.content;
    if (!content || content === 'none' || content === 'normal' || style.display === 'none') {
      return null;
    }
    const token = new RegExp([
      String.raw`"((?:[^"\\]|\\.)*)"`, String.raw`'((?:[^'\\]|\\.)*)'`,
      String.raw`attr\(\s*([^)\s]+)\s*\)`, String.raw`(counters?\([^)]*\))`,
      String.raw`(no-)?(open|close)-quote`, String.raw`url\([^)]*\)`, String.raw`(\/)`,
    ].join('|'), 'g');
    let text = '';
    let label = true;
    let m;
    while ((m = token.exec(content)) !== null) {
      if (m[7]) break;  // what follows "/" is alternative text, never painted
      if (m[1] !== undefined || m[2] !== undefined) {
        const s = unescape(m[1] !== undefined ? m[1] : m[2]);
        text += s;
        if (/[\p{L}\p{N}\p{Sc}%+\-\u2212\u00b1]/u.test(s)) label = false;
      } else if (m[3]) {
        const s = el.getAttribute(m[3]) || '';
        text += s;
        if (s.trim()) label = false;
      } else if (m[4]) {
        text += '#';
      } else if (m[6] && !m[5]) {
        text += m[6] === 'open' ? '\u201c' : '\u201d';
      }
    }
    if (!text) return null;
    const block = !style.display.startsWith('inline');
    return {text: text.replace(/[\n\r\t\f]/g, ' '), label, block};
  };
  const kids = (parent) => { for (const child of parent.childNodes) visit(child); };
  const visit = (node) => {
    if (node.nodeType === 3) {
      const parent = node.parentElement;
      const pre = parent && PRE.test(getComputedStyle(parent).whiteSpace);
      const text = node.data.replace(pre ? /[\r\t\f]/g : /[\n\r\t\f]/g, ' ');
      pieces.push([0, text, nodes.push(node) - 1, false]);
      return;
    }
    if (node.nodeType === 11) { kids(node); return; }
    if (node.nodeType !== 1) return;
    const el = node;
    const tag = el.localName.toLowerCase();
    if (SKIP.has(tag)) return;
    if (tag === 'details' && !el.open) el.open = true;
    const style = getComputedStyle(el);
    if (style.display === 'none') return;
    if (tag === 'br') { pieces.push([2, '\n', -1, false]); return; }
    const contents = style.display === 'contents';
    const block = !contents && !style.display.startsWith('inline');
    const own = !contents && style.display.startsWith('inline-');
    const edge = block ? [2, '\n', -1, false] : own ? [3, ' ', -1, false] : null;
    if (edge) pieces.push(edge);
    const ref = nodes.push(el) - 1;
    const put = (g) => {
      if (!g) return;
      if (g.block) pieces.push([2, '\n', -1, false]);
      pieces.push([1, g.text, ref, g.label]);
      if (g.block) pieces.push([2, '\n', -1, false]);
    };
    put(generated(el, '::before'));
    if (el.shadowRoot) kids(el.shadowRoot);
    else if (tag === 'slot') {
      const assigned = el.assignedNodes();
      if (assigned.length) assigned.forEach(visit); else kids(el);
    } else kids(el);
    put(generated(el, '::after'));
    if (edge) pieces.push(edge);
  };
  if (document.body) visit(document.body);
  window[key] = nodes;
  return pieces;
}
"""

BOXES = r"""
([key, segments]) => {
  const nodes = window[key];
  const range = document.createRange();
  const boxes = [];
  for (const [ref, start, end] of segments) {
    const node = nodes[ref];
    for (let i = start; i < end;) {
      const step = node.data.codePointAt(i) > 0xffff ? 2 : 1;
      range.setStart(node, i);
      range.setEnd(node, i + step);
      let best = null;
      for (const r of range.getClientRects()) {
        if (!best || r.width * r.height > best.width * best.height) best = r;
      }
      const box = best ? [best.x + scrollX, best.y + scrollY, best.width, best.height] : null;
      boxes.push(box || [0, 0, 0, 0]);
      i += step;
    }
  }
  const root = document.documentElement;
  const body = document.body || root;
  const width = Math.max(root.scrollWidth, body.scrollWidth, root.clientWidth);
  const height = Math.max(root.scrollHeight, body.scrollHeight, root.clientHeight);
  return {boxes, width, height};
}
"""

SETTLE = r"""
() => {
  // A finite animation or transition ends where it stays; an infinite one rests at the
  // start of its cycle, a frame every reader sees. Screenshots then show one still page.
  for (const animation of document.getAnimations()) {
    const timing = animation.effect ? animation.effect.getComputedTiming() : null;
    if (timing && timing.endTime !== Infinity) animation.finish();
    else { animation.pause(); animation.currentTime = 0; }
  }
}
"""

STYLE = r"""
([name]) => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(`::highlight(${name}) { color: transparent !important;
    -webkit-text-fill-color: transparent !important;
    -webkit-text-stroke-color: transparent !important;
    text-shadow: none !important; text-decoration: none !important;
    background-color: transparent !important; }`);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
"""

MARK = r"""
([key, name, segments]) => {
  const nodes = window[key];
  const painted = [];
  const ranges = segments.map(([ref, start, end]) => {
    const node = nodes[ref];
    const parent = node.parentElement;
    // SVG text takes no highlight: its element is made transparent for the second shot.
    const svg = parent && parent.namespaceURI === 'http://www.w3.org/2000/svg';
    if (svg && !painted.includes(parent)) {
      painted.push(parent);
    }
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, end);
    return range;
  });
  window[key + '_svg'] = painted.map((el) => [el, el.getAttribute('style')]);
  for (const el of painted) {
    for (const property of ['fill', 'stroke', 'color']) {
      el.style.setProperty(property, 'transparent', 'important');
    }
  }
  CSS.highlights.set(name, new Highlight(...ranges));
}
"""

UNMARK = r"""
([key, name]) => {
  CSS.highlights.delete(name);
  for (const [el, style] of window[key + '_svg'] || []) {
    if (style === null) el.removeAttribute('style'); else el.setAttribute('style', style);
  }
  window[key + '_svg'] = [];
}
"""
