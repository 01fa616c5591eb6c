"""Players' records: head-to-head, streaks and the nemesis, read from the ratings projection's results.

The results are the ratings projection's rated units (``RatedMatch``): each result counted once (a match of its
own, or an event's slot through its one result), a voided match out, a corrected result as corrected, a hidden
one (of a hidden event, or a hidden match) out for everyone until it is published, as in the ratings. So these
figures are a function of the log, and the same after ``rebuild_projections``, because the rows they read are.
A result between two entries of one person does not count (as in the ratings).

Who is who: every player id is read through the identity map of every ``PlayersMerged`` in the log
(``players/identity.py``), so a duplicate's results count as its kept player's, and a kept player's page shows them.

Points: the match's recorded final score (the games' read model ``MatchSummary``: played at the board, closed by a
paper result, or set by a director's correction), or the score of the event's paper result or correction of the
slot (the ratings projection keeps it with the slot). A result with no recorded score adds no points.

The nemesis is the opponent one has lost to most; ties go to the opponent one has beaten least, then to the one
who won most recently (the later loss).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q

from games.models import MatchSummary
from players.selectors import display_names, player_identities

from .models import RatedMatch, RatedSlot
from .selectors import _sees_hidden_results, hidden_results


@dataclass(frozen=True)
class Result:
    """One result seen from one player's side."""

    key: str  # the rated unit: a match stream, or an event's slot ``tournament-<pk>:<slot>``
    seq: int  # the log position where it became a result: the order of a player's results
    opponent_id: int
    won: bool
    length: int
    points_for: int
    points_against: int
    match_id: str | None  # a match one can open, if there is one
    tournament_id: int | None
    date: datetime | None = None


@dataclass
class Tally:
    matches: int = 0
    wins: int = 0
    losses: int = 0
    points_won: int = 0
    points_lost: int = 0
    last_loss_seq: int = 0
    last_seq: int = 0

    def add(self, r: Result) -> None:
        self.matches += 1
        self.wins += r.won
        self.losses += not r.won
        self.points_won += r.points_for
        self.points_lost += r.points_against
        self.last_seq = max(self.last_seq, r.seq)
        if not r.won:
            self.last_loss_seq = max(self.last_loss_seq, r.seq)

    def as_dict(self) -> dict:
        return {"matches": self.matches, "wins": self.wins, "losses": self.losses,
                "points_won": self.points_won, "points_lost": self.points_lost}


@dataclass
class Streaks:
    current_kind: str | None = None  # "won" or "lost", None before a first result
    current: int = 0
    longest_winning: int = 0
    longest_losing: int = 0

    def as_dict(self) -> dict:
        return {"current": {"kind": self.current_kind, "length": self.current},
                "longest_winning": self.longest_winning, "longest_losing": self.longest_losing}


def person_of(player_id: int) -> int:
    """The kept player ``player_id`` stands for (itself unless merged into another entry)."""
    return player_identities().of(player_id)


def player_results(player_id: int, *, viewer=None) -> list[Result]:
    """The results of the person ``player_id`` stands for, oldest first; those ``viewer`` may not see left out
    (a hidden event's or match's, as in the rating history)."""
    identities = player_identities()
    person = identities.of(player_id)
    ids = {person} | {d for d, k in identities.merged_into.items() if k == person}
    units = list(RatedMatch.objects.filter(
        Q(player0_id__in=ids) | Q(player1_id__in=ids),
        seq__isnull=False, winner_seat__isnull=False, voided=False, length__gt=0, slot_key="", hidden=False,
    ).order_by("seq"))
    if not _sees_hidden_results(viewer, person):
        hidden = hidden_results({u.key for u in units})
        units = [u for u in units if u.key not in hidden]
    scores, links = _scores(units, identities)
    dates = _dates([u.seq for u in units])
    out = []
    for u in units:
        seats = (identities.of(u.player0_id), identities.of(u.player1_id))
        if seats[0] == seats[1] or person not in seats:
            continue
        side = seats.index(person)
        won = seats[u.winner_seat] == person
        points = scores.get(u.key, {})
        match_id, tournament_id = links[u.key]
        out.append(Result(
            key=u.key, seq=u.seq, opponent_id=seats[1 - side], won=won, length=u.length,
            points_for=points.get(person, 0), points_against=points.get(seats[1 - side], 0),
            match_id=match_id, tournament_id=tournament_id, date=dates.get(u.seq),
        ))
    return out


def _scores(units: list[RatedMatch], identities) -> tuple[dict, dict]:
    """Per unit key: {person: points} from the recorded score (none without one), and (match one can open,
    event id)."""
    slot_keys = [u.key for u in units if ":" in u.key]
    slots = {s.slot_key: s for s in RatedSlot.objects.filter(slot_key__in=slot_keys)}
    match_of = {u.key: (slots[u.key].match_key if u.key in slots else "") if ":" in u.key else u.key for u in units}
    summaries = {m.stream_id: m for m in MatchSummary.objects.filter(stream_id__in=[k for k in match_of.values() if k])}
    out: dict = {}
    links: dict = {}
    for u in units:
        seats = (identities.of(u.player0_id), identities.of(u.player1_id))
        winner, loser = seats[u.winner_seat], seats[1 - u.winner_seat]
        summary = summaries.get(match_of[u.key])
        slot = slots.get(u.key)
        paper = slot and (slot.correction or slot.paper)
        if paper and paper.get("score"):
            out[u.key] = {winner: paper["score"][0], loser: paper["score"][1]}
        elif summary is not None and not summary.voided:
            by_player = {identities.of(summary.player0_id): summary.score0, identities.of(summary.player1_id): summary.score1}
            if set(by_player) == {winner, loser}:
                out[u.key] = by_player
        tournament_id = int(u.key.split(":", 1)[0].rsplit("-", 1)[1]) if ":" in u.key else (
            summary.tournament_id if summary is not None else None)
        link = match_of[u.key] if summary is not None and not summary.voided else None
        links[u.key] = (link, tournament_id)
    return out, links


def _dates(seqs: list[int]) -> dict[int, datetime]:
    from eventlog.models import Event

    return dict(Event.objects.filter(global_position__in=seqs).values_list("global_position", "recorded_at"))


def streaks(results: list[Result]) -> Streaks:
    """Current and longest winning and losing runs over ``results`` (oldest first)."""
    s = Streaks()
    for r in results:
        kind = "won" if r.won else "lost"
        s.current = s.current + 1 if kind == s.current_kind else 1
        s.current_kind = kind
        if r.won:
            s.longest_winning = max(s.longest_winning, s.current)
        else:
            s.longest_losing = max(s.longest_losing, s.current)
    return s


def by_opponent(results: list[Result]) -> dict[int, Tally]:
    tallies: dict[int, Tally] = {}
    for r in results:
        tallies.setdefault(r.opponent_id, Tally()).add(r)
    return tallies


def nemesis(tallies: dict[int, Tally]) -> int | None:
    """The opponent lost to most; ties: the one beaten least, then the latest loss (module docstring)."""
    beaten_by = [(t.losses, -t.wins, t.last_loss_seq, opponent) for opponent, t in tallies.items() if t.losses]
    return max(beaten_by)[3] if beaten_by else None


def opponents(player_id: int, *, viewer=None, results: list[Result] | None = None) -> list[dict]:
    """One row per opponent (most matches first, then the latest): the head-to-head tally from the player's side.
    ``results``: the player's, if read already."""
    tallies = by_opponent(player_results(player_id, viewer=viewer) if results is None else results)
    known = display_names(tallies)
    rows = sorted(tallies.items(), key=lambda kv: (-kv[1].matches, -kv[1].last_seq))
    return [{"opponent_id": o, "opponent": known.get(o, ""), **t.as_dict()} for o, t in rows]


def player_records(player_id: int, *, viewer=None, results: list[Result] | None = None) -> dict:
    """A player's totals, streaks and nemesis (the head-to-head by opponent is ``opponents``, a list that grows).
    ``results``: the player's, if read already."""
    results = player_results(player_id, viewer=viewer) if results is None else results
    tallies = by_opponent(results)
    total = Tally()
    for r in results:
        total.add(r)
    worst = nemesis(tallies)
    record = {"person_id": person_of(player_id), **total.as_dict(), "streaks": streaks(results).as_dict(),
              "nemesis": None}
    if worst is not None:
        record["nemesis"] = {"opponent_id": worst, "opponent": display_names([worst]).get(worst, ""),
                             **tallies[worst].as_dict()}
    return record


def head_to_head(a: int, b: int, *, viewer=None) -> dict:
    """Matches between the persons ``a`` and ``b`` stand for: the tally from ``a``'s side, and the matches (newest
    first, as ``results``)."""
    identities = player_identities()
    pa, pb = identities.of(a), identities.of(b)
    results = [r for r in player_results(pa, viewer=viewer) if r.opponent_id == pb] if pa != pb else []
    tally = Tally()
    for r in results:
        tally.add(r)
    listed = [{"match": r.key, "match_id": r.match_id, "tournament_id": r.tournament_id, "seq": r.seq,
                "date": r.date, "length": r.length, "winner_id": pa if r.won else pb,
                "score": [r.points_for, r.points_against]} for r in reversed(results)]
    return {"player_id": pa, "opponent_id": pb, **tally.as_dict(), "results": listed}
