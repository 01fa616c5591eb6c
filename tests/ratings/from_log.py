"""The ratings recomputed straight from the log: one plain pass over every event, no read model, no batch.

The rule, in words (docs/features.md, ratings/projections.py): a match outside an event slot counts when it ends unless
voided; an event's slot counts once, with its one result as the event reads it (the director's correction,
else the paper result, a forfeit not rated, else the result of its current match unless voided; voiding the
current match voids the paper result between its players too, not a correction), at the log position where the slot
first had a result. Players are the persons they stand for by every merge in the log
(``PlayersMerged``, the players' stream): a merge counts a duplicate's results, past and future, as the kept
player's, and a result between two entries of one person counts for nobody. An unrated event or slot (the
setting ``rated``, then ``RatedSet``: a slot's own setting wins) counts nothing while it is unrated; a change
settles its slots again at the change's position. A hidden result counts nothing while it is hidden (an event's
slot: its stream's last ``VisibilitySet``; a match outside the slots: its registration's ``published``, then
``MatchVisibilityChanged``) and, once published, counts at its own position, as if it had always been public.
"""

from __future__ import annotations

from eventlog.models import Event
from ratings.formula import Rated, rate


def rated_results() -> list[tuple[int, int, int, str]]:
    """(winner, loser, length, ramp) of every rated result, in the order they are rated."""
    alias: dict[int, int] = {}  # every merge in the log, applied to every result at the end
    matches: dict[str, dict] = {}  # stream -> {"players", "length", "ramp", "winner", "at", "voided", "slot"}
    slots: dict[str, dict] = {}  # slot -> {"match", "paper", "correction", "at"}
    rated: dict[str, bool] = {}  # an event's stream -> rated; a slot key -> its own setting
    published: dict[str, bool] = {}  # an event's stream -> its last VisibilitySet

    def slot_result(s: dict, key: str):
        stream = key.split(":", 1)[0]
        if not rated.get(key, rated.get(stream, True)):
            return None
        for paper in (s["correction"], s["paper"]):
            if paper is not None:
                return None if paper["forfeit"] else paper["result"]
        m = matches.get(s["match"])
        if m is None or m["voided"] or m["winner"] is None:
            return None
        w = m["players"][m["winner"]]
        return (w, m["players"][1 - m["winner"]], m["length"], m["ramp"])

    def touch(key: str, position: int):
        s = slots[key]
        if slot_result(s, key) is None:
            s["at"] = None
        elif s["at"] is None:
            s["at"] = position

    for e in Event.objects.order_by("global_position"):
        p = e.payload
        if e.event_type == "PlayersMerged":
            alias = {d: (p["kept"] if k in p["duplicates"] else k) for d, k in alias.items()}
            alias.update(dict.fromkeys(p["duplicates"], p["kept"]))
            continue
        if e.stream_type == "match":
            if e.event_type == "MatchRegistered" and p.get("awaiting_confirmation"):
                continue  # an import not vouched for: counted from its confirmation on
            if e.event_type == "ImportConfirmed" and e.stream_id not in matches:
                winner = p.get("winner") if p.get("finished") else None
                matches[e.stream_id] = {"players": list(p["player_ids"]),
                                        "length": p.get("length", 0), "ramp": p.get("rating_ramp", "fibs"),
                                        "winner": winner, "at": e.global_position if winner is not None else None,
                                        "voided": bool(p.get("voided")), "slot": None,
                                        "hidden": p.get("published", True) is False}
                continue
            if e.event_type == "MatchRegistered":
                matches[e.stream_id] = {"players": list(p["player_ids"]), "length": 0,
                                        "ramp": p.get("rating_ramp", "fibs"), "winner": None, "at": None,
                                        "voided": False, "slot": None, "unrated": p.get("rated", True) is False,
                                        "hidden": p.get("published", True) is False}
                continue
            m = matches.get(e.stream_id)
            if m is None:
                continue
            if e.event_type == "MatchStarted":
                m["length"] = p["length"]
            elif e.event_type == "MatchWon" and m["winner"] is None and not m["voided"]:
                m["winner"], m["at"] = p["winner"], e.global_position
            elif e.event_type == "ResultCorrected":
                m["winner"], m["at"] = p["winner"], m["at"] or e.global_position
            elif e.event_type == "MatchVoided":
                m["voided"] = True
                if m["slot"]:  # the slot's current match: the paper result between its players is void too
                    s, players = slots[m["slot"]], {alias.get(x, x) for x in m["players"]}
                    if s["paper"] is not None and {alias.get(x, x) for x in s["paper"]["result"][:2]} == players:
                        s["paper"] = None
            elif e.event_type == "MatchRatedSet":  # a casual match's own; a slot's match is rated as its event says
                m["unrated"] = not p["rated"]
                continue
            elif e.event_type == "MatchVisibilityChanged":  # likewise: a slot's match is shown as its event says
                m["hidden"] = not p["published"]
                continue
            else:
                continue
            if m["slot"]:
                touch(m["slot"], e.global_position)
        elif e.stream_type == "tournament" and e.event_type == "TournamentConfigured":
            rated[e.stream_id] = p.get("rated", True) is not False
        elif e.stream_type == "tournament" and e.event_type == "VisibilitySet":
            published[e.stream_id] = p["published"]  # the results keep their positions: in or out, not moved
        elif e.stream_type == "tournament" and e.event_type == "RatedSet":
            key = f"{e.stream_id}:{p['slot']}" if p.get("slot") else e.stream_id
            rated[key] = p["rated"]
            for slot_key in [k for k in slots if k == key or k.startswith(f"{key}:")]:
                touch(slot_key, e.global_position)
        elif e.stream_type == "tournament" and "slot" in p:
            key = f"{e.stream_id}:{p['slot']}"
            s = slots.setdefault(key, {"match": None, "paper": None, "correction": None, "at": None})
            paper = {"result": (p.get("winner"), p.get("loser"), p.get("length", 0), p.get("rating_ramp", "fibs")),
                     "forfeit": e.event_type == "MatchForfeited"}
            if e.event_type == "MatchCreated":
                if s["match"] in matches:
                    matches[s["match"]]["slot"] = None
                s["match"] = p["match_id"]
                matches[p["match_id"]]["slot"] = key
            elif e.event_type in ("ResultReported", "MatchForfeited"):
                s["paper"] = paper
            elif e.event_type in ("ResultCorrected", "SlotResultCorrected"):  # its name in schema 1, and today's
                s["correction"] = paper
            else:
                continue
            touch(key, e.global_position)

    units = []
    for stream, m in matches.items():
        if m["slot"] is None and not m["voided"] and m["winner"] is not None and not m.get("unrated") \
                and not m["hidden"]:
            w = m["players"][m["winner"]]
            units.append((m["at"], stream, (w, m["players"][1 - m["winner"]], m["length"], m["ramp"])))
    for key, s in slots.items():
        result = slot_result(s, key)
        if result is not None and published.get(key.split(":", 1)[0], True):
            units.append((s["at"], key, result))
    # in log order; units rated at one position (the slots an event's RatedSet rates again) by key
    persons = [(alias.get(w, w), alias.get(l, l), n, ramp) for _, _, (w, l, n, ramp) in sorted(units)]
    return [r for r in persons if r[2] > 0 and r[0] != r[1]]


def recomputed() -> dict[int, tuple[float, int, int]]:
    """player -> (rating, experience, matches), from a straight pass over :func:`rated_results`."""
    ratings: dict[int, Rated] = {}
    played: dict[int, int] = {}
    for winner, loser, length, ramp in rated_results():
        ratings[winner], ratings[loser] = rate(ratings.get(winner, Rated()), ratings.get(loser, Rated()), length, ramp)
        played[winner], played[loser] = played.get(winner, 0) + 1, played.get(loser, 0) + 1
    return {p: (r.rating, r.experience, played[p]) for p, r in ratings.items()}


def live_ratings() -> dict[int, tuple[float, int, int]]:
    from ratings.models import PlayerRating

    return {r.player_id: (r.rating, r.experience, r.matches) for r in PlayerRating.objects.all()}


def history() -> dict[int, list[tuple]]:
    """Each player's rating history as stored: (before, after, won, opponent) in order."""
    from ratings.models import RatingChange

    out: dict[int, list[tuple]] = {}
    for c in RatingChange.objects.order_by("player_id", "seq"):
        out.setdefault(c.player_id, []).append((c.rating_before, c.rating_after, c.won, c.opponent_id))
    return out
