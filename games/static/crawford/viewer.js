// The move-by-move match viewer: steps through the frames embedded in the page.
"use strict";
(function () {
  const frames = JSON.parse(document.getElementById("frames").textContent);
  // the page's language: Django's JavaScript catalogue (/jsi18n/, a script file loaded before this one)
  const gettext = window.gettext;
  const fmt = (text, values) => window.interpolate(text, values, true);
  const svg = document.getElementById("board");
  const at = document.getElementById("step");
  // the page shows one game; ?at=<version> opens it on that event, else on the game's last position
  const startAt = JSON.parse(document.getElementById("start-version").textContent);
  const started = frames.findIndex((f) => f.version === startAt || f.roll_version === startAt);
  let i = started >= 0 ? started : frames.length ? frames.length - 1 : 0;

  function show() {
    if (!frames.length) return;
    const f = frames[i];
    Crawford.drawBoard(svg, f, {});
    document.getElementById("text").textContent = f.text;
    // the board's score at this step; the heading keeps the match's (its result, if decided off the board)
    document.getElementById("frame-score").textContent = `${f.score[0]}–${f.score[1]}`;
    document.getElementById("game").textContent = f.game;
    document.getElementById("cube").textContent = f.cube_owner === null ? fmt(gettext("%(value)s (centred)"), { value: f.cube }) : String(f.cube);
    document.getElementById("crawford").textContent = f.crawford ? gettext("yes") : gettext("no");
    document.getElementById("pips").textContent = `${f.pips[0]} / ${f.pips[1]}`;
    document.getElementById("posid").textContent = f.position_id;
    document.getElementById("matchid").textContent = f.match_id || gettext("unavailable (beyond what gnubg can write)");
    document.getElementById("xgid").textContent = f.xgid || gettext("unavailable");
    at.textContent = `${i + 1} / ${frames.length}`;
    document.querySelectorAll("#moves button").forEach((b) => {
      const here = +b.dataset.index === i;
      b.classList.toggle("here", here);
      if (here) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
    });
    document.getElementById("prev").disabled = i === 0;
    document.getElementById("next").disabled = i === frames.length - 1;
    // the analysis (analysis.js) marks the play on the board
    document.dispatchEvent(new CustomEvent("crawford:frame", { detail: f }));
  }
  function go(k) { i = Math.max(0, Math.min(frames.length - 1, k)); show(); }
  // the game's move list: each step a button that takes the board there
  const list = document.getElementById("moves");
  if (list) {
    frames.forEach((f, k) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button"; button.className = "link"; button.dataset.index = k; button.textContent = f.text;
      button.addEventListener("click", () => go(k));
      item.appendChild(button); list.appendChild(item);
    });
  }
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("prev").addEventListener("click", () => go(i - 1));
  document.getElementById("next").addEventListener("click", () => go(i + 1));
  document.getElementById("last").addEventListener("click", () => go(frames.length - 1));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") go(i - 1);
    else if (e.key === "ArrowRight") go(i + 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(frames.length - 1);
  });
  // the analysis's list of marked plays jumps to the event of a play
  document.addEventListener("crawford:goto", (e) => {
    const k = frames.findIndex((f) => f.version === e.detail);
    if (k >= 0) go(k);
    else window.location.search = `?at=${encodeURIComponent(e.detail)}`;  // a play of another game: its page
  });
  show();

  // a match in play: the server says when it moves on (follow.js); the reader is told, and the board they are
  // studying stays where it is until they ask for the latest
  const moved = document.getElementById("moved-on");
  if (moved && moved.dataset.follow && window.Crawford.follow) {
    const seen = +moved.dataset.version;
    const following = Crawford.follow(moved.dataset.follow, (version) => {
      if (version > seen) { moved.hidden = false; following.stop(); }
    }, () => {});
  }
})();
