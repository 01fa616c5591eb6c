// A match's clock as screens show it: the server's figures (games/clocks.py clock_data) at the moment they
// arrived (readAt, performance.now()), counted down by the page's own timer until the next answer.
"use strict";
window.Crawford = window.Crawford || {};
(function (Crawford) {
  // each reserve and what is left of the running turn's delay, now
  Crawford.clockShown = function (clock, readAt) {
    const reserves = clock.reserves.slice();
    let delay = clock.delay_left;
    if (clock.running !== null && !clock.paused) {
      const spent = performance.now() - readAt;
      delay = Math.max(0, clock.delay_left - spent);
      reserves[clock.running] = Math.max(0, reserves[clock.running] - Math.max(0, spent - clock.delay_left));
    }
    return { reserves, delay };
  };
  // m:ss, rounded up: a reserve shows 0:00 only once it has run out
  Crawford.clockText = function (ms) {
    const s = Math.ceil(ms / 1000);
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  };
})(window.Crawford);
