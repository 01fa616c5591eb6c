"""A tournament's structure, derived from its stream's facts alone.

Pure: the formats library does the structure; this module turns recorded facts
(its matches' results included, as the process manager recorded them in the
stream) into its inputs and its output into what directors and players see
(slots with their matches, standings, matches to create, matches flagged after
a correction).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field

from published import slots
from tournaments.formats import double_elimination, ladder, league, places, round_robin, single_elimination, swiss
from tournaments.formats import teams
from tournaments.formats.core import READY, Lengths, Pairing, Result
from tournaments.formats.standings import standings as table

from .stream import TEAM_FORMATS, Facts, Format, MatchOutcome, PaperResult


@dataclass
class View:
    slots: list = field(default_factory=list)
    standings: list = field(default_factory=list)  # every flight's table, the event's (main) flight first
    flights: dict = field(default_factory=dict)  # flight ("" for one table) -> its table
    champions: dict = field(default_factory=dict)
    winner: int | None = None
    flagged: list[dict] = field(default_factory=list)
    to_create: list = field(default_factory=list)  # ready slots without a live match
    to_close: list = field(default_factory=list)  # (slot, match id): decided slots whose match is still open
    awaiting_draw: tuple = ()
    ladder: ladder.Ladder | None = None  # a ladder's rungs, open challenges and history
    league: league.League | None = None  # a league's divisions, with who goes up and down
    teams: teams.Schedule | None = None  # a team event's team matches and its table of teams


def lengths(spec: dict | None, fallback: int = 7) -> Lengths:
    spec = spec or {}
    return Lengths(
        default=spec.get("default", fallback),
        rounds={int(k): v for k, v in spec.get("rounds", {}).items()},
        final=spec.get("final"),
    )


def results_of(facts: Facts) -> tuple[dict[str, Result], dict[str, Result]]:
    """Per slot: (results as corrected, results as first recorded), each the slot's one result by the published
    rule (``published/slots.py``), the second without the director's corrections."""
    played: dict[str, Result] = {}
    for slot, link in facts.matches.items():
        outcome = facts.outcomes.get(link["match_id"])
        if outcome and not outcome.voided and outcome.winner is not None:
            played[slot] = _from_match(outcome)
    decided = {slot: _from_paper(paper) for slot, paper in facts.paper.items()}
    corrections = {slot: _from_paper(paper) for slot, paper in facts.corrections.items()}
    first: dict[str, Result] = {}
    corrected: dict[str, Result] = {}
    for slot in {**played, **decided, **corrections}:  # in the order each slot first had a result
        if (result := slots.counted(None, decided.get(slot), played.get(slot))) is not None:
            first[slot] = result
        corrected[slot] = slots.counted(corrections.get(slot), decided.get(slot), played.get(slot))
    return corrected, first


def derive(facts: Facts, *, tables: bool = True) -> View:
    """The event's slots, tables and links. ``tables=False``: a Swiss's table is left out (its standings empty,
    no winner named): a command that judges one slot need not rank every player of a big field."""
    if not facts.drawn:
        return View()
    corrected, first = results_of(facts)
    view = _structure(facts, corrected, tables)
    if facts.kept and not _kept_hold(facts, view):
        # a kept match stands: the corrections upstream of it stop steering the bracket
        for slot in reversed(list(facts.corrections)):
            trial = dict(corrected)
            if slot in first:
                trial[slot] = first[slot]
            else:
                trial.pop(slot, None)
            attempt = _structure(facts, trial, tables)
            if _kept_hold(facts, attempt):
                corrected, view = trial, attempt
                break
    _links(facts, view)
    return view


def slot_of(facts: Facts, key: str):
    """One slot as :func:`derive` gives it (None: no such slot). A Swiss slot is its round's pairing, its length and
    its one result, so it is computed alone: a judgement about one slot of a field of a thousand costs the same as
    in a field of sixteen. Other formats' slots depend on the slots before them: derived with the event's."""
    if facts.drawn and facts.format == Format.SWISS and not facts.kept and (place := swiss.parse_key(key)):
        round_no, table_no = place
        if round_no > len(facts.rounds) or table_no > len(facts.rounds[round_no - 1]):
            return None
        a, b = facts.rounds[round_no - 1][table_no - 1]
        result = None if b is None else _one_result(facts, key)
        return swiss.slot_of(round_no, table_no, Pairing(a, b, result),
                             lengths(facts.config.get("lengths", {}).get("rounds")))
    return next((s for s in derive(facts, tables=False).slots if s.key == key), None)


def _one_result(facts: Facts, key: str) -> Result | None:
    """:func:`results_of`'s corrected result of one slot."""
    link = facts.matches.get(key)
    outcome = facts.outcomes.get(link["match_id"]) if link else None
    played = _from_match(outcome) if outcome and not outcome.voided and outcome.winner is not None else None
    paper, correction = facts.paper.get(key), facts.corrections.get(key)
    return slots.counted(None if correction is None else _from_paper(correction),
                         None if paper is None else _from_paper(paper), played)


def knockout_config(facts: Facts) -> single_elimination.Config:
    """A single elimination's settings: the event's own, or a staged event's knockout (stage two)."""
    c = facts.config
    spec = c.get("reentry")
    reentry = None if spec is None else single_elimination.Reentry(
        until_round=spec["until_round"], times=spec["times"],
        entries=tuple(facts.reentries), closed=facts.reentry_closed)
    return single_elimination.Config(
        lengths=lengths(c.get("lengths", {}).get("main")),
        withdrawn=frozenset(facts.withdrawn),
        consolation=lengths(c.get("lengths", {}).get("consolation")) if c.get("consolation") else None,
        consolation_feeds=c.get("consolation_feeds", 1),
        last_chance=lengths(c.get("lengths", {}).get("last_chance")) if c.get("last_chance") else None,
        reentry=reentry,
    )


def knockout_seeds(facts: Facts) -> list[int] | None:
    """Who the knockout was drawn with: the event's draw, or stage two's."""
    return facts.stage_seeds if facts.staged else facts.seeds


def _structure(facts: Facts, results: dict[str, Result], tables: bool = True) -> View:
    view = _first_stage(facts, results, tables or facts.staged)  # stage two is drawn from stage one's table
    if not facts.staged:
        return view
    # stage one's table is a flight of its own, named by its slots' bracket (or one per group); the event's
    # winner is the knockout's
    if "" in view.flights:
        view.flights = {"swiss" if facts.format == Format.SWISS else "rr": view.flights[""]}
    view.winner = None
    if facts.stage_seeds is None:
        return view
    bracket = single_elimination.derive(facts.stage_seeds, results, knockout_config(facts))
    ko = _from_bracket(facts, bracket, results, seeds=facts.stage_seeds)
    ko.champions = {**view.champions, **ko.champions}
    ko.slots = view.slots + ko.slots
    ko.flights = {**view.flights, **ko.flights}
    ko.standings = [r for rows in ko.flights.values() for r in rows]
    return ko


def qualifying_order(facts: Facts, view: View) -> list[int]:
    """Stage one's players in the order they qualify for the knockout: the table's; with groups, the group
    winners first, then the runners-up… (``round_robin.group_order``)."""
    tables = [rows for flight, rows in view.flights.items() if flight.startswith("group")]
    if tables:
        return round_robin.group_order(tables, frozenset(facts.withdrawn))
    first = "swiss" if facts.format == Format.SWISS else "rr"
    return [r.player for r in view.flights[first]]


def _first_stage(facts: Facts, results: dict[str, Result], tables: bool = True) -> View:
    c = facts.config
    withdrawn = frozenset(facts.withdrawn)
    fmt = facts.format
    if fmt == Format.SINGLE_ELIMINATION:
        bracket = single_elimination.derive(facts.seeds, results, knockout_config(facts))
        return _from_bracket(facts, bracket, results)
    if fmt == Format.DOUBLE_ELIMINATION:
        spec = c.get("lengths", {})
        config = double_elimination.Config(
            winners=lengths(spec.get("winners")), losers=lengths(spec.get("losers")),
            grand_final=lengths(spec.get("grand_final")), reset=c.get("reset", True), withdrawn=withdrawn,
        )
        return _from_bracket(facts, double_elimination.derive(facts.seeds, results, config), results)
    if fmt == Format.ROUND_ROBIN:
        config = round_robin.Config(
            cycles=c.get("cycles", 1), lengths=lengths(c.get("lengths", {}).get("rounds")), withdrawn=withdrawn,
            tiebreaks=tuple(c.get("tiebreaks", ())),
        )
        if c.get("groups", 1) > 1:  # each group its own round robin and its own table
            view = View()
            for g, players in enumerate(round_robin.groups(facts.seeds, c["groups"]), 1):
                schedule = round_robin.derive(players, results, dataclasses.replace(config, group=g))
                view.slots += schedule.slots
                view.flights[f"group{g}"] = list(schedule.standings)
                view.champions[f"group{g}"] = schedule.winner
            view.standings = [r for rows in view.flights.values() for r in rows]
            return view
        schedule = round_robin.derive(facts.seeds, results, config)
        rows = list(schedule.standings)
        return View(slots=list(schedule.slots), standings=rows, flights={"": rows}, winner=schedule.winner)
    if fmt == Format.SWISS:
        history = swiss_history(facts, results)
        slots = swiss.slots(history, lengths(c.get("lengths", {}).get("rounds")))
        if not tables:
            return View(slots=slots)
        seeded = set(facts.seeds)  # a set: a big field's thousand entries each looked up in its thousand seeds
        players = facts.seeds + [p for p in facts.entered if p not in seeded]
        start = {p: float(c.get("late_entry_points", 0)) for p, r in facts.entered_round.items() if r > 1}
        rows = table(players, history, tuple(c.get("tiebreaks", ())), start_points=start, withdrawn=withdrawn)
        done = len(history) == c.get("rounds", 0) and all(s.result or s.bye for s in slots)
        return View(slots=slots, standings=list(rows), flights={"": list(rows)},
                    winner=rows[0].player if done and rows else None)
    if fmt == Format.LADDER:
        board = ladder.derive(facts.seeds, list(facts.challenges.values()), facts.ladder_log, results,
                              ladder_config(c))
        rows = list(board.standings)
        return View(slots=list(board.slots), standings=rows, flights={"": rows}, ladder=board)
    if fmt == Format.LEAGUE:
        season = league.derive(facts.divisions, results, frozenset(facts.unplayed), league_config(c, withdrawn))
        flights = {league.prefix(d.number): list(d.standings) for d in season.divisions}
        champions = {league.prefix(d.number): d.standings[0].player if d.finished and d.standings else None
                     for d in season.divisions}
        return View(slots=list(season.slots), standings=[r for rows in flights.values() for r in rows],
                    flights=flights, champions=champions, winner=season.winner, league=season)
    if fmt in TEAM_FORMATS:
        if fmt == Format.TEAM_SWISS:
            schedule = teams.derive_swiss(drawn_teams(facts), results, team_config(c), c["rounds"],
                                          lengths(c.get("lengths", {}).get("rounds")), facts.lineups,
                                          facts.team_rounds)
        elif fmt == Format.TEAM_KNOCKOUT:
            schedule = teams.derive_knockout(drawn_teams(facts), results, team_config(c),
                                             lengths(c.get("lengths", {}).get("rounds")), facts.lineups)
        elif c.get("groups", 1) > 1 or facts.team_staged:  # groups, and the knockout of the teams that qualify
            spec = c.get("lengths", {})
            schedule = teams.derive_groups(drawn_teams(facts), results, team_config(c), c.get("groups", 1),
                                           lengths(spec.get("rounds")), facts.lineups, facts.stage_seeds,
                                           lengths(spec["main"]) if "main" in spec else None)
        else:
            schedule = teams.derive(drawn_teams(facts), results, team_config(c),
                                    lengths(c.get("lengths", {}).get("rounds")), facts.lineups)
        # each player's own boards, as a round robin's table (the players' pages, the seasons' finishes)
        rounds = [[Pairing(s.players[0], s.players[1], s.result) for s in schedule.slots if s.round == r]
                  for r in sorted({s.round for s in schedule.slots})]
        rows = list(table(list(facts.seeds), rounds, (), bye_is_win=False))
        return View(slots=list(schedule.slots), standings=rows, flights={"": rows}, teams=schedule)
    raise ValueError(f"unknown format {fmt!r}")


def team_qualifying_order(view: View) -> list[int]:
    """A round robin of teams' teams in the order they qualify for its knockout: with groups, the group winners
    first, then the runners-up… (``teams.qualifying_order``); else the table's."""
    schedule = view.teams
    return teams.qualifying_order(schedule.groups or (schedule.standings,))


def team_config(c: dict) -> teams.Config:
    return teams.Config(boards=c.get("boards", 3), reserves=c.get("reserves", 0),
                        fixed_order=c.get("fixed_order", True))


def drawn_teams(facts: Facts) -> list[teams.Team]:
    """A team event's teams in the order of its draw (the draw lists their members, team by team)."""
    seed = {p: i for i, p in enumerate(facts.seeds or ())}
    drawn = [teams.Team(n, tuple(t["members"])) for n, t in facts.teams.items() if t["members"][0] in seed]
    return sorted(drawn, key=lambda t: seed[t.members[0]])


def ladder_config(c: dict) -> ladder.Config:
    return ladder.Config(reach=c.get("reach", 3), on_win=c.get("on_win", ladder.TAKE_PLACE),
                         length=lengths(c.get("lengths", {}).get("rounds")).default)


def league_config(c: dict, withdrawn: frozenset[int] = frozenset()) -> league.Config:
    return league.Config(
        cycles=c.get("cycles", 1), lengths=lengths(c.get("lengths", {}).get("rounds")), withdrawn=withdrawn,
        tiebreaks=tuple(c.get("tiebreaks", ())), unplayed=c.get("unplayed", league.DOUBLE_LOSS),
        promote=c.get("promote", 1), relegate=c.get("relegate", 1))


def swiss_history(facts: Facts, results: dict[str, Result]) -> list[list[Pairing]]:
    history = []
    for r, pairs in enumerate(facts.rounds, 1):
        history.append(
            [Pairing(a, b, results.get(swiss.table_key(r, t)) if b is not None else None) for t, (a, b) in enumerate(pairs, 1)]
        )
    return history


FLIGHTS = ("main", "consolation", "last_chance")  # a single elimination's flights, the event's own first


def _from_bracket(facts: Facts, bracket, results, seeds: list[int] | None = None) -> View:
    """Standings per flight: Main, Consolation and Last Chance are separate competitions, each with its winner
    first; a double elimination is one competition (its winners', losers' and final brackets together).
    In a flight, players rank by how far they went (the champion, then the round they last played), and players
    knocked out in the same round share the place (3=, 5=: ``formats/places.py``); a withdrawn player ranks
    after every player who went as far and played it out (they were still in when the withdrawn one left), so a
    withdrawal never places a player above them. Within a shared place the table lists them by wins, then
    seed: an order to read, not a place."""
    seed = {p: i for i, p in enumerate(seeds or facts.seeds)}
    flights: dict[str, list] = {}
    if facts.format != Format.DOUBLE_ELIMINATION:
        groups = {f: [s for s in bracket.slots if s.bracket == f] for f in FLIGHTS}
        champions = {f: bracket.champions.get(f) for f in FLIGHTS}
    else:
        groups, champions = {"": list(bracket.slots)}, {"": bracket.winner}
    for flight, slots in groups.items():
        players = sorted({p for s in slots for p in s.players if p is not None}, key=lambda p: seed.get(p, len(seed)))
        if not players:
            continue
        done = [s for s in slots if s.result is not None]
        rows = table(players, [[Pairing(s.result.winner, s.result.loser, s.result) for s in done]], ())
        champion = champions.get(flight) if isinstance(champions.get(flight), int) else None
        stage = places.by_round
        if facts.format == Format.DOUBLE_ELIMINATION:
            stage = double_elimination.stage(max((s.round for s in slots if s.bracket == double_elimination.LOSERS),
                                                 default=0))
        key = places.place_keys(slots, champion, stage=stage, withdrawn=facts.withdrawn)
        rows.sort(key=lambda r: (key[r.player], -r.wins, r.losses, seed.get(r.player, 0)))
        ranks = places.shared_places([key[r.player] for r in rows])
        holders = Counter(ranks)
        flights[flight] = [dataclasses.replace(r, rank=rank, shared=holders[rank] > 1)
                           for r, rank in zip(rows, ranks, strict=True)]
    return View(
        slots=list(bracket.slots), standings=[r for rows in flights.values() for r in rows], flights=flights,
        champions=dict(bracket.champions), winner=bracket.winner, awaiting_draw=tuple(bracket.awaiting_draw),
    )


def _links(facts: Facts, view: View) -> None:
    """Which ready slots still need a match, and which live matches no longer fit their slot."""
    outcomes = facts.outcomes
    by_key = {s.key: s for s in view.slots}
    for key, link in facts.matches.items():
        slot = by_key.get(key)
        outcome = outcomes.get(link["match_id"])
        if outcome is None or outcome.voided or key in facts.kept:
            continue
        expected = set(slot.players) if slot is not None else set()
        if set(link["players"]) != expected:
            view.flagged.append(
                {"slot": key, "match_id": link["match_id"], "match_players": list(link["players"]),
                 "slot_players": [p for p in (slot.players if slot else ()) if p is not None],
                 "started": outcome.started, "finished": outcome.winner is not None}
            )
    flagged = {f["slot"] for f in view.flagged}
    for slot in view.slots:  # one slot, one result: a slot decided otherwise (a withdrawal) ends its open match
        link = facts.matches.get(slot.key)
        outcome = outcomes.get(link["match_id"]) if link else None
        if (slot.result is not None and outcome is not None and not outcome.voided and outcome.winner is None
                and set(link["players"]) == set(slot.players)):
            view.to_close.append((slot, link["match_id"]))
    for slot in view.slots:
        if slot.status != READY or slot.key in flagged:
            continue
        link = facts.matches.get(slot.key)
        live = link is not None and not outcomes.get(link["match_id"], MatchOutcome("", (0, 0), voided=True)).voided
        if not live and slot.key not in facts.paper:
            view.to_create.append(slot)


def _kept_hold(facts: Facts, view: View) -> bool:
    by_key = {s.key: s for s in view.slots}
    for key, match_id in facts.kept.items():
        slot = by_key.get(key)
        link = facts.matches.get(key)
        if slot is None or link is None or set(link["players"]) != set(slot.players):
            return False
    return True


def _from_match(outcome: MatchOutcome) -> Result:
    winner = outcome.winner
    loser = next(p for p in outcome.players if p != winner)
    return Result(winner, loser, outcome.score[0], outcome.score[1])


def _from_paper(paper: PaperResult) -> Result:
    return Result(paper.winner, paper.loser, paper.winner_points, paper.loser_points, paper.forfeit)
