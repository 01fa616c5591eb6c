// Keeps an event page current while matches are played: re-fetches its live part every few seconds.
"use strict";
(function () {
  const live = document.getElementById("live");
  if (!live) return;
  async function refresh() {
    try {
      const response = await fetch(live.dataset.src, { headers: { "X-Requested-With": "fetch" } });
      if (response.ok) live.innerHTML = await response.text();
    } catch (e) { /* offline for a moment: try again at the next tick */ }
  }
  setInterval(refresh, 5000);
})();
