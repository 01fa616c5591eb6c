// Keeps an event page current while matches are played: the server pushes when the event's tables have moved on
// (follow.js), and only then is the live part fetched again. A finished event is not followed at all.
// Swapping the part in keeps what the reader was doing: each bracket's sideways scroll and the focused link; the
// part itself is no live region (a screen reader would read it all again), a short line tells what changed.
"use strict";
(function () {
  // the page's language: Django's JavaScript catalogue (/jsi18n/, a script file loaded before this one)
  const gettext = window.gettext;
  const fmt = (text, values) => window.interpolate(text, values, true);  // %(name)s, as in the .po
  const live = document.getElementById("live");
  if (!live || live.dataset.finished === "true") return;
  const news = document.getElementById("live-news");
  const results = (root) => new Set(Array.from(root.querySelectorAll('.match[data-status="done"]'), (m) => m.dataset.slot));

  function swap(html) {
    const scrolls = new Map(Array.from(live.querySelectorAll(".bracket"), (b) => [b.dataset.bracket, b.scrollLeft]));
    const focused = live.contains(document.activeElement) ? document.activeElement.getAttribute("href") : null;
    const before = results(live);
    const next = document.createElement("div");
    next.innerHTML = html;
    const fresh = Array.from(results(next)).filter((slot) => !before.has(slot));
    live.replaceChildren(...next.childNodes);
    live.querySelectorAll(".bracket").forEach((b) => { if (scrolls.has(b.dataset.bracket)) b.scrollLeft = scrolls.get(b.dataset.bracket); });
    if (focused) {
      const again = Array.from(live.querySelectorAll("a[href]")).find((a) => a.getAttribute("href") === focused);
      if (again) again.focus({ preventScroll: true });
    }
    if (fresh.length && news) news.textContent = fresh.length === 1 ? gettext("A result came in.") : fmt(gettext("%(n)s results came in."), { n: fresh.length });
    if (live.querySelector(".status strong")) following.stop();  // the event has its winner: nothing more to follow
  }

  async function refresh() {
    try {
      const response = await fetch(live.dataset.src, { headers: { "X-Requested-With": "fetch" } });
      if (response.ok) swap(await response.text());
    } catch (e) { /* offline for a moment: the next push or poll tries again */ }
  }
  // where the projections were when the server built the page: the stream's first number, told when it opens, is
  // compared with it, so a result that came while the page loaded (no stream open yet to tell it) is fetched then
  let seen = +live.dataset.position;
  const following = Crawford.follow(live.dataset.follow, (position) => {
    if (position > seen) refresh();
    seen = Math.max(seen, position);
  }, refresh);
})();
