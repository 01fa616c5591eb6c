// GNU Backgammon's analysis on the pages: the viewer's marks and best plays, the match's figures, the
// player's error-rate chart and the event's averages. Read from the API; DOM built with textContent only.
"use strict";
(function () {
  // the page's language: Django's JavaScript catalogue (/jsi18n/, a script file loaded before this one)
  const gettext = window.gettext;
  const ngettext = window.ngettext;
  const pgettext = window.pgettext;
  const fmt = (text, values) => window.interpolate(text, values, true);  // %(name)s, as in the .po
  // numbers as the page's language writes them (French: 3,9 and −0,021), as the rating chart's
  const lang = document.documentElement.lang || undefined;
  const digits = (n) => new Intl.NumberFormat(lang, { minimumFractionDigits: n, maximumFractionDigits: n });
  const one = digits(1), three = digits(3);
  const EMG = (x) => (x >= 0 ? "" : "−") + three.format(Math.abs(x));
  const rate = (x) => one.format(x);
  const signed = (x) => (x >= 0 ? "+" : "−") + three.format(Math.abs(x));

  // gnubg's marks, as the page's language says them
  const VERDICTS = { "doubtful": gettext("doubtful"), "bad": gettext("bad"), "very bad": gettext("very bad") };
  const verdict = (v) => VERDICTS[v] || v;
  // gnubg's rating words, as its "show statistics match" prints them (the API passes them on as printed)
  const RATINGS = { "Awful!": gettext("Awful!"), "Beginner": gettext("Beginner"),
    "Casual player": gettext("Casual player"), "Intermediate": gettext("Intermediate"), "Advanced": gettext("Advanced"), "Expert": gettext("Expert"),
    "World class": gettext("World class"), "Supernatural": gettext("Supernatural") };
  const rating = (r) => RATINGS[r] || r;
  // gnubg's cube actions, as the API passes them on (analysis/gnubg_script.py): what the player did, said after
  // their name, and the right action
  const DONE = { "no double": pgettext("cube action played", "no double"),
    "double": pgettext("cube action played", "double"), "take": pgettext("cube action played", "take"),
    "drop": pgettext("cube action played", "drop") };
  const RIGHT = { "no double": pgettext("right cube action", "no double"),
    "double, take": pgettext("right cube action", "double, take"),
    "double, pass": pgettext("right cube action", "double, pass"), "take": pgettext("right cube action", "take"),
    "pass": pgettext("right cube action", "pass") };
  const played = (d) => (d.kind === "move" ? d.played : DONE[d.played] || d.played);
  const best = (d) => (d.kind === "move" ? d.best : RIGHT[d.best] || d.best);
  // gnubg's word for an error rate ("Expert"), not a player's rating
  const RATING = pgettext("gnubg's word for an error rate", "Rating");

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  // what each column's figure means, in its heading's title (the legend below the table says it too, and links
  // to the formula page's section)
  const MEANS = {
    chequer: gettext("Checker-play error rate: equity lost on checker plays per unforced move, in mEMG (thousandths of an EMG); lower is better"),
    cube: gettext("Cube error rate: equity lost on cube decisions per close or actual cube decision, in mEMG; lower is better"),
    overall: gettext("Overall error rate: equity lost on checker plays and cube decisions per decision, in mEMG; lower is better"),
    rating: gettext("gnubg's word for the overall error rate"),
    pr: gettext("Performance Rating on eXtreme Gammon's scale: half the overall error rate; lower is better"),
    luck: gettext("Luck: what the dice gave over the match against an average roll, in EMG; positive is lucky"),
  };
  const th = (text, means) => {
    const cell = el("th");
    if (!means) { cell.textContent = text; return cell; }
    const abbr = el("abbr", text);
    abbr.title = means;
    cell.appendChild(abbr);
    return cell;
  };

  function table(head, rows) {
    const t = el("table");
    const tr = el("tr");
    head.forEach((h) => tr.appendChild(Array.isArray(h) ? th(h[0], h[1]) : th(h)));
    t.appendChild(el("thead")).appendChild(tr);
    const body = el("tbody");
    rows.forEach((r) => {
      const row = el("tr");
      r.forEach((c) => row.appendChild(c instanceof Node ? el("td").appendChild(c).parentNode : el("td", c)));
      body.appendChild(row);
    });
    t.appendChild(body);
    return t;
  }

  // -- the match page: figures, the list of marked plays, the mark of the play on the board -------------
  const match = document.getElementById("analysis");
  if (match) {
    const mark = document.getElementById("mark");
    let byVersion = {};
    let current = null;

    function showMark() {
      if (!mark) return;
      mark.replaceChildren();
      const all = (current && byVersion[current.version]) || [];
      if (!all.length) { mark.className = "mark"; return; }
      // a play and the "no double" before it share the play's frame: the worse of the two is marked
      const d = all.reduce((a, b) => (b.loss > a.loss ? b : a));
      mark.className = "mark verdict-" + (d.verdict || "none").replace(" ", "-");
      const name = match.dataset["player" + d.player];
      const said = d.verdict ? verdict(d.verdict) : gettext("fine");
      mark.appendChild(el("strong", said.charAt(0).toUpperCase() + said.slice(1)));
      const made = { name: name, play: played(d), equity: EMG(d.equity_played), loss: three.format(d.loss) };
      mark.appendChild(el("span", " · " + fmt(d.kind === "move"
        ? gettext("%(name)s played %(play)s (%(equity)s), loss %(loss)s")
        : gettext("%(name)s %(play)s (%(equity)s), loss %(loss)s"), made)));
      if (d.loss > 0.0005) {
        const right = { play: best(d), equity: EMG(d.equity_best) };
        mark.appendChild(el("br"));
        mark.appendChild(el("span", fmt(d.kind === "move" ? gettext("Best play: %(play)s (%(equity)s)")
          : gettext("Right cube action: %(play)s (%(equity)s)"), right), "best"));
      }
    }
    document.addEventListener("crawford:frame", (e) => { current = e.detail; showMark(); });

    // the viewer holds one game at a time (?game=N): a decision of another game opens that game's page there
    const framesHere = document.getElementById("frames");
    const here = new Set(framesHere ? JSON.parse(framesHere.textContent).map((f) => f.version) : []);
    function goto(d) {
      if (here.has(d.version)) document.dispatchEvent(new CustomEvent("crawford:goto", { detail: d.version }));
      else window.location.assign(`?game=${d.game}#v${d.version}`);
    }
    let arrived = false;
    let waited = 0;

    function render(a) {
      const status = document.getElementById("analysis-status");
      // progress in decisions (checker plays with a choice and cube decisions), the total counted before gnubg runs
      const said = { plies: a.plies, error: a.error, done: a.decisions_done, total: a.decisions_total };
      status.textContent = fmt(a.status === "done" ? gettext("GNU Backgammon, %(plies)s-ply")
        : a.status === "failed" ? gettext("GNU Backgammon, %(plies)s-ply: failed (%(error)s)")
        : a.status !== "running" ? gettext("GNU Backgammon, %(plies)s-ply: analysis queued…")
        : a.decisions_total ? gettext("GNU Backgammon, %(plies)s-ply: analysis in progress, %(done)s of %(total)s decisions done…")
        : gettext("GNU Backgammon, %(plies)s-ply: analysis in progress, starting…"), said)
        // a match that stopped before its end (an import cut short, an abandoned match, one still played)
        + (a.unfinished ? " · " + gettext("unfinished match: analysed up to where it stops") : "")
        // the quick analysis shown while the deeper one runs: it is replaced without a reload
        + (a.status === "done" && a.deeper ? " · " + fmt(gettext("%(plies)s-ply analysis under way, shown here when done…"),
          { plies: a.deeper.plies }) : "");
      if (a.status !== "done") return false;
      byVersion = {};
      a.decisions.forEach((d) => { if (d.version !== null) (byVersion[d.version] = byVersion[d.version] || []).push(d); });
      const figures = document.getElementById("analysis-figures");
      figures.replaceChildren(table(
        [gettext("Player"), [gettext("Checker play (mEMG)"), MEANS.chequer], [gettext("Cube (mEMG)"), MEANS.cube],
         [gettext("Overall (mEMG)"), MEANS.overall], [RATING, MEANS.rating],
         [gettext("PR (XG scale)"), MEANS.pr], [gettext("Luck (EMG)"), MEANS.luck]],
        a.players.map((p) => [p.name,
          fmt(ngettext("%(rate)s · %(n)s move", "%(rate)s · %(n)s moves", p.unforced_moves),
              { rate: rate(p.chequer_rate), n: p.unforced_moves }),
          fmt(ngettext("%(rate)s · %(n)s decision", "%(rate)s · %(n)s decisions", p.close_cube),
              { rate: rate(p.cube_rate), n: p.close_cube }),
          rate(p.overall_rate), rating(p.overall_rating),
          rate(p.performance_rating), signed(p.luck)])));
      const list = document.getElementById("analysis-marked");
      list.replaceChildren();
      a.decisions.filter((d) => d.verdict && d.version !== null).sort((x, y) => x.version - y.version).forEach((d) => {
        const b = el("button", fmt(gettext("Game %(game)s: %(name)s %(play)s · %(verdict)s (−%(loss)s)"), {
          game: d.game, name: match.dataset["player" + d.player], play: (d.kind === "move" ? d.dice + " " : "") + played(d),
          verdict: verdict(d.verdict), loss: three.format(d.loss) }), "link verdict-" + d.verdict.replace(" ", "-"));
        b.addEventListener("click", () => goto(d));
        list.appendChild(el("li")).appendChild(b);
      });
      showMark();
      const wanted = window.location.hash.match(/^#v(\d+)$/);
      if (wanted && !arrived) {  // opened from another game's list of marked decisions
        arrived = true;
        document.dispatchEvent(new CustomEvent("crawford:goto", { detail: Number(wanted[1]) }));
      }
      return true;
    }

    // Following an analysis: every 3 s at first, half as long again each time up to every 15 s, for as long
    // as it is queued or running (a 2-ply analysis, or a queue behind a club night, takes minutes) -- then the
    // figures and marks appear without a reload. A failed request while following is tried again, slower.
    const FIRST = 3000, SLOWEST = 15000;
    let delay = FIRST;
    let following = false;
    let lastStatus = null;
    function again() {
      setTimeout(load, delay);
      delay = Math.min(SLOWEST, delay * 1.5);
    }

    function load() {
      fetch(`/api/matches/${match.dataset.match}/analysis/`, { headers: { Accept: "application/json" } })
        .then((r) => (r.ok ? r.json() : null))
        .catch(() => null)
        .then((a) => {
          if (a === null && following) { again(); return; }
          if (a === null || a.status === "none") {
            document.getElementById("analysis-status").textContent = gettext("Analysed by GNU Backgammon once the match is finished.");
            // while it is played, and a while after it ends (the projection notices it, maybe behind a
            // busy queue: ~10 minutes): then it is there, or never (a voided match)
            if (match.dataset.finished !== "true") setTimeout(load, 5000);
            else if (++waited < 45) again();
            return;
          }
          // a deeper analysis to come is followed as one under way: the quick one stays shown meanwhile
          following = a.status === "queued" || a.status === "running" || a.deeper !== null;
          const now = `${a.plies}:${a.status}:${a.deeper ? a.deeper.status : ""}`;
          if (now !== lastStatus) delay = FIRST; // it moved (queued, running, the deeper one): look again soon
          lastStatus = now;
          // done: rendered (and looked at again while a deeper one is to come); failed: said, nothing to wait for
          if ((!render(a) || a.deeper) && following) again();
        });
    }
    match.hidden = false;
    load();
  }

  // -- the player page: error rate match by match, beside the rating chart --------------------------------
  const history = document.getElementById("analysis-history");
  if (history) {
    fetch(`/api/players/${history.dataset.player}/analysis/`, { headers: { Accept: "application/json" } })
      .then((r) => r.json())
      .then((body) => {
        const points = body.matches, pooled = body.pooled;
        if (!points.length) return;
        history.hidden = false;
        // room at the left for the axis' values, at the top for its unit
        const w = 600, h = 180, left = 46, right = 10, top = 22, bottom = 10;
        const values = points.map((p) => p.overall_rate);
        // a round step giving 3 to 6 ticks from 0 (deploy/rating_chart.py's rule), the axis ending on a tick and
        // reaching 5 mEMG at least (a flawless match does not stretch a hair's error over the whole height)
        const most = Math.max(...values, 5);
        const raw = most / 4;
        const power = 10 ** Math.floor(Math.log10(raw));
        const tick = [1, 2, 2.5, 5, 10].map((m) => m * power).find((v) => v >= raw);
        const high = Math.ceil(most / tick) * tick;
        const step = (w - left - right) / Math.max(1, values.length - 1);
        const ns = "http://www.w3.org/2000/svg";
        const svg = document.getElementById("analysis-chart");
        svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
        const Y = (v) => (h - bottom - (v / high) * (h - top - bottom)).toFixed(1);
        const svgEl = (parent, tag, attrs, text) => {
          const e = document.createElementNS(ns, tag);
          Object.entries(attrs).forEach(([k, v]) => e.setAttribute(k, v));
          if (text !== undefined) e.textContent = text;
          return parent.appendChild(e);
        };
        // the y axis: its values at each tick, a light line across, and its unit above
        const axis = svgEl(svg, "g", { class: "axis", "font-size": "11", fill: "#3d454c" });
        const tickDigits = digits(Number.isInteger(tick) ? 0 : Number.isInteger(tick * 10) ? 1 : 2);
        for (let k = 0; k * tick <= high + 1e-9; k++) {
          const y = Y(k * tick);
          svgEl(axis, "line", { class: "grid", x1: left, y1: y, x2: w - right, y2: y, stroke: "#e4e1da" });
          svgEl(axis, "text", { x: left - 6, y: y, "text-anchor": "end", "dominant-baseline": "middle", class: "tick" },
                tickDigits.format(k * tick));
        }
        svgEl(axis, "line", { x1: left, y1: top, x2: left, y2: h - bottom, stroke: "#5c6670" });
        svgEl(axis, "text", { x: 4, y: 12, class: "unit" }, gettext("mEMG per decision"));
        const xy = values.map((v, i) => [(left + i * step).toFixed(1), Y(v)]);
        const line = document.createElementNS(ns, "polyline");
        line.setAttribute("points", xy.map((p) => p.join(",")).join(" "));
        line.setAttribute("fill", "none");
        line.setAttribute("stroke", "#b5412b");
        line.setAttribute("stroke-width", "2");
        svg.appendChild(line);
        xy.forEach(([x, y], i) => { // a dot per match: one match is a point, not a line
          const dot = document.createElementNS(ns, "circle");
          dot.setAttribute("cx", x); dot.setAttribute("cy", y); dot.setAttribute("r", "4");
          dot.setAttribute("fill", "#b5412b");
          dot.appendChild(document.createElementNS(ns, "title")).textContent = `${rate(values[i])} mEMG`;
          svg.appendChild(dot);
        });
        svg.setAttribute("aria-label", fmt(gettext("Error rate match by match, 0 to %(high)s mEMG"), { high: rate(high) }));
        // over all the matches: pooled by the API (total error over total decisions), never a mean of the dots
        document.getElementById("analysis-caption").textContent = fmt(gettext(
          "Overall error rate (mEMG per decision, GNU Backgammon) in each analysed match: 0 – %(high)s; lower is better"),
          { high: rate(high) }) + (pooled ? " · " + fmt(ngettext("over the %(n)s analysed match: %(overall)s mEMG, PR %(pr)s (XG scale)",
          "over all %(n)s analysed matches: %(overall)s mEMG, PR %(pr)s (XG scale)", pooled.matches),
          { n: pooled.matches, overall: rate(pooled.overall_rate), pr: rate(pooled.performance_rating) }) : "");
        // the match's day as the page's language writes it ("25 nov. 2026"), as the rating chart above does
        const day = (iso) => new Date(iso).toLocaleDateString(document.documentElement.lang || undefined,
                                                              { day: "numeric", month: "short", year: "numeric" });
        const rows = points.slice().reverse().map((p) => {
          const when = p.ended_at ? day(p.ended_at) : "";
          const a = el("a", p.opponent ? fmt(gettext("%(date)s against %(opponent)s"), { date: when, opponent: p.opponent }).trim()
            : when || gettext("match"));
          a.href = `/matches/${p.match}/`;
          return [a, rate(p.chequer_rate), rate(p.cube_rate), rate(p.overall_rate), rating(p.overall_rating), rate(p.performance_rating)];
        });
        const matches = table([gettext("Match"), [gettext("Checker play"), MEANS.chequer], [gettext("Cube"), MEANS.cube],
                               [gettext("Overall"), MEANS.overall], [RATING, MEANS.rating], [gettext("PR"), MEANS.pr]], rows);
        if (pooled) { // the figures over all of them, below the matches: a total row
          const total = el("tr");
          total.id = "analysis-pooled";
          const head = el("th", fmt(gettext("All matches (%(n)s)"), { n: pooled.matches }));
          head.scope = "row";
          head.title = gettext("Pooled as eXtreme Gammon pools them: the total error over the total decisions, not a mean of the matches");
          total.appendChild(head);
          [rate(pooled.chequer_rate), rate(pooled.cube_rate), rate(pooled.overall_rate), rating(pooled.overall_rating),
           rate(pooled.performance_rating)].forEach((c) => total.appendChild(el("td", c)));
          matches.appendChild(el("tfoot")).appendChild(total);
        }
        document.getElementById("analysis-table").replaceChildren(matches);
      });
  }

  // -- the event page: each player's figures pooled over the event -----------------------------------------
  const averages = document.getElementById("analysis-averages");
  if (averages) {
    fetch(`/api/tournaments/${averages.dataset.event}/analysis/`, { headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : []))
      .then((rows) => {
        if (!rows.length) return;
        averages.hidden = false;
        document.getElementById("analysis-averages-table").replaceChildren(table(
          [gettext("Player"), gettext("Matches"), [gettext("Checker play (mEMG)"), MEANS.chequer],
           [gettext("Cube (mEMG)"), MEANS.cube], [gettext("Overall (mEMG)"), MEANS.overall],
           [gettext("PR (XG scale)"), MEANS.pr]],
          rows.map((r) => {
            const a = el("a", r.name);
            a.href = `/players/${r.player_id}/`;
            return [a, String(r.matches), rate(r.chequer_rate), rate(r.cube_rate), rate(r.overall_rate), rate(r.performance_rating)];
          })));
      });
  }
})();
