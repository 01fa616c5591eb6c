// Recording a match at the table: dice, taps from-point then to-point (or typed notation), cube actions.
// The server's engine is the judge: an illegal play comes back with the reason and changes nothing.
"use strict";
(function () {
  let state = JSON.parse(document.getElementById("state").textContent);
  // the match's phases as the engine names them (games.engine.match.Phase), given by the page: one definition
  const P = JSON.parse(document.getElementById("phases").textContent);
  const csrf = document.querySelector("[name=csrfmiddlewaretoken]").value;
  const svg = document.getElementById("board");
  const $ = (id) => document.getElementById(id);
  let steps = [];      // the play being composed: [from, to] in the mover's numbering (25 bar, 0 off)
  let from = null;

  const moverPoint = (p0) => (p0 === 0 || p0 === 25) ? p0 : (state.turn === 0 ? p0 : 25 - p0);
  const boardPoint = (mp) => (state.turn === 0 ? mp : 25 - mp);
  const name = (seat) => state.players[seat].name;

  function preview() {
    // the composed steps applied to a copy of the board, so the recorder sees the checkers move
    const b = { points: state.board.points.slice(), bar: state.board.bar.slice(), off: state.board.off.slice(),
                dice: state.dice, cube: state.cube.value, cube_owner: state.cube.owner };
    const sign = state.turn === 0 ? 1 : -1, me = state.turn, them = 1 - state.turn;
    for (const [f, t] of steps) {
      if (f === 25) b.bar[me] -= 1; else b.points[boardPoint(f) - 1] -= sign;
      if (t === 0) { b.off[me] += 1; continue; }
      const i = boardPoint(t) - 1;
      if (b.points[i] === -sign) { b.points[i] = 0; b.bar[them] += 1; }
      b.points[i] += sign;
    }
    return b;
  }

  function text() { return steps.map(([f, t]) => `${f === 25 ? "bar" : f}/${t === 0 ? "off" : t}`).join(" "); }

  function render(message, isError) {
    Crawford.drawBoard(svg, preview(), {
      clickable: state.phase === P.MOVE, selected: from === null ? null : (from === 25 ? 25 : boardPoint(from)),
      onPoint: tap, numbering: (p) => moverPoint(p),
    });
    $("score").textContent = `${state.score[0]}–${state.score[1]}`;
    const crawford = state.crawford ? " · Crawford game (no cube)" : "";
    $("facts").textContent = `${state.length ? state.length + "-point match" : "Money session"} · game ${state.game} · cube ${state.cube.value}` +
      `${crawford} · pips ${name(0)} ${state.pips[0]}, ${name(1)} ${state.pips[1]}`;
    const phase = state.phase, finished = state.finished;
    const show = (id, on) => { $(id).hidden = !on; $(id).disabled = !on; };
    // the match's dice come from one source, fixed when it was created: only that source's control is offered
    const rolling = !finished && (phase === P.OPENING || phase === P.ROLL);
    show("roll", rolling && state.dice_source !== "board");
    show("enter-dice", rolling && state.dice_source !== "server");
    $("die1").disabled = $("die2").disabled = !rolling || state.dice_source === "server";
    show("play", !finished && phase === P.MOVE);
    show("undo", phase === P.MOVE && steps.length > 0);
    show("double", !finished && phase === P.ROLL && state.may_double);
    show("take", !finished && phase === P.DOUBLED); show("drop", !finished && phase === P.DOUBLED);
    // the player doubled may resign instead of answering (gnubg too): worth the cube before the double
    show("resign", !finished && (phase === P.ROLL || phase === P.MOVE || phase === P.DOUBLED));
    show("accept", !finished && phase === P.RESIGNED); show("decline", !finished && phase === P.RESIGNED);
    $("move-text").value = phase === P.MOVE ? text() : "";
    let line = message;
    if (!line) {
      if (finished && state.over_because && state.winner === null) line = `${state.over_because[0].toUpperCase()}${state.over_because.slice(1)}.`;
      else if (finished) line = state.winner === null ? "The match is over." : `${name(state.winner)} wins the match.` +
        (state.closed ? ` (${state.closed.summary})` : "");
      else if (phase === P.OPENING) line = `Game ${state.game + 1}: opening roll (${name(0)}'s die first).`;
      else if (phase === P.ROLL) line = `${name(state.turn)} to roll or double.`;
      else if (phase === P.MOVE) line = `${name(state.turn)} plays ${state.dice[0]}-${state.dice[1]}: tap a checker's point, then where it goes.`;
      else if (phase === P.DOUBLED) line = `${name(state.answerer ?? 1 - state.turn)}: take or drop the cube at ${state.cube.value * 2}?`;
      else if (phase === P.RESIGNED) line = `${name(1 - state.resignation.player)}: accept the ${state.resignation.kind}?`;
    }
    $("status").textContent = line;
    $("status").classList.toggle("error", !!isError);
  }

  function tap(p0) {
    const p = moverPoint(p0);
    if (from === null) { if (p !== 0) from = p; }
    else if (p === from) from = null;
    else { steps.push([from, p]); from = null; }
    render();
  }

  // One key per press, kept for the retries of that press only: a retry is answered once, and another tablet's
  // command (or this tablet's next one) is never mistaken for it. getRandomValues works on a club's plain-http LAN.
  function newKey() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function post(command, key) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fetch(`/api/matches/${state.id}/commands/`, {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, "Idempotency-Key": key },
          body: JSON.stringify(command),
        });
      } catch (lost) {  // no answer (the network): the same press again, under the same key
        if (attempt >= 2) throw lost;
        await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
      }
    }
  }

  function adopt(fresh) { state = fresh; steps = []; from = null; }

  async function send(command) {
    command.expected_version = state.version;
    let response;
    try { response = await post(command, newKey()); }
    catch (lost) { render("No answer from the server: check the connection and try again.", true); return false; }
    const body = await response.json();
    if (response.status === 409 && body.state) {  // the other tablet was first: show what it recorded, and where we are
      adopt(body.state); render(body.detail, true); return false;
    }
    if (!response.ok) { render(body.detail || "refused", true); return false; }
    adopt(body.state);
    const now = +response.headers.get("X-Match-Version");
    if (now > state.version) { await refresh("The match has moved on since; the screen is updated."); return true; }
    render(); return true;
  }

  // another tablet may record the same match: follow the match, so this screen is never out of date for long
  async function refresh(message) {
    const response = await fetch(`/api/matches/${state.id}/`, { credentials: "same-origin" });
    if (!response.ok) return;
    const fresh = await response.json();
    if (fresh.version === state.version) return;
    const composing = steps.length > 0 || from !== null;
    adopt(fresh);
    render(message || (composing ? "Another tablet recorded a move: the screen is updated, play again." : undefined));
  }
  setInterval(() => { if (!document.hidden) refresh().catch(() => {}); }, 3000);

  $("roll").addEventListener("click", () => send({ type: "roll" }));
  $("enter-dice").addEventListener("click", () => send({ type: "roll", dice: [+$("die1").value, +$("die2").value] }));
  $("play").addEventListener("click", () => send({ type: "move", move: $("move-text").value.trim() }));
  $("undo").addEventListener("click", () => { steps.pop(); from = null; render(); });
  $("double").addEventListener("click", () => send({ type: "double" }));
  $("take").addEventListener("click", () => send({ type: "take" }));
  $("drop").addEventListener("click", () => send({ type: "drop" }));
  $("resign").addEventListener("click", () => send({ type: "resign", kind: $("resign-kind").value }));
  $("accept").addEventListener("click", () => send({ type: "accept_resignation" }));
  $("decline").addEventListener("click", () => send({ type: "decline_resignation" }));
  $("move-text").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); $("play").click(); } });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "r" && !$("roll").hidden) $("roll").click();
    else if (e.key === "Backspace" && steps.length) { e.preventDefault(); $("undo").click(); }
    else if (e.key === "Enter" && !$("play").hidden) $("play").click();
  });
  render();
})();
