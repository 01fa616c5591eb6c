// The live board of a match in play: redrawn each time the server says the match moved on (follow.js), from the
// match's own API answer. A big screen in the club, or an overlay for a stream (?overlay=1).
"use strict";
(function () {
  let state = JSON.parse(document.getElementById("state").textContent);
  const svg = document.getElementById("board");
  const $ = (id) => document.getElementById(id);
  const name = (seat) => state.players[seat].name;
  // the page's language: Django's JavaScript catalogue (/jsi18n/, a script file loaded before this one)
  const gettext = window.gettext;
  const fmt = (text, values) => window.interpolate(text, values, true);  // %(name)s, as in the .po
  // the engine's words for how a game ended (games/engine/match.py), in the page's language
  const WORDS = { single: gettext("single game"), gammon: gettext("gammon"), backgammon: gettext("backgammon"),
                  drop: gettext("double dropped"), resignation: gettext("resignation"), time: gettext("on time"),
                  late: gettext("lateness"), disconnect: gettext("disconnection"), no_show: gettext("no-show") };
  let clockRead = performance.now();  // when the state's clock figures arrived

  // the clocks, counted down between the server's answers; the running one marked
  function drawClock() {
    const c = state.clock;
    $("clock").hidden = !c;
    if (!c) return;
    const shown = Crawford.clockShown(c, clockRead);
    for (const seat of [0, 1]) {
      const side = $(`clock${seat}`);
      side.textContent = `${name(seat)} ${Crawford.clockText(shown.reserves[seat])}`;
      side.classList.toggle("running", c.running === seat && !c.paused && !state.finished);
    }
    $("clock-note").textContent = c.paused ? gettext("The clocks are paused.") : "";
  }
  setInterval(() => { if (state.clock) drawClock(); }, 250);
  const word = (w) => WORDS[w] || w;

  function draw() {
    const s = state;
    Crawford.drawBoard(svg, { points: s.board.points, bar: s.board.bar, off: s.board.off, dice: s.dice,
                               cube: s.crawford ? null : s.cube.value, cube_owner: s.cube.owner,
                               offered: s.phase === "doubled" ? s.cube.value * 2 : null, on_roll: ["roll", "move", "doubled"].includes(s.phase) && !s.finished ? s.turn : null }, {});
    $("score").textContent = `${s.score[0]}–${s.score[1]}`;
    $("length").textContent = s.length ? fmt(gettext("%(n)s-point match"), { n: s.length }) : gettext("money session");
    $("game").textContent = s.game;
    $("cube").textContent = s.crawford ? gettext("none (Crawford game)") :
      fmt(s.cube.owner === null ? gettext("%(value)s (centred)") : gettext("%(value)s, owned by %(name)s"),
          { value: s.cube.value, name: s.cube.owner === null ? "" : name(s.cube.owner) });
    $("pips").textContent = `${name(0)} ${s.pips[0]}, ${name(1)} ${s.pips[1]}`;
    for (const seat of [0, 1]) {
      $(`turn${seat}`).textContent = !s.finished && s.turn === seat ? gettext("◀ on roll") : "";
      $(`who${seat}`).classList.toggle("on-roll", !s.finished && s.turn === seat);
    }
    let line;
    if (s.finished) line = s.winner === null ? gettext("The match is over.") : fmt(gettext("%(name)s wins the match."), { name: name(s.winner) });
    else if (s.phase === "opening") line = fmt(gettext("Game %(n)s: opening roll."), { n: s.game + 1 });
    else if (s.phase === "roll") line = fmt(gettext("%(name)s to roll."), { name: name(s.turn) });
    else if (s.phase === "move") line = fmt(gettext("%(name)s plays %(dice)s."), { name: name(s.turn), dice: `${s.dice[0]}-${s.dice[1]}` });
    else if (s.phase === "doubled") line = fmt(gettext("%(name)s doubles to %(value)s."), { name: name(s.turn), value: s.cube.value * 2 });
    else if (s.phase === "resigned") line = fmt(gettext("%(name)s offers to resign: %(kind)s."), { name: name(s.resignation.player), kind: word(s.resignation.kind) });
    if (s.finished && s.last_game && s.last_game.reason === "time") line += ` (${word("time")})`;
    $("status").textContent = line || "";
    drawClock();
    $("freshness").textContent = fmt(gettext("updated %(time)s"), { time: new Date().toLocaleTimeString() });
    // the browser test reads which event is on screen, and when it was drawn (the delay after the tablet's tap)
    document.body.dataset.version = s.version;
    document.body.dataset.drawnAt = Date.now();
  }

  let fetching = null;
  async function refresh() {
    if (fetching) return fetching;
    fetching = (async () => {
      try {
        const response = await fetch(`/api/matches/${state.id}/`, { credentials: "same-origin" });
        if (response.ok) { const fresh = await response.json(); if (fresh.version >= state.version) { state = fresh; clockRead = performance.now(); draw(); } }
      } catch (offline) { /* the next push or poll tries again */ }
    })();
    try { await fetching; } finally { fetching = null; }
  }

  draw();
  const following = Crawford.follow(`/matches/${state.id}/follow/`, (version) => {
    if (version > state.version) refresh().then(() => { if (version > state.version) refresh(); });
  }, refresh);
  window.addEventListener("pagehide", () => following.stop());
})();
