// The player page's rating chart: the match under the pointer (or the arrow keys), read from each dot's data-label.
// A static file: the CSP forbids inline scripts. The chart itself is drawn on the server (deploy/rating_chart.py).
(function () {
  "use strict";
  const svg = document.getElementById("rating-chart");
  if (!svg) return;
  const dots = Array.from(svg.querySelectorAll("circle.dot"));
  const guide = document.getElementById("rating-chart-guide");
  const readout = document.getElementById("rating-chart-readout");
  if (!dots.length || !readout) return;
  let current = -1;

  function show(i) {
    if (i === current) return;
    if (current >= 0) dots[current].classList.remove("active");
    current = i;
    const dot = dots[i];
    dot.classList.add("active");
    guide.setAttribute("x1", dot.getAttribute("cx"));
    guide.setAttribute("x2", dot.getAttribute("cx"));
    guide.setAttribute("visibility", "visible");
    readout.textContent = dot.dataset.label;
  }

  function nearest(event) {
    const point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const x = point.matrixTransform(svg.getScreenCTM().inverse()).x;
    let best = 0;
    dots.forEach((dot, i) => {
      if (Math.abs(dot.cx.baseVal.value - x) < Math.abs(dots[best].cx.baseVal.value - x)) best = i;
    });
    return best;
  }

  svg.addEventListener("pointermove", (event) => show(nearest(event)));
  svg.addEventListener("pointerdown", (event) => show(nearest(event)));
  svg.addEventListener("keydown", (event) => {
    const moves = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 };
    if (event.key === "Home") show(0);
    else if (event.key === "End") show(dots.length - 1);
    else if (event.key in moves) show(Math.max(0, Math.min(dots.length - 1, (current < 0 ? dots.length : current) + moves[event.key])));
    else return;
    event.preventDefault();
  });
  svg.addEventListener("focus", () => { if (current < 0) show(dots.length - 1); });
})();
