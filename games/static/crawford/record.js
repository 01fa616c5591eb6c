// Recording a match at the table: dice, then taps (a checker, then where it goes), cube actions.
// A tap on a checker shows where it may go (its targets); a tap on a target moves it there, with one die or
// several. What is left is played by itself when only one legal way remains, and a play is sent as soon as it is
// whole: a typical move is two taps. The server's engine stays the judge: the screen knows the legal plays only as
// the positions they leave (state.legal_positions), and a refused play comes back with the reason.
"use strict";
(function () {
  let state = JSON.parse(document.getElementById("state").textContent);
  // the page's language: Django's JavaScript catalogue (/jsi18n/, a script file loaded before this one)
  const gettext = window.gettext;
  const fmt = (text, values) => window.interpolate(text, values, true);  // %(name)s, as in the .po
  // the engine's words for how a game ended (games/engine/match.py), in the page's language
  const WORDS = { single: gettext("single game"), gammon: gettext("gammon"), backgammon: gettext("backgammon"),
                  drop: gettext("double dropped"), resignation: gettext("resignation"), time: gettext("on time"),
                  late: gettext("lateness"), disconnect: gettext("disconnection"), no_show: gettext("no-show") };
  const word = (w) => WORDS[w] || w;
  // the match's phases as the engine names them (games.engine.match.Phase), given by the page: one definition
  const P = JSON.parse(document.getElementById("phases").textContent);
  // online (games/online.py): each player acts for their own side only, from their own page, and the server
  // presses the clocks; at the board a recorder acts for both
  const mySeat = JSON.parse(document.getElementById("seat").textContent);
  const online = () => !!state.online && mySeat !== null;
  const mine = () => !online() || (!state.finished && (state.phase === P.OPENING || toAct() === mySeat));
  const csrf = document.querySelector("[name=csrfmiddlewaretoken]").value;
  const svg = document.getElementById("board");
  const $ = (id) => document.getElementById(id);
  const name = (seat) => state.players[seat].name;
  const DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz";

  // -- the play being composed, in the mover's frame: mine[p] / theirs[q], index 0 borne off, 25 the bar ------
  let steps = [];      // [from, to] single-die steps, mover's numbering (25 bar, 0 off)
  let start = null;    // the position before the play
  let pos = null;      // the position after the steps
  let dice = [];       // the dice not yet used
  let guess = null;    // the checker last tapped, moved by the larger die: {before: the play before it, at: where}
  let targets = new Map();  // where else it may go: mover point -> the way there
  let legal = new Set();
  let pending = "";    // a message to show once (what the last answer said)
  let busy = false;
  let chosen = [];     // the dice pad's first die, waiting for the second
  // User Timing, read by bench/recording.py: the screen's own milliseconds around a command, from the press that
  // sent it to the request's start ("crawford:before-send") and from its answer to the board redrawn
  // ("crawford:after-answer") and painted ("crawford:answer-to-paint"); and each tap on the board ("crawford:tap")
  let pressed = null;

  const boardPoint = (mp) => (state.turn === 0 ? mp : 25 - mp);
  const moverPoint = (bp) => (bp === 0 || bp === 25) ? bp : (state.turn === 0 ? bp : 25 - bp);

  function moverFrame() {
    const mine = new Array(26).fill(0), theirs = new Array(26).fill(0);
    const sign = state.turn === 0 ? 1 : -1, me = state.turn, them = 1 - me;
    for (let p = 1; p <= 24; p++) {
      const v = state.board.points[boardPoint(p) - 1] * sign;
      if (v > 0) mine[p] = v; else if (v < 0) theirs[25 - p] = -v;
    }
    mine[25] = state.board.bar[me]; mine[0] = state.board.off[me];
    theirs[25] = state.board.bar[them]; theirs[0] = state.board.off[them];
    return { mine, theirs };
  }
  const key = (q) => q.mine.concat(q.theirs).map((n) => DIGITS[n]).join("");

  // one checker moved by one die, or null where the rules forbid it (the bar first, blocked points, bearing off)
  function step(q, f, die) {
    if (q.mine[f] === 0 || (q.mine[25] > 0 && f !== 25)) return null;
    let to = f - die;
    if (to <= 0) {
      for (let p = 7; p <= 25; p++) if (q.mine[p]) return null;  // not all home
      if (to < 0) for (let p = f + 1; p <= 6; p++) if (q.mine[p]) return null;  // a higher checker must move first
      to = 0;
    } else if (q.theirs[25 - to] >= 2) return null;
    const mine = q.mine.slice(), theirs = q.theirs.slice();
    mine[f] -= 1; mine[to] += 1;
    if (to > 0 && theirs[25 - to] === 1) { theirs[25 - to] = 0; theirs[25] += 1; }
    return { q: { mine, theirs }, to };
  }

  // every legal play's resulting position reachable from q with the dice left, with the steps to it. A position
  // reached again with the same dice left (the same checkers moved in another order: doubles above all) has given
  // all it leads to already: it is not searched twice.
  function completions(q, left, path, found, seen = new Set()) {
    const k = key(q);
    if (legal.has(k) && !found.has(k)) found.set(k, path);
    const here = k + left.join("");
    if (seen.has(here)) return found;
    seen.add(here);
    const tried = new Set();
    left.forEach((die, i) => {
      if (tried.has(die)) return;
      tried.add(die);
      const rest = left.slice(0, i).concat(left.slice(i + 1));
      for (let f = 25; f >= 1; f--) {
        const s = step(q, f, die);
        if (s) completions(s.q, rest, path.concat([[f, s.to]]), found, seen);
      }
    });
    return found;
  }
  // whether some legal play is still reachable from q with the dice left: the first one found answers
  function viable(q, left, known = new Map()) {
    const k = key(q), here = k + left.join("");
    if (known.has(here)) return known.get(here);
    let found = legal.has(k);
    const tried = new Set();
    for (let i = 0; i < left.length && !found; i++) {
      if (tried.has(left[i])) continue;
      tried.add(left[i]);
      const rest = left.slice(0, i).concat(left.slice(i + 1));
      for (let f = 25; f >= 1 && !found; f--) {
        const s = step(q, f, left[i]);
        if (s && viable(s.q, rest, known)) found = true;
      }
    }
    known.set(here, found);
    return found;
  }

  // where the checker on f may go: one die, or several in a row for the same checker, each stop still leading
  // to a legal play. A place two ways reach with different results (one hits on the way, the other not) is no
  // target: the recorder taps the stop on the way instead, so the screen never guesses a hit.
  function destinations(f) {
    const out = new Map(), ambiguous = new Set(), reachable = new Map();
    (function walk(q, at, left, path) {
      const tried = new Set();
      left.forEach((die, i) => {
        if (tried.has(die)) return;
        tried.add(die);
        const s = step(q, at, die);
        if (!s) return;
        const rest = left.slice(0, i).concat(left.slice(i + 1));
        const way = path.concat([[at, s.to]]);
        if (!viable(s.q, rest, reachable)) return;
        const known = out.get(s.to);
        if (!known) out.set(s.to, { steps: way, q: s.q, left: rest, to: s.to, die });
        else if (key(known.q) !== key(s.q)) ambiguous.add(s.to);
        if (s.to > 0) walk(s.q, s.to, rest, way);
      });
    })(pos, f, dice, []);
    ambiguous.forEach((t) => out.delete(t));
    return out;
  }

  function begin() {
    steps = []; guess = null; targets = new Map();
    legal = new Set(state.legal_positions || []);
    if (state.phase !== P.MOVE || state.finished) { start = pos = null; dice = []; return; }
    start = pos = moverFrame();
    const [a, b] = state.dice;
    dice = a === b ? [a, a, a, a] : [a, b];
  }

  function preview() {
    const b = { points: state.board.points.slice(), bar: state.board.bar.slice(), off: state.board.off.slice(),
                dice: state.dice, cube: state.crawford ? null : state.cube.value, cube_owner: state.cube.owner,
                offered: state.phase === P.DOUBLED ? state.cube.value * 2 : null,
                on_roll: [P.ROLL, P.MOVE, P.DOUBLED].includes(state.phase) && !state.finished ? state.turn : null };
    if (!pos) return b;
    const sign = state.turn === 0 ? 1 : -1, me = state.turn, them = 1 - me;
    for (let p = 1; p <= 24; p++) b.points[boardPoint(p) - 1] = sign * (pos.mine[p] - pos.theirs[25 - p]);
    b.bar[me] = pos.mine[25]; b.bar[them] = pos.theirs[25]; b.off[me] = pos.mine[0]; b.off[them] = pos.theirs[0];
    return b;
  }

  const spot = (p) => (p === 25 ? "bar" : p === 0 ? "off" : String(p));
  function text(list) { return list.map(([f, t]) => `${spot(f)}/${spot(t)}`).join(" "); }

  // points of 44 px at least, for a finger: on a phone the board is drawn upright (board.js)
  function draw() {
    Crawford.drawBoard(svg, preview(), {
      clickable: state.phase === P.MOVE && !state.finished && !busy && mine(),
      selected: guess === null || guess.at === 0 ? null : boardPoint(guess.at),
      targets: new Set(Array.from(targets.keys(), (t) => (t === 0 ? -1 : boardPoint(t)))),
      targetOff: targets.has(0),
      onPoint: tap, numbering: (p) => moverPoint(p), minPoint: 44,
    });
  }
  let upright = Crawford.upright(svg, 44);
  window.addEventListener("resize", () => { if (Crawford.upright(svg, 44) !== upright) { upright = !upright; draw(); } });

  function render(message, isError) {
    document.body.dataset.version = state.version;  // which version the screen shows (a test, a bench, waits on it)
    draw();
    $("score").textContent = `${state.score[0]}–${state.score[1]}`;
    const crawford = state.crawford ? ` · ${gettext("Crawford game (no cube)")}` : "";
    $("facts").textContent = `${state.length ? fmt(gettext("%(n)s-point match"), { n: state.length }) : gettext("Money session")}` +
      ` · ${fmt(gettext("game %(n)s"), { n: state.game })} · ${fmt(gettext("cube %(value)s"), { value: state.cube.value })}` +
      `${crawford} · ${fmt(gettext("pips %(a)s %(pa)s, %(b)s %(pb)s"), { a: name(0), pa: state.pips[0], b: name(1), pb: state.pips[1] })}`;
    const phase = state.phase, finished = state.finished;
    const show = (id, on) => { on = on && mine(); $(id).hidden = !on; $(id).disabled = !on || busy; };
    // the match's dice come from one source, fixed when it was created: only that source's control is offered
    const rolling = !finished && (phase === P.OPENING || phase === P.ROLL);
    show("roll", rolling && state.dice_source !== "board");
    const byHand = rolling && state.dice_source !== "server";
    $("dice-pad").hidden = !byHand;
    document.querySelectorAll(".die-key").forEach((k) => { k.disabled = !byHand || busy; });
    show("enter-dice", byHand);
    $("die1").disabled = $("die2").disabled = !byHand;
    $("typed-dice").hidden = !byHand;  // out of the way while a play is composed (a phone has no room to spare)
    $("dice-chosen").textContent = chosen.length ? `${chosen.join("-")}…` : "";
    show("play", !finished && phase === P.MOVE);
    show("undo", phase === P.MOVE && steps.length > 0);
    show("other-die", phase === P.MOVE && guess !== null &&
      Array.from(guess.ways.values()).some((w) => w.steps.length === 1 && w.die !== guess.first.die));
    show("double", !finished && phase === P.ROLL && state.may_double);
    show("take", !finished && phase === P.DOUBLED); show("drop", !finished && phase === P.DOUBLED);
    // the player doubled may resign instead of answering (gnubg too): worth the cube before the double
    show("resign", !finished && (phase === P.ROLL || phase === P.MOVE || phase === P.DOUBLED));
    show("accept", !finished && phase === P.RESIGNED); show("decline", !finished && phase === P.RESIGNED);
    $("move-text").value = phase === P.MOVE ? text(steps) : "";
    drawClock();
    // what the last answer said, then what comes next
    const line = message || [pending, situation()].filter(Boolean).join(" ");
    pending = "";
    $("status").textContent = line;
    $("status").classList.toggle("error", !!isError);
  }

  function situation() {
    const phase = state.phase;
    if (state.finished && state.over_because && state.winner === null) return `${state.over_because[0].toUpperCase()}${state.over_because.slice(1)}.`;
    if (state.finished) return state.winner === null ? gettext("The match is over.") :
      fmt(gettext("%(name)s wins the match."), { name: name(state.winner) }) + (state.closed ? ` (${state.closed.summary})` : "");
    if (phase === P.OPENING) {
      const last = state.last_game;
      const how = last ? [word(last.kind), last.cube > 1 ? fmt(gettext("cube %(value)s"), { value: last.cube }) : "",
                          last.reason === "bearoff" ? "" : word(last.reason)].filter(Boolean).join(", ") : "";
      const won = last ? fmt(last.points === 1 ? gettext("%(name)s won game %(game)s: %(points)s point (%(how)s); ")
                                               : gettext("%(name)s won game %(game)s: %(points)s points (%(how)s); "),
                             { name: name(last.winner), game: last.game, points: last.points, how: how }) +
        `${name(0)} ${state.score[0]}, ${name(1)} ${state.score[1]}. ` : "";
      return won + fmt(gettext("Game %(n)s: opening roll (%(name)s's die first)."), { n: state.game + 1, name: name(0) });
    }
    if (phase === P.ROLL) return fmt(gettext("%(name)s to roll or double."), { name: name(state.turn) });
    if (phase === P.MOVE) {
      if (guess !== null) return fmt(gettext("%(play)s: tap a marked point to move it there instead, it again to go on, or the next checker."), { play: text(steps) });
      return steps.length ? fmt(gettext("%(name)s plays %(play)s…: the next checker."), { name: name(state.turn), play: text(steps) }) :
        fmt(gettext("%(name)s plays %(dice)s: tap a checker, then where it goes."), { name: name(state.turn), dice: `${state.dice[0]}-${state.dice[1]}` });
    }
    if (phase === P.DOUBLED) return fmt(gettext("%(name)s: take or drop the cube at %(value)s?"), { name: name(state.answerer ?? 1 - state.turn), value: state.cube.value * 2 });
    if (phase === P.RESIGNED) return fmt(gettext("%(name)s: accept the resignation (%(kind)s)?"), { name: name(1 - state.resignation.player), kind: word(state.resignation.kind) });
    return "";
  }

  // -- taps ------------------------------------------------------------------------------------------------
  // A tap on a checker moves it at once by the larger die it may use (the usual order at the table), and marks
  // where else it may go: a tap on a mark moves it there instead (the other die, or both), a tap on it again takes
  // it further, a tap on another checker plays that one. Two taps make a typical play; a point can also be made
  // by tapping it (the one play that brings two checkers there).
  function tap(bp) {
    if (busy || state.phase !== P.MOVE || !mine()) return;
    const began = pressed = performance.now();
    tapped(bp);
    pressed = null;  // a press is timed only while it is handled: a later button's command is not counted from it
    performance.measure("crawford:tap", { start: began });  // the tap to its board redrawn (and its command sent)
  }

  function tapped(bp) {
    const p = moverPoint(bp);
    if (guess && targets.has(p)) { const way = targets.get(p); undoGuess(); advance(way); return; }
    if (guess && p === guess.at && p !== 0) { guess = null; targets = new Map(); checker(p); return; }
    guess = null; targets = new Map();
    if (p === 0) { render(complete() ? gettext("The play is whole: Play records it.") : gettext("Tap a checker to bear off first."), true); return; }
    if (!pos.mine[p]) {
      if (p !== 25 && makePoint(p)) return;
      render(p === 25 ? gettext("You have no checker on the bar.") : fmt(gettext("You have no checker on %(point)s, and no play makes that point: tap a checker."), { point: p }), true);
      return;
    }
    if (pos.mine[25] && p !== 25) { render(gettext("A checker on the bar must come in first: tap the bar."), true); return; }
    checker(p);
  }

  const complete = () => legal.has(key(pos));

  function checker(p) {
    const ways = destinations(p);
    if (!ways.size) { render(complete() ? gettext("The play is whole: Play records it.") : fmt(gettext("No legal move from %(point)s."), { point: spot(p) }), true); return; }
    if (ways.size === 1) { advance(ways.values().next().value); return; }  // one place to go: go there
    // the larger die first; the checker's other places become marks
    const first = Array.from(ways.values()).filter((w) => w.steps.length === 1).sort((a, b) => b.die - a.die)[0] ||
      ways.values().next().value;
    guess = { before: { steps, pos, dice }, at: first.to, ways, first };
    steps = steps.concat(first.steps); pos = first.q; dice = first.left;
    // a point holding the mover's checkers stays a checker to tap: "Other die" moves this one there instead
    targets = new Map(Array.from(ways).filter(([t]) => t !== first.to && (t === 0 || !guess.before.pos.mine[t])));
    render();
  }

  // the checker just tapped goes by the other die instead (a place where its own checkers stand, say)
  function otherDie() {
    if (!guess) return;
    const { ways, first } = guess;
    const other = Array.from(ways.values()).find((w) => w.steps.length === 1 && w.die !== first.die);
    if (!other) return;
    pressed = performance.now();
    undoGuess();
    advance(other);
    pressed = null;
  }

  function undoGuess() { ({ steps, pos, dice } = guess.before); guess = null; targets = new Map(); }

  // a tap on a point with none of the mover's checkers: the one play bringing the most checkers there (two at least)
  function makePoint(p) {
    let best = 1, found = [];
    for (const [k, path] of completions(pos, dice, [], new Map())) {
      const brought = parseInt(k[p], 36) - pos.mine[p];
      if (brought > best) { best = brought; found = [path]; } else if (brought === best && best > 1) found.push(path);
    }
    if (found.length !== 1) return false;
    steps = steps.concat(found[0]);
    submit();
    return true;
  }

  function advance(way) {
    steps = steps.concat(way.steps); pos = way.q; dice = way.left; guess = null; targets = new Map();
    const rest = completions(pos, dice, [], new Map());
    if (complete()) { submit(); return; }
    if (rest.size === 1) {  // only one way to play what is left: it plays itself
      steps = steps.concat(rest.values().next().value);
      submit();
      return;
    }
    render();
  }

  // the request first (send reaches fetch before its first await), then the board redrawn while it travels
  function submit() {
    const play = text(steps);
    send({ type: "move", move: play }, fmt(gettext("%(name)s played %(play)s."), { name: name(state.turn), play: play }));
    render(fmt(gettext("Recording %(play)s…"), { play: play }));
  }

  // -- talking to the server -------------------------------------------------------------------------------
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

  function adopt(fresh) { state = fresh; chosen = []; $("die1").value = ""; $("die2").value = ""; begin(); }

  // what the answer's events say that the new state alone does not: a tied opening roll, a roll that cannot be
  // played, a play that was the only one
  function told(appended) {
    const said = [];
    let roll = "";
    for (const e of appended || []) {
      const p = e.payload || {};
      if (e.type === "DiceRolled") roll = `${p.dice[0]}-${p.dice[1]}`;
      else if (e.type === "OpeningRollTied") said.push(fmt(gettext("Both rolled %(die)s: roll again."), { die: p.die }));
      else if (e.type === "CannotMove") said.push(roll ? fmt(gettext("%(name)s rolled %(roll)s and cannot move: the turn passes."), { name: name(p.player), roll: roll })
                                                        : fmt(gettext("%(name)s cannot move: the turn passes."), { name: name(p.player) }));
    }
    return said.join(" ");
  }

  async function send(command, note) {
    command.expected_version = state.version;
    busy = true;
    let response;
    performance.measure("crawford:before-send", { start: pressed ?? performance.now() });
    pressed = null;
    try { response = await post(command, newKey()); }
    catch (lost) { busy = false; render(gettext("No answer from the server: check the connection and try again."), true); return false; }
    const body = await response.json();
    const answered = performance.now();
    busy = false;
    if (response.status === 409 && body.state) {  // the other tablet was first: show what it recorded, and where we are
      adopt(body.state); render(body.detail, true); return false;
    }
    if (!response.ok) { begin(); render(body.detail || "refused", true); return false; }
    adopt(body.state);
    clockRead = performance.now();
    pending = [note, told(body.appended)].filter(Boolean).join(" ");
    const due = command.type === "press_clock" ? null : pressDue();
    if (due !== null) { await send({ type: "press_clock", player: due }); return true; }
    const now = +response.headers.get("X-Match-Version");
    if (now > state.version) await refresh(gettext("The match has moved on since; the screen is updated."));
    else if (!playForced()) render();
    performance.measure("crawford:after-answer", { start: answered });
    requestAnimationFrame(() => setTimeout(() => performance.measure("crawford:answer-to-paint", { start: answered })));
    return true;
  }

  // -- the clock (games/clocks.py): the server's figures at its reading, counted down here between answers ------
  // The server judges every press; the screen offers the press that can be right and, with "press with each
  // play" on, sends it itself once the game waits on the other player: a turn costs no tap more than without.
  let clockRead = performance.now();  // when the state's clock figures arrived
  let claimed = 0;                    // the version at which this screen last said a flag fell
  const IN_GAME = [P.ROLL, P.MOVE, P.DOUBLED, P.RESIGNED];
  const inGame = () => IN_GAME.includes(state.phase) && !state.finished;
  const toAct = () => state.phase === P.DOUBLED ? (state.answerer ?? 1 - state.turn)
    : state.phase === P.RESIGNED ? 1 - state.resignation.player : state.turn;
  // whose press the screen offers: the running clock's player, or at the opening roll the lower die's
  const presser = () => state.clock.running !== null ? state.clock.running : inGame() ? 1 - toAct() : null;
  function drawClock() {
    const c = state.clock;
    $("clock").hidden = !c;
    const rule = state.clock_rule;  // its round's: a preset it names is the only one offered; "none": no clock
    $("clock-set").hidden = online() || !!c || state.finished || state.phase !== P.OPENING || !state.length
      || (rule && rule.use === "none");
    if (rule && rule.preset) {
      const preset = $("clock-preset");
      if (![...preset.options].some((o) => o.value === rule.preset)) preset.add(new Option(rule.preset, rule.preset));
      preset.value = rule.preset;
      preset.disabled = true;
    }
    if (!c) return;
    const shown = Crawford.clockShown(c, clockRead);
    const fallen = c.running !== null && !c.paused && inGame() && shown.reserves[c.running] === 0 && shown.delay === 0;
    for (const seat of [0, 1]) {
      const side = $(`clock-${seat}`), runs = c.running === seat && !c.paused && !state.finished;
      side.querySelector(".clock-name").textContent = name(seat);
      side.querySelector(".clock-time").textContent = Crawford.clockText(shown.reserves[seat]);
      side.querySelector(".clock-delay").textContent = runs && c.delay ? `+${Math.ceil(shown.delay / 1000)}` : "";
      side.classList.toggle("running", runs);
      side.disabled = online() || busy || state.finished || c.paused || presser() !== seat;
    }
    $("claim-time").hidden = !fallen;
    $("clock-pause").hidden = online() || state.finished || c.paused || c.running === null;
    $("clock-resume").hidden = online() || state.finished || !c.paused;
    $("clock-note").textContent = c.paused ? gettext("The clocks are paused.")
      : fallen ? fmt(gettext("%(name)s's flag has fallen."), { name: name(c.running) }) : "";
    if (fallen && !busy && claimed !== state.version && (!online() || c.running !== mySeat)) { claimed = state.version; send({ type: "claim_time" }); }
  }
  setInterval(() => { if (state.clock) drawClock(); }, 250);
  // the press the game now asks for: the opening roll's, or the running clock's once the game waits on the other
  function pressDue() {
    const c = state.clock;
    if (!c || c.paused || !$("clock-auto").checked || state.finished) return null;
    if (c.running === null) return inGame() ? 1 - toAct() : null;
    return !inGame() || toAct() !== c.running ? c.running : null;
  }

  // a roll with one legal play only: it is recorded without a tap, and said
  function playForced() {
    if (!mine() || (online() && !$("auto-forced").checked)) return false;  // online: the player's own setting
    if (state.phase !== P.MOVE || state.finished || legal.size !== 1) return false;
    const only = completions(pos, dice, [], new Map());
    if (only.size !== 1) return false;
    steps = only.values().next().value;
    // "roll", not "dice": a const named dice here would shadow the dice left (above) for the whole function
    const play = text(steps), roll = `${state.dice[0]}-${state.dice[1]}`;
    const note = fmt(gettext("%(name)s's %(dice)s has one way to play: %(play)s, recorded."), { name: name(state.turn), dice: roll, play: play });
    send({ type: "move", move: play }, note);
    render(fmt(gettext("%(name)s's %(dice)s has one way to play: %(play)s: recording…"), { name: name(state.turn), dice: roll, play: play }));
    return true;
  }

  // another tablet may record the same match: the server says when it moves on (follow.js)
  async function refresh(message) {
    const response = await fetch(`/api/matches/${state.id}/`, { credentials: "same-origin" });
    if (!response.ok) return;
    const fresh = await response.json();
    if (fresh.version === state.version) return;
    const composing = steps.length > 0;
    adopt(fresh);
    clockRead = performance.now();
    if (online() && playForced()) return;  // the opponent's move left this player a forced one
    render(message || (composing ? gettext("Another tablet recorded a move: the screen is updated, play again.") : undefined));
  }
  let soon = null;
  Crawford.follow(`/matches/${state.id}/follow/`, (version) => {
    // through a timer, so a burst of appends is one fetch (and a test with a frozen clock decides when it looks)
    if (version > state.version && !busy && !soon) soon = setTimeout(() => { soon = null; refresh().catch(() => {}); }, 20);
  }, () => { if (!busy) refresh().catch(() => {}); }, 3000);

  // -- the dice pad: two taps, sent at the second; the pad is empty again for the next roll ------------------
  document.querySelectorAll(".die-key").forEach((k) => k.addEventListener("click", () => {
    if (busy) return;
    chosen.push(+k.dataset.die);
    if (chosen.length < 2) { render(); return; }
    const dice2 = chosen.slice(0, 2);
    chosen = [];
    send({ type: "roll", dice: dice2 });
  }));

  $("roll").addEventListener("click", () => send({ type: "roll" }));
  $("enter-dice").addEventListener("click", () => {
    if (!$("die1").value || !$("die2").value) { render(gettext("Choose both dice first."), true); return; }
    send({ type: "roll", dice: [+$("die1").value, +$("die2").value] });
  });
  $("play").addEventListener("click", () => send({ type: "move", move: $("move-text").value.trim() }));
  $("other-die").addEventListener("click", otherDie);
  $("undo").addEventListener("click", () => {
    steps.pop();
    // replayed from the start: a step undone may have hit, and the dice it used come back
    const kept = steps;
    begin();
    for (const [f, t] of kept) {
      const die = dice.find((d) => { const s = step(pos, f, d); return s && s.to === t; });
      const s = step(pos, f, die);
      pos = s.q; dice.splice(dice.indexOf(die), 1); steps.push([f, t]);
    }
    render();
  });
  $("double").addEventListener("click", () => send({ type: "double" }));
  for (const seat of [0, 1]) $(`clock-${seat}`).addEventListener("click", () => send({ type: "press_clock", player: seat }));
  $("set-clock").addEventListener("click", () => send(state.clock_rule && state.clock_rule.preset
    ? { type: "set_clock" } : { type: "set_clock", preset: $("clock-preset").value }));
  $("claim-time").addEventListener("click", () => send({ type: "claim_time" }));
  $("clock-pause").addEventListener("click", () => send({ type: "pause_clock" }));
  $("clock-resume").addEventListener("click", () => send({ type: "resume_clock" }));
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
  // -- presence (online): this page's heartbeat, the opponent's coming and going, the disconnect clock ----------
  // The server judges who is here from the heartbeats; a closing page says so at once. The opponent's page is told
  // of a coming or going through the presence topic (follow.js), and counts the disconnect clock down from the
  // server's reading; the claim is the player's own, and the server refuses it until the clock has run out.
  let presence = null, presenceRead = 0;
  const presenceUrl = `/api/matches/${state.id}/presence/`;
  const beatBody = (here) => ({ method: "POST", credentials: "same-origin", keepalive: !here,
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf }, body: JSON.stringify({ here }) });
  function presenceTold(body) { presence = body; presenceRead = performance.now(); drawPresence(); }
  async function beat() {
    try { const r = await fetch(presenceUrl, beatBody(true)); if (r.ok) presenceTold(await r.json()); }
    catch (lost) { /* the next heartbeat tries again */ }
  }
  async function lookPresence() {
    try { const r = await fetch(presenceUrl, { credentials: "same-origin" }); if (r.ok) presenceTold(await r.json()); }
    catch (lost) { /* the next push or heartbeat */ }
  }
  function drawPresence() {
    if (!presence) return;
    const other = 1 - mySeat, them = presence.seats[other];
    const now = presence.at + (performance.now() - presenceRead);  // the server's time, counted on from its reading
    let note = "", disconnect = false, noShow = false;
    if (state.finished) note = "";
    else if (them.here) note = fmt(gettext("%(name)s is here."), { name: name(other) });
    else if (them.runs_out_at !== null) {
      const left = Math.max(0, them.runs_out_at - now);
      disconnect = left === 0;
      note = disconnect ? fmt(gettext("%(name)s is away and the disconnect clock has run out: you may claim the match."), { name: name(other) })
        : fmt(gettext("%(name)s is away: the disconnect clock runs out in %(time)s."), { name: name(other), time: Crawford.clockText(left) });
    } else {
      noShow = !presence.begun && now >= presence.start_by + (presence.late || 0) * 1000;
      note = noShow ? fmt(gettext("%(name)s has not come by the start deadline: you may claim the match."), { name: name(other) })
        : fmt(gettext("Waiting for %(name)s."), { name: name(other) });
    }
    $("presence").dataset.opponent = state.finished ? "" : them.here ? "here" : "away";
    $("presence-note").textContent = note;
    $("claim-disconnect").hidden = !disconnect || busy;
    $("claim-no-show").hidden = !noShow || busy;
  }
  if (online()) {
    const next = () => setTimeout(() => beat().then(next), (presence ? presence.heartbeat : 5) * 1000);
    beat().then(next);
    window.addEventListener("pagehide", () => { fetch(presenceUrl, beatBody(false)).catch(() => {}); });
    window.addEventListener("pageshow", (e) => { if (e.persisted) beat(); });  // back from the browser's cache
    Crawford.follow(`/matches/${state.id}/follow/?topic=presence`, () => { lookPresence(); }, lookPresence, 5000);
    setInterval(drawPresence, 500);
    $("claim-disconnect").addEventListener("click", () => send({ type: "claim_disconnect" }));
    $("claim-no-show").addEventListener("click", () => send({ type: "claim_no_show" }));
    const forced = $("auto-forced");
    forced.checked = localStorage.getItem("crawford:auto-forced") !== "0";
    forced.addEventListener("change", () => {
      localStorage.setItem("crawford:auto-forced", forced.checked ? "1" : "0");
      if (forced.checked && !busy) playForced();
    });
  }

  begin();
  if (!playForced()) render();
})();
