// The live board of a match in play: redrawn each time the server says the match moved on (follow.js), from the
// match's own API answer. A big screen in the club, or an overlay for a stream (?overlay=1).
"use strict";
(function () {
  let state = JSON.parse(document.getElementById("state").textContent);
  const svg = document.getElementById("board");
  const $ = (id) => document.getElementById(id);
  const name = (seat) => state.players[seat].name;

  function draw() {
    const s = state;
    Crawford.drawBoard(svg, { points: s.board.points, bar: s.board.bar, off: s.board.off, dice: s.dice,
                               cube: s.crawford ? null : s.cube.value, cube_owner: s.cube.owner,
                               offered: s.phase === "doubled" ? s.cube.value * 2 : null, on_roll: ["roll", "move", "doubled"].includes(s.phase) && !s.finished ? s.turn : null }, {});
    $("score").textContent = `${s.score[0]}–${s.score[1]}`;
    $("length").textContent = s.length ? `${s.length}-point match` : "money session";
    $("game").textContent = s.game;
    $("cube").textContent = s.crawford ? "none (Crawford game)" :
      `${s.cube.value}${s.cube.owner === null ? " (centred)" : `, ${name(s.cube.owner)}'s`}`;
    $("pips").textContent = `${name(0)} ${s.pips[0]}, ${name(1)} ${s.pips[1]}`;
    for (const seat of [0, 1]) {
      $(`turn${seat}`).textContent = !s.finished && s.turn === seat ? "◀ on roll" : "";
      $(`who${seat}`).classList.toggle("on-roll", !s.finished && s.turn === seat);
    }
    let line;
    if (s.finished) line = s.winner === null ? "The match is over." : `${name(s.winner)} wins the match.`;
    else if (s.phase === "opening") line = `Game ${s.game + 1}: opening roll.`;
    else if (s.phase === "roll") line = `${name(s.turn)} to roll.`;
    else if (s.phase === "move") line = `${name(s.turn)} plays ${s.dice[0]}-${s.dice[1]}.`;
    else if (s.phase === "doubled") line = `${name(s.turn)} doubles to ${s.cube.value * 2}.`;
    else if (s.phase === "resigned") line = `${name(s.resignation.player)} offers to resign a ${s.resignation.kind}.`;
    $("status").textContent = line || "";
    $("freshness").textContent = `updated ${new Date().toLocaleTimeString()}`;
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
        if (response.ok) { const fresh = await response.json(); if (fresh.version >= state.version) { state = fresh; draw(); } }
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
