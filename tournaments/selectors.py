"""Reads of a tournament from its read model."""

from __future__ import annotations

from datetime import UTC, datetime

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, pgettext

from games.models import MatchSummary
from players.selectors import display_names

from eventlog import store

from . import commands, config, decider, derive, folding, stream
from . import names as names_of_rounds
from .formats import teams
from .formats.knockout import bracket_size
from .refusals import BadTeam, NotLadder, NotLeague, Reason
from .models import LedgerShare, Tournament, TournamentLedger, TournamentSlot, TournamentStanding, TournamentState


def tournament_facts(tournament: Tournament) -> stream.Facts:
    """The fold of the event's own stream: everything it knows, its matches' results included."""
    return folding.facts_of(tournament.pk)


def settings_data(tournament: Tournament) -> dict:
    """The event's settings as they stand: its format, the director's settings (``EventSettings``) and those its
    commands set (a command's ``setting``), from the fold of its stream."""
    stored = tournament_facts(tournament).config
    own = {cls.setting: stored[cls.setting] for cls in commands.COMMANDS.values() if cls.setting in stored}
    return {"format": stored.get("format", ""), **config.EventSettings.stored(stored).as_dict(), **own}


def tournament_view(tournament: Tournament) -> tuple[stream.Facts, derive.View]:
    facts = tournament_facts(tournament)
    return facts, derive.derive(facts)


_SLOT_FIELDS = ("key", "bracket", "round", "index", "player_a", "player_b", "status", "length", "match_id", "winner",
                "winner_points", "loser_points", "forfeit", "entry_a", "entry_b", "open_place", "table")
_STANDING_FIELDS = ("rank", "player_id", "played", "wins", "losses", "byes", "points_for", "points_against", "score",
                    "tiebreaks", "flight", "forfeits", "withdrawn", "shared")


def tournament_data(tournament: Tournament) -> dict:
    state = TournamentState.objects.filter(tournament_id=tournament.pk).first()
    # rows as dicts, not model instances: a big event's page reads thousands of them at each result
    slots = list(TournamentSlot.objects.filter(tournament_id=tournament.pk).order_by("bracket", "round", "index")
                 .values(*_SLOT_FIELDS))
    # a shared place's players (3=) in the order the table was derived in
    rows = sorted(TournamentStanding.objects.filter(tournament_id=tournament.pk).values("pk", "position",
                                                                                         *_STANDING_FIELDS),
                  key=lambda r: (FLIGHT_ORDER.get(r["flight"], len(FLIGHT_ORDER)), r["rank"], r["position"], r["pk"]))
    ids = {p for s in slots for p in (s["player_a"], s["player_b"]) if p} | {r["player_id"] for r in rows}
    ids |= set(state.entries if state else [])
    names = display_names(ids)
    order = {name: i for i, name in enumerate(state.tiebreaks if state else [])}
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "club": tournament.club_id,
        "director": tournament.director_id,
        "format": state.format if state else None,
        "version": state.version if state else 0,
        "entries": [{"player_id": p, "name": names.get(p, "")} for p in (state.entries if state else [])],
        "checked_in": state.checked_in if state else [],
        "withdrawn": state.withdrawn if state else [],
        "drawn": bool(state and state.drawn),
        "winner": state.winner if state else None,
        "champions": state.champions if state else {},
        "flagged": state.flagged if state else [],
        "slots": [
            {"key": s["key"], "bracket": s["bracket"], "round": s["round"], "index": s["index"],
             "players": [s["player_a"], s["player_b"]], "names": [names.get(s["player_a"]), names.get(s["player_b"])],
             "status": s["status"], "length": s["length"], "match_id": s["match_id"] or None, "winner": s["winner"],
             "score": [s["winner_points"], s["loser_points"]], "forfeit": s["forfeit"],
             "entries": [s["entry_a"], s["entry_b"]], "open_place": s["open_place"], "table": s["table"]}
            for s in slots
        ],
        "standings": [
            {**{f: r[f] for f in _STANDING_FIELDS}, "name": names.get(r["player_id"], ""),
             # in the event's order: the columns read as the ranking uses them
             "tiebreaks": dict(sorted(r["tiebreaks"].items(), key=lambda kv: order.get(kv[0], len(order)))),
             "place": place_label(r["rank"], r["shared"])}
            for r in rows
        ],
        "stages": state.stages if state else {},
        "reentry": state.reentry if state else {},
    }


def place_label(rank: int, shared: bool) -> str:
    """A place as the tables show it: "3" or, shared with others knocked out in the same round, "3="."""
    return pgettext("a place shared with other players, as in 3=", "%(place)s=") % {"place": rank} if shared \
        else str(rank)


FLIGHT_ORDER = {"": 0, "swiss": 0, "rr": 0, **{f"group{g}": g / 100 for g in range(1, 27)},  # stage one first
                "main": 1, "consolation": 2, "last_chance": 3,
                "winners": 1, "losers": 2, "grand_final": 3,  # a double elimination's, in the order they are played
                **{f"d{n}": 3 + n for n in range(1, 100)}}  # a league's divisions, the top one first


def _names(data: dict) -> dict:
    """Brackets' names as the page shows them; a staged event names its stages, a round robin its groups."""
    groups = {f"group{g}": names_of_rounds.group_name(g) for g in range(1, 27)}
    groups.update({f"d{n}": bracket_name(f"d{n}") for n in range(1, 100)})  # a league's divisions
    if not data.get("stages"):
        return {**BRACKET_NAMES, **groups}
    first = _("Swiss") if data["stages"]["first"] == "swiss" else _("Round robin")
    groups = {k: _("Stage 1 · %s") % v for k, v in groups.items()}
    return {**BRACKET_NAMES, **groups, "swiss": _("Stage 1 · %s") % first, "rr": _("Stage 1 · %s") % first,
            "main": _("Stage 2 · Knockout")}


def standings_by_flight(data: dict) -> list[dict]:
    """The tables as the page shows them: one per flight, the event's own (with its winner first) first."""
    out: dict[str, dict] = {}
    names = _names(data)
    for row in data["standings"]:
        flight = row["flight"]
        table = out.setdefault(flight, {"key": flight, "name": names.get(flight, "") if flight else "",
                                        "rows": []})
        champion = data["winner"] if flight in ("", "main") else data["champions"].get(flight)
        table["rows"].append({**row, "champion": champion is not None and row["player_id"] == champion})
        if "tiebreaks" not in table:  # each table its own, worked out once, not at each of its rows
            table["tiebreaks"] = [tiebreak_view(n) for n in row["tiebreaks"]]
            table["byes"] = bye_rule(data["format"], flight)
    return list(out.values())


STANDINGS_PAGE = 100


def standings_page(tables: list[dict], page: int) -> tuple[list[dict], dict[int, int]]:
    """Each table's rows of one page (a big event's 1,000 rows are ten pages), its page count, and the page of
    each player in the event's own table (the first), to send a viewer to their row."""
    size = STANDINGS_PAGE
    pages_of = {r["player_id"]: i // size + 1 for i, r in enumerate(tables[0]["rows"])} if tables else {}
    out = [{**t, "rows": t["rows"][(page - 1) * size:page * size], "pages": max(1, -(-len(t["rows"]) // size))}
           for t in tables]
    return out, pages_of


def bye_rule(fmt: str | None, flight: str) -> str | None:
    """What a bye counts for in a table: "win" in a Swiss (formats/swiss.py), "nothing" for a round robin's rest
    round (formats/round_robin.py); None for a knockout's tables, where a bye only takes a player on."""
    if flight == "swiss" or (flight == "" and fmt == stream.Format.SWISS):
        return "win"
    if flight == "rr" or flight.startswith("group") or (flight == "" and fmt == stream.Format.ROUND_ROBIN):
        return "nothing"
    return None


BRACKET_NAMES = {  # lazy: each page reads them in its reader's language
    "teams": gettext_lazy("Team matches"),
    "main": gettext_lazy("Main"), "consolation": gettext_lazy("Consolation"),
    "last_chance": gettext_lazy("Last Chance"), "winners": gettext_lazy("Winners"), "losers": gettext_lazy("Losers"),
    "grand_final": gettext_lazy("Grand final"), "swiss": gettext_lazy("Rounds"), "rr": gettext_lazy("Rounds"),
    "ladder": gettext_lazy("Challenges"),
}


def with_live_scores(data: dict) -> dict:
    """Each match at the board gets its score so far (its first player's points first), read from the match's
    summary: a bracket shows "3–1 · live", not only that it is live."""
    live = {s["match_id"]: s for s in data["slots"] if s["match_id"] and s["status"] == "ready" and s["winner"] is None}
    for summary in MatchSummary.objects.filter(pk__in=list(live)):
        slot = live[summary.pk]
        score = [summary.score0, summary.score1]
        slot["live_score"] = score[::-1] if summary.player0_id != slot["players"][0] else score
    return data


def bracket_columns(data: dict) -> list[dict]:
    """Slots grouped bracket by bracket, round by round, as the page draws them."""
    out: dict[str, dict] = {}
    names = _names(data)
    slots = data["slots"]
    # the event's own bracket first (stage one, groups, Main, Winners…), not the slots' alphabetical order
    slots = sorted(slots, key=lambda s: FLIGHT_ORDER.get(s["bracket"], len(FLIGHT_ORDER)))
    for s in slots:
        bracket = out.setdefault(s["bracket"], {"name": names.get(s["bracket"], s["bracket"]), "rounds": {}})
        bracket["rounds"].setdefault(s["round"], []).append(s)
    from .names import round_label

    columns = [{"key": k, "name": v["name"], "rounds": [v["rounds"][r] for r in sorted(v["rounds"])],
                "round_names": [round_label(k, r, len(v["rounds"])) for r in sorted(v["rounds"])]}
               for k, v in out.items()]
    for c in columns:  # a knockout whose rounds halve is drawn with lines joining each pair to the match it feeds
        sizes = [len(r) for r in c["rounds"]]
        c["joined"] = len(sizes) > 1 and all(a == 2 * b for a, b in zip(sizes, sizes[1:], strict=False))
    return columns


def bracket_name(key: str) -> str:
    """A bracket's or flight's name as pages show it; a league's divisions are ``d1``, ``d2``…"""
    if key.startswith("d") and key[1:].isdigit():
        return _("Division %(number)s") % {"number": key[1:]}
    return BRACKET_NAMES.get(key, key)


def stage_view(data: dict) -> dict | None:
    """A staged event's stages as the page shows them: stage one's state, and the knockout's qualifiers with the
    place each had in stage one's table; None for an event of one stage."""
    stages = data.get("stages")
    if not stages:
        return None
    names = {e["player_id"]: e["name"] for e in data["entries"]}
    flights = _names(data)
    place = {}  # the place each player had in stage one's table (their group's, with groups)
    for row in data["standings"]:
        if row["flight"].startswith("group"):
            place[row["player_id"]] = f"{flights[row['flight']].split(' · ')[-1]} · {row['rank']}"
        elif row["flight"] == stages["first"]:
            place[row["player_id"]] = str(row["rank"])
    qualifiers = [{"seed": i, "player_id": p, "name": names.get(p, ""), "rank": place.get(p)}
                  for i, p in enumerate(stages["seeds"], 1)]
    first = flights[stages["first"]]
    if stages.get("groups", 1) > 1:
        first = _("Stage 1 · Round robin in %(groups)d groups") % {"groups": stages["groups"]}
    return {**stages, "qualifiers_list": qualifiers, "first_name": first}


def reentry_view(data: dict) -> dict | None:
    """The knockout's re-entry as the pages show it: the rules, the re-entries made (named), who may re-enter."""
    rules = data.get("reentry")
    if not rules:
        return None
    names = {e["player_id"]: e["name"] for e in data["entries"]}
    made = [{**m, "name": names.get(m["player"], "")} for m in rules["made"]]
    eligible = [{"player_id": p, "name": names.get(p, "")} for p in rules["eligible"]]
    return {**rules, "made": made, "eligible": eligible}


TIEBREAK_LABELS = {"buchholz": "Buchholz", "median_buchholz": gettext_lazy("Median Buchholz"),
                   "sonneborn_berger": "Sonneborn-Berger", "points_diff": gettext_lazy("Points difference")}
# each tie-break in a phrase, beside its column; the rules page (``event-rules``) works them out on an example
TIEBREAK_MEANINGS = {
    "buchholz": gettext_lazy("the sum of the player's opponents' scores (a bye adds 0)"),
    "median_buchholz": gettext_lazy("Buchholz without the highest and the lowest of the opponents' scores"),
    "sonneborn_berger": gettext_lazy("the sum of the scores of the opponents the player beat"),
    "points_diff": gettext_lazy("match points won minus match points lost"),
}


def tiebreak_view(name: str) -> dict:
    """A tie-break as a table's heading shows it: its name, what it means, and its section of the rules page."""
    return {"key": name, "name": str(TIEBREAK_LABELS.get(name, name)),
            "meaning": str(TIEBREAK_MEANINGS.get(name, "")), "anchor": name.replace("_", "-")}


def tiebreak_names(data: dict) -> list[str]:
    names = list(data["standings"][0]["tiebreaks"]) if data["standings"] else []
    return [str(TIEBREAK_LABELS.get(n, n)) for n in names]


def tournament_history(tournament: Tournament) -> list[dict]:
    """What the director and the players decided, in order, with the reasons given: results on paper,
    forfeits, withdrawals, corrections, voids and kept matches (the facts themselves, read from the log)."""
    return _history_lines(tournament, store.read_stream(stream.stream_id_of(tournament.pk)))


HISTORY_ON_PAGE = 30  # the event page's latest decisions; the whole history has a page of its own
# the facts a history line tells (each one line): what the director and the players decided
HISTORY_KINDS = ("ResultReported", "SlotResultCorrected", "MatchForfeited", "PlayerWithdrew", "StageClosed",
                 "StageDrawMade", "PlayerReentered", "ReentryClosed", "MatchKept", "MatchUnplayed", "SlotMatchVoided",
                 "SettingsChanged", "ProofDeclined")


def latest_history(tournament: Tournament, count: int | None = None) -> tuple[list[dict], bool]:
    """The ``count`` latest lines of :func:`tournament_history` and whether there are older ones: only the facts
    it shows, newest first, so a big event's page reads and renders a few lines at each result, not its hundreds."""
    count = HISTORY_ON_PAGE if count is None else count
    lines = _history_lines(tournament, store.read_latest(stream.stream_id_of(tournament.pk), HISTORY_KINDS,
                                                          count + 1))
    return lines[-count:], len(lines) > count


def _history_lines(tournament: Tournament, rows) -> list[dict]:
    ids = {p for r in rows for p in (r.payload.get("winner"), r.payload.get("loser"), r.payload.get("player_id")) if p}
    ids |= {q for r in rows if r.event_type == "StageDrawMade" for q in r.payload["seeds"]}
    names = display_names(ids)

    def result(p: dict) -> str:
        return _("%(winner)s beat %(loser)s %(w)s–%(l)s") % {
            "winner": names.get(p["winner"], "?"), "loser": names.get(p["loser"], "?"), "w": p["winner_points"],
            "l": p["loser_points"]}

    from .names import slot_name as named  # round names for people (``main:r1:m1`` is the program's)

    # a knockout's rounds by their names (Final, Semi-final): each bracket's number of rounds
    rounds = rounds_per_bracket(tournament.pk)

    def slot_name(key: str) -> str:
        return named(key, rounds.get(key.split(":")[0]))

    out = []
    for r in rows:
        p, kind = r.payload, r.event_type
        if kind not in HISTORY_KINDS:
            continue
        if kind == "ResultReported":
            text = (_("%(slot)s: result reported by both players: %(result)s") if p.get("reported_by") == "players"
                    else _("%(slot)s: result reported by the director: %(result)s"))
            line = {"text": text % {"slot": slot_name(p["slot"]), "result": result(p)}}
        elif kind == "SlotResultCorrected":
            text = _("%(slot)s: result corrected: %(result)s") % {"slot": slot_name(p["slot"]), "result": result(p)}
            line = {"text": text, "reason": p.get("reason", "")}
        elif kind == "MatchForfeited":
            text = _("%(slot)s: %(loser)s forfeited to %(winner)s (score unknown)") % {
                "slot": slot_name(p["slot"]), "loser": names.get(p["loser"], "?"),
                "winner": names.get(p["winner"], "?")}
            line = {"text": text, "reason": p.get("reason", "")}
        elif kind == "PlayerWithdrew":
            text = _("%(name)s withdrew") % {"name": names.get(p["player_id"], "?")}
            line = {"text": text, "reason": p.get("reason", "")}
        elif kind == "StageClosed":
            line = {"text": _("stage 1 closed by the director: its table is final")}
        elif kind == "StageDrawMade":
            line = {"text": _("the knockout drawn from stage 1's table: %(seeds)s") % {
                "seeds": ", ".join(f"{i}. {names.get(q, '?')}" for i, q in enumerate(p["seeds"], 1))}}
        elif kind == "PlayerReentered":
            line = {"text": _("%(name)s re-entered the knockout (entry %(entry)s) at %(place)s") % {
                "name": names.get(p["player_id"], "?"), "entry": p["entry"], "place": slot_name(p["place"])}}
        elif kind == "ReentryClosed":
            line = {"text": _("re-entry closed by the director; places left open became byes")}
        elif kind == "MatchKept":
            line = {"text": _("%(slot)s: the director kept the match played before a correction") % {
                "slot": slot_name(p["slot"])}}
        elif kind == "MatchUnplayed":
            line = {"text": _("%(slot)s: not played by its round's deadline") % {"slot": slot_name(p["slot"])}}
        elif kind == "SlotMatchVoided":
            line = {"text": _("%(slot)s: match voided") % {"slot": slot_name(p["slot"])}, "reason": p.get("reason", "")}
        elif kind == "SettingsChanged":
            line = {"text": _("the director changed the event's settings")}
        elif kind == "ProofDeclined":
            line = {"text": _("%(slot)s: a match file played on another server declined") % {
                "slot": slot_name(p["slot"])}, "reason": p.get("reason", "")}
        else:
            continue
        out.append({"at": r.recorded_at, "reason": "", **line})
    return out


def published_event_ids(ids: set[int]) -> set[int]:
    """Which of these events are public: what the ratings ask (``settings.PUBLISHED_EVENTS_PROVIDER``) to hide the
    results of hidden events, without importing tournaments."""
    return set(Tournament.objects.filter(pk__in=ids, published=True).values_list("pk", flat=True))


def directs_entrant(director_id: int, player_id: int) -> bool:
    """Whether the player entered an event this user directs (a team's member included): what the house's rights
    ask (``settings.EVENT_ENTRANTS_PROVIDER``) before a director reads a player's fair-play review. Read from the
    events' own streams, not a read model: a player just entered is the director's player at once."""
    for pk in Tournament.objects.filter(director_id=director_id).values_list("pk", flat=True):
        facts = folding.facts_of(pk)
        if player_id in facts.entered or any(player_id in team.get("members", ()) for team in facts.teams.values()):
            return True
    return False


# -- ladders and leagues: read from the fold of the event's stream (a function of the log alone) --------------


def _when(seconds: int | None) -> datetime | None:
    return datetime.fromtimestamp(seconds, UTC) if seconds else None


def ladder_data(tournament: Tournament) -> dict:
    """A ladder's rungs, open challenges (with deadlines) and history, for its page and the API."""
    facts, view = folding.read_only(tournament.pk)  # read, never changed: the view as held, not a copy
    if facts.format != stream.Format.LADDER:
        raise NotLadder(Reason.NOT_A_LADDER)
    board = view.ladder
    ids = set(facts.entered) | {p for ch in facts.challenges.values() for p in (ch.challenger, ch.defender)}
    names = display_names(ids)
    busy = {p for ch in (board.open if board else ()) for p in (ch.challenger, ch.defender)}
    c = facts.config
    return {
        "id": tournament.pk, "name": tournament.name, "version": facts.version,
        "reach": c.get("reach", 3), "on_win": c.get("on_win", "take_place"),
        "challenge_days": c.get("challenge_days", 14), "refused": c.get("refused", "walkover"),
        "unplayed": c.get("unplayed", "walkover"),
        "rungs": [{"rung": r.rank, "player_id": r.player, "name": names.get(r.player, ""), "played": r.played,
                   "wins": r.wins, "losses": r.losses, "challengeable": r.player not in busy}
                  for r in (board.standings if board else ())],
        "open": [{"number": ch.number, "slot": ch.key, "challenger": ch.challenger, "defender": ch.defender,
                  "names": [names.get(ch.challenger, ""), names.get(ch.defender, "")],
                  "issued_at": _when(ch.issued_at), "deadline": _when(ch.deadline),
                  "match_id": (facts.matches.get(ch.key) or {}).get("match_id")}
                 for ch in (board.open if board else ())],
        "history": [_move(m, names) for m in reversed(board.history)] if board else [],
    }


HOW = {"played": "", "walkover": gettext_noop("walkover"), "refused": gettext_noop("challenge refused"),
       "lapsed": gettext_noop("not played in time"), "cancelled": gettext_noop("cancelled"),
       "withdrawal": gettext_noop("withdrawal")}


def _move(m, names: dict) -> dict:
    who, other = names.get(m.player, "?"), names.get(m.opponent, "?")
    if m.kind == "join":
        text = _("%(who)s joined the ladder on rung %(rung)s") % {"who": who, "rung": m.rung_after}
    elif m.kind == "leave":
        text = _("%(who)s left the ladder from rung %(rung)s") % {"who": who, "rung": m.rung_before}
    elif m.winner is None:
        text = _("Challenge %(n)s, %(who)s v %(other)s: cancelled") % {"n": m.number, "who": who, "other": other}
    else:
        won = m.winner == m.player
        if won and m.result is not None and m.result.forfeit:
            beat = _("Challenge %(n)s: %(who)s (rung %(before)s) took rung %(after)s from %(other)s")
        elif won:
            beat = _("Challenge %(n)s: %(who)s (rung %(before)s) beat %(other)s and moved to rung %(after)s")
        else:
            beat = _("Challenge %(n)s: %(other)s kept rung %(rung)s against %(who)s")
        text = beat % {
            "n": m.number, "who": who, "other": other, "before": m.rung_before, "after": m.rung_after,
            "rung": m.opponent_rung_after}
        if HOW.get(m.how):
            text += f" ({_(HOW[m.how])})"
    score = [m.result.winner_points, m.result.loser_points] if m.result and not m.result.forfeit else None
    return {"step": m.step, "kind": m.kind, "number": m.number, "how": m.how, "text": text, "player": m.player,
            "opponent": m.opponent, "winner": m.winner, "rungs": [m.rung_before, m.rung_after], "score": score}


def league_data(tournament: Tournament) -> dict:
    """A league's divisions (tables, promotion and relegation zones) and its rounds' deadlines."""
    facts, view = folding.read_only(tournament.pk)  # read, never changed: the view as held, not a copy
    if facts.format != stream.Format.LEAGUE:
        raise NotLeague(Reason.NOT_A_LEAGUE)
    season = view.league
    ids = set(facts.entered)
    names = display_names(ids)
    c = facts.config
    divisions = []
    for d in (season.divisions if season else ()):
        rows = [{"rank": r.rank, "player_id": r.player, "name": names.get(r.player, ""), "played": r.played,
                 "wins": r.wins, "losses": r.losses, "points_for": r.points_for, "points_against": r.points_against,
                 "zone": "promoted" if r.player in d.promoted else "relegated" if r.player in d.relegated else ""}
                for r in d.standings]
        divisions.append({"number": d.number, "name": bracket_name(f"d{d.number}"), "finished": d.finished,
                          "rows": rows})
    open_by_round: dict[int, int] = {}
    for s in view.slots:
        if s.status == "ready":
            open_by_round[s.round] = open_by_round.get(s.round, 0) + 1
    return {
        "id": tournament.pk, "name": tournament.name, "version": facts.version,
        "previous": facts.league_previous,
        "promote": c.get("promote", 1), "relegate": c.get("relegate", 1), "round_days": c.get("round_days", 7),
        "unplayed": c.get("unplayed", "double_loss"),
        "starts_at": _when(facts.league_clock[0]) if facts.divisions else None, "winner": view.winner,
        "divisions": divisions,
        "rounds": [{"round": d["round"], "deadline": _when(d["deadline"]), "open": open_by_round.get(d["round"], 0)}
                   for d in decider.deadlines(facts)],
    }


# a team event's table, in the order its criteria rank the teams (tournaments/formats/teams.py)
TEAM_TIEBREAKS = (
    ("match_points", gettext_noop("Match points"),
     gettext_noop("2 for a team match won, 1 drawn, 0 lost")),
    ("board_points", gettext_noop("Board points"),
     gettext_noop("the boards won, over every team match")),
    ("head_to_head", gettext_noop("Head to head"),
     gettext_noop("the match points of the team matches among the teams still tied")),
    ("points_difference", gettext_noop("Points difference"),
     gettext_noop("the match points won minus lost, over every board played")),
    ("seed", gettext_noop("Draw order"), gettext_noop("the order of the draw")),
)


def team_tie_rule(boards: int, needed: int) -> str:
    """How a team match is decided, in words: a majority of its boards, and with an even number a draw."""
    rule = _("A team match is won with %(needed)s of its %(boards)s boards.") % {"needed": needed, "boards": boards}
    if boards % 2 == 0:
        rule += " " + _("Boards shared equally once every board is played: a drawn team match (1 match point "
                        "each).")
    return rule


def teams_data(tournament: Tournament) -> dict:
    """A team event's teams, its team matches round by round (each board's match and result) and its table of
    teams with the tie-breaks it is ranked by: derived from the fold of its stream, so a board's corrected result
    re-derives the team match and the table."""
    facts, view = folding.read_only(tournament.pk)  # read, never changed: the view as held, not a copy
    if facts.format not in stream.TEAM_FORMATS:
        raise BadTeam(Reason.NOT_TEAM_EVENT)
    names = display_names(set(facts.entered))
    team_names = {n: t["name"] for n, t in facts.teams.items()}
    config = derive.team_config(facts.config)
    schedule = view.teams

    def board(s) -> dict:
        return {"board": (s.index - 1) % config.boards + 1, "slot": s.key, "players": list(s.players),
                "names": [names.get(p, "") for p in s.players], "status": s.status,
                "winner": s.result.winner if s.result else None,
                "score": [s.result.winner_points, s.result.loser_points] if s.result else None,
                "match_id": (facts.matches.get(s.key) or {}).get("match_id")}

    rounds: dict[int, list] = {}
    for m in schedule.meetings if schedule else ():
        rounds.setdefault(m.round, []).append({
            "index": m.index, "teams": [m.a, m.b], "names": [team_names.get(m.a, ""), team_names.get(m.b, "")],
            "rests": m.b is None, "boards": [board(s) for s in m.slots],
            "board_wins": list(m.match.board_wins) if m.match else [0, 0],
            "decided": bool(m.match and m.match.decided), "winner": m.match.winner if m.match else None,
            "through": m.through, "group": _team_group(m.stage)})
    knockout = sorted({m.round for m in schedule.meetings if m.stage == teams.KNOCKOUT}) if schedule else []

    def round_label(r: int) -> str:
        if r not in knockout:
            return _("Round %(n)s") % {"n": r}
        rounds = bracket_size(len(facts.stage_seeds)).bit_length() - 1
        return _("Stage 2 · Knockout") + " · " + names_of_rounds.round_label("main", knockout.index(r) + 1, rounds)

    def table(rows) -> list[dict]:
        return [{"rank": r.rank, "team": r.team, "name": team_names.get(r.team, ""), "played": r.played,
                 "won": r.won, "drawn": r.drawn, "lost": r.lost, "match_points": r.match_points,
                 "board_points": r.board_points, "points_for": r.points_for, "points_against": r.points_against,
                 "head_to_head": r.tiebreaks["head_to_head"]} for r in rows]
    return {
        "id": tournament.pk, "name": tournament.name, "version": facts.version, "drawn": facts.drawn,
        "boards": config.boards, "reserves": config.reserves, "fixed_order": config.fixed_order,
        "to_win": config.needed, "tie_rule": team_tie_rule(config.boards, config.needed),
        "tiebreaks": [{"key": k, "name": _(n), "description": _(d)} for k, n, d in TEAM_TIEBREAKS],
        "teams": [{"number": n, "name": t["name"], "members": [
            {"player_id": p, "name": names.get(p, ""), "reserve": i >= config.boards}
            for i, p in enumerate(t["members"])]} for n, t in facts.teams.items()],
        "rounds": [{"round": r, "label": round_label(r), "knockout": r in knockout, "matches": matches}
                   for r, matches in sorted(rounds.items())],
        # with groups, every group's table one after another (each ranked in its group), and each group's below
        "standings": table(schedule.standings if schedule else ()),
        "groups": [{"group": g, "name": names_of_rounds.group_name(g), "standings": table(rows)}
                   for g, rows in enumerate(schedule.groups if schedule and len(schedule.groups) > 1 else (), 1)],
        "stage": _team_stage(facts, team_names),
        "winner": schedule.winner if schedule else None,
    }


def _team_group(stage: str) -> str:
    """A team match's group as the pages name it ("Group A"), "" outside groups."""
    return names_of_rounds.group_name(int(stage[1:])) if stage.startswith("g") else ""


def _team_stage(facts, team_names: dict) -> dict | None:
    """A round robin of teams' knockout stage: how many teams qualify, whether the director has closed the round
    robin, and the qualifying teams seeded (the group winners first, then the runners-up…); None without one."""
    if not facts.team_staged:
        return None
    seeds = list(facts.stage_seeds or ())
    return {"qualifiers": facts.config["qualifiers"], "closed": facts.stage_closed is not None,
            "seeds": [{"seed": i, "team": t, "name": team_names.get(t, "")} for i, t in enumerate(seeds, 1)]}


def home_events(today, *, limit: int = 20) -> tuple[list[Tournament], list[Tournament]]:
    """The published events of ``today`` (starting today, or created today without a start date), then the others,
    latest first: the home page shows tonight's events before the past ones."""
    from django.db.models import Q

    published = Tournament.objects.filter(published=True).select_related("club")
    todays = Q(starts_on=today) | Q(starts_on__isnull=True, created_at__date=today)
    return (list(published.filter(todays).order_by("name")),
            list(published.exclude(todays).order_by("-starts_on", "-created_at")[:limit]))


def rounds_per_bracket(tournament_pk: int) -> dict[str, int]:
    """Each bracket's number of rounds (a knockout's rounds are named by it: Final, Semi-final), one query."""
    from django.db.models import Max

    return dict(TournamentSlot.objects.filter(tournament_id=tournament_pk).values("bracket")
                .annotate(n=Max("round")).values_list("bracket", "n"))


def money_data(tournament: Tournament) -> dict:
    """The event's ledger as the ``money_ledger`` projection keeps it, every player named; an event that records
    no money has an empty one (``recorded`` false)."""
    row = TournamentLedger.objects.filter(tournament_id=tournament.pk).first()
    data = dict(row.ledger) if row else {}
    ids = {r["player"] for key in ("shares", "balances", "payouts", "buy_backs") for r in data.get(key, ())
           if "player" in r}
    ids |= {p for lot in data.get("lots", ()) for p in lot["players"]}
    ids |= {p for j in data.get("jackpots", ()) for p in j["buyers"]}
    names = display_names(ids)
    for key in ("shares", "balances", "payouts", "buy_backs"):
        data[key] = [{**r, "name": names.get(r["player"], "") if "player" in r else r["owner"]}
                     for r in data.get(key, ())]
    data["lots"] = [{**lot, "player_names": [names.get(p, "") for p in lot["players"]]} for lot in data.get("lots", ())]
    data["jackpots"] = [{**j, "buyer_names": [names.get(p, "") for p in j["buyers"]]} for j in data.get("jackpots", ())]
    return {"id": tournament.pk, "name": tournament.name, "recorded": row is not None,
            "version": row.version if row else 0, **data}


def winnings_of(player_id: int) -> list[dict]:
    """What a player won in published events that record money, the latest event first: their share of every
    pool, what was paid them and whether the share is final (every flight has its champion)."""
    rows = list(LedgerShare.objects.filter(player_id=player_id, share__gt=0))
    events = {t.pk: t for t in Tournament.objects.filter(pk__in={r.tournament_id for r in rows}, published=True)}
    return [{"tournament_id": r.tournament_id, "event": events[r.tournament_id].name, "share": r.share,
             "paid": r.paid, "currency": r.currency, "final": r.final}
            for r in sorted(rows, key=lambda r: -r.tournament_id) if r.tournament_id in events]
