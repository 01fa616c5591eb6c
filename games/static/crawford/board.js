// Crawford: draws a backgammon position as SVG. No dependencies, no network.
// A position is seen from player 0: points[i] is point i+1 in player 0's numbering,
// > 0 player 0's checkers (light), < 0 player 1's (dark); bar and off are [player 0, player 1].
// Where the board's box is too narrow for points of opts.minPoint px side by side (a phone), it is drawn upright:
// turned a quarter, its points rows of that height, shorter, their checkers overlapping, the numbers upright.
"use strict";
window.Crawford = window.Crawford || {};

(function (C) {
  const NS = "http://www.w3.org/2000/svg";
  // the page's language: Django's JavaScript catalogue (/jsi18n/), loaded before this script on every page drawing a board
  const gettext = window.gettext;
  const fmt = (text, values) => window.interpolate(text, values, true);
  const PW = 40, BAR = 40, TRAY = 40, R = 17, LABEL = 18;  // LABEL: the strips holding the point numbers
  const W = 20 + 12 * PW + BAR;  // where the tray begins, right of the last point
  const TALL = 420, SHORT = 272;  // the board's height (both halves) drawn flat, and upright
  let H = TALL, STEP = 2 * R;  // this drawing's height and the distance between checkers stacked on a point

  function el(name, attrs, text) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // x of a point's column, and whether it is on the top half (player 0's numbering)
  function column(p) {
    if (p >= 13) { const i = p - 13; return { x: 10 + i * PW + (i >= 6 ? BAR : 0), top: true }; }
    const i = 12 - p; return { x: 10 + i * PW + (i >= 6 ? BAR : 0), top: false };
  }

  function checkers(g, x, top, count, owner, label) {
    const shown = Math.min(count, 5);
    for (let k = 0; k < shown; k++) {
      const cy = top ? 10 + R + k * STEP : H - 10 - R - k * STEP;
      g.appendChild(el("circle", { cx: x + PW / 2, cy, r: R - 1, class: owner === 0 ? "c0" : "c1" }));
    }
    if (count > 5) {
      const cy = top ? 10 + R + 4 * STEP : H - 10 - R - 4 * STEP;
      g.appendChild(el("text", { x: x + PW / 2, y: cy + 5, class: "n" + owner, "text-anchor": "middle" }, String(count)));
    }
    if (label) g.appendChild(el("title", {}, label));
  }

  // upright when the box is narrower than minPoint px a point, drawn flat (a board's box is as wide as its parent's)
  C.upright = (svg, minPoint) => !!minPoint && svg.parentElement.clientWidth * PW / (W + TRAY) < minPoint;

  C.drawBoard = function (svg, pos, opts) {
    opts = opts || {};
    const upright = C.upright(svg, opts.minPoint);
    H = upright ? SHORT : TALL;
    STEP = upright ? (H / 2 - 30 - 2 * R) / 4 : 2 * R;  // five checkers between a point's base and its tip
    svg.setAttribute("viewBox", upright ? `0 0 ${H + 2 * LABEL} ${W + TRAY}` : `0 0 ${W + TRAY} ${H + 2 * LABEL}`);
    svg.classList.toggle("upright", upright);
    svg.setAttribute("role", opts.clickable ? "group" : "img");  // an image has no buttons inside
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const root = svg;
    if (upright) {  // a quarter turn clockwise: points 1-12 down the left, 13-24 down the right, the tray below
      svg = el("g", { transform: `translate(${H + 2 * LABEL} 0) rotate(90)` });
      root.appendChild(svg);
    }
    svg.appendChild(el("rect", { x: 0, y: 0, width: W + TRAY, height: H + 2 * LABEL, class: "frame" }));
    // the playing area sits between the two label strips: the numbers are never under a die or a checker
    const field = el("g", { transform: `translate(0 ${LABEL})` });
    svg.appendChild(field);
    svg = field;
    for (let p = 1; p <= 24; p++) {
      const { x, top } = column(p);
      const tip = top ? H / 2 - 20 : H / 2 + 20;
      const base = top ? 10 : H - 10;
      const marked = opts.targets && opts.targets.has(p) ? " target" : "";
      const g = el("g", { class: "point" + (opts.selected === p ? " selected" : "") + marked, "data-point": p, tabindex: opts.clickable ? 0 : -1 });
      g.appendChild(el("polygon", { points: `${x},${base} ${x + PW},${base} ${x + PW / 2},${tip}`, class: p % 2 ? "t1" : "t2" }));
      g.appendChild(el("rect", { x, y: top ? 0 : H / 2, width: PW, height: H / 2, class: "hit" }));
      g.appendChild(el("text", { x: x + PW / 2, y: top ? -5 : H + 14, class: "label", "text-anchor": "middle" }, String(opts.numbering ? opts.numbering(p) : p)));
      const n = pos.points[p - 1];
      if (n) checkers(g, x, top, Math.abs(n), n > 0 ? 0 : 1, fmt(gettext("point %(point)s: %(n)s"), { point: p, n: Math.abs(n) }));
      if (opts.clickable) {
        g.setAttribute("role", "button");
        g.setAttribute("aria-label", fmt(gettext("point %(point)s"), { point: opts.numbering ? opts.numbering(p) : p }));
        g.addEventListener("click", () => opts.onPoint(p));
        g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); opts.onPoint(p); } });
      }
      svg.appendChild(g);
    }
    const barX = 10 + 6 * PW;
    const bar = el("g", { class: "bar" + (opts.selected === 25 ? " selected" : ""), "data-point": "bar", tabindex: opts.clickable ? 0 : -1 });
    bar.appendChild(el("rect", { x: barX, y: 0, width: BAR, height: H, class: "barrect" }));
    if (pos.bar[0]) checkers(bar, barX, false, pos.bar[0], 0, fmt(gettext("bar: %(n)s"), { n: pos.bar[0] }));
    if (pos.bar[1]) checkers(bar, barX, true, pos.bar[1], 1, fmt(gettext("bar: %(n)s"), { n: pos.bar[1] }));
    if (opts.clickable) {
      bar.setAttribute("role", "button"); bar.setAttribute("aria-label", gettext("bar"));
      bar.addEventListener("click", () => opts.onPoint(25));
      bar.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); opts.onPoint(25); } });
    }
    svg.appendChild(bar);
    const tray = el("g", { class: "tray" + (opts.targetOff ? " target" : ""), "data-point": "off", tabindex: opts.clickable ? 0 : -1 });
    tray.appendChild(el("rect", { x: W, y: 0, width: TRAY, height: H, class: "trayrect" }));
    tray.appendChild(el("text", { x: W + TRAY / 2, y: H - 20, "text-anchor": "middle", class: "offcount" }, `${pos.off[0]}`));
    tray.appendChild(el("text", { x: W + TRAY / 2, y: 30, "text-anchor": "middle", class: "offcount" }, `${pos.off[1]}`));
    if (opts.clickable) {
      tray.setAttribute("role", "button"); tray.setAttribute("aria-label", gettext("bear off"));
      tray.addEventListener("click", () => opts.onPoint(0));
      tray.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); opts.onPoint(0); } });
    }
    svg.appendChild(tray);
    // the cube beside its owner's side, clear of the off counts at the tray's ends
    if (pos.cube) {
      const away = Math.min(90, H / 2 - 65);
      const cy = pos.cube_owner === 0 ? H / 2 + away : pos.cube_owner === 1 ? H / 2 - away : H / 2;
      svg.appendChild(el("rect", { x: W + 4, y: cy - 16, width: 32, height: 32, rx: 4, class: "cube" }));
      svg.appendChild(el("text", { x: W + 20, y: cy + 6, "text-anchor": "middle", class: "cubetext" }, String(pos.cube)));
    }
    if (pos.offered) {  // a double on the table, not yet answered: the cube offered, in the doubler's half
      const x = 10 + 2 * PW, y = H / 2 - 18;
      svg.appendChild(el("rect", { x, y, width: 36, height: 36, rx: 4, class: "cube offered" }));
      svg.appendChild(el("text", { x: x + 18, y: y + 25, "text-anchor": "middle", class: "cubetext" }, String(pos.offered)));
      svg.appendChild(el("text", { x: x + 44, y: y + 24, class: "offcount" }, gettext("offered")));
    }
    if (pos.on_roll === 0 || pos.on_roll === 1) {  // whose turn: a checker of that colour with a ring, left of the middle
      const mark = el("circle", { cx: 10 + PW / 2, cy: H / 2, r: R - 3, class: `c${pos.on_roll} turnmark`, "data-on-roll": pos.on_roll });
      mark.appendChild(el("title", {}, pos.on_roll === 0 ? gettext("light to play") : gettext("dark to play")));
      svg.appendChild(mark);
    }
    if (pos.dice) {
      pos.dice.forEach((d, i) => {
        const x = 10 + 8 * PW + BAR + i * 44, y = H / 2 - 18;  // in the middle band, between the points' tips
        svg.appendChild(el("rect", { x, y, width: 36, height: 36, rx: 6, class: "die" }));
        svg.appendChild(el("text", { x: x + 18, y: y + 25, "text-anchor": "middle", class: "dietext" }, String(d)));
      });
    }
    // upright, the numbers turn back about their middles to read upright (measured first, then turned: one layout)
    if (upright) {
      const numbers = Array.from(root.querySelectorAll("text")).filter((t) => t.textContent.length <= 3);
      const middles = numbers.map((t) => { const b = t.getBBox(); return [b.x + b.width / 2, b.y + b.height / 2]; });
      numbers.forEach((t, k) => t.setAttribute("transform", `rotate(-90 ${middles[k][0]} ${middles[k][1]})`));
    }
  };
})(window.Crawford);
