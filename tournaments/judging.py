"""A tournament stream judged again (``manage.py verify_log``): every fact folded in order, each first checked
against the facts before it by the rules the decider never breaks when it decides.

The fold (``stream.apply``) takes any fact as it comes, as a reader must; an event the decider could not have
decided (a second draw, a player entered twice, a result between a player and themself or someone not in the
event) folds without complaint into facts nobody decided. Re-deciding every command is not possible from the
log alone (a command's inputs, such as the ratings of a draw by rating, are not all in it), so these are the
invariants every decision keeps, whatever its command; the first fact that breaks one is named by position.

Pure Python, like the decider.
"""

from __future__ import annotations

from . import events as ev
from . import stream


class Inconsistent(ValueError):
    """A fact the decider would never have appended after the facts before it."""

    def __init__(self, position: int, message: str):
        super().__init__(message)
        self.position = position


def judge(stream_id: str, rows: list) -> stream.Facts:
    """The stream's facts, each fact checked before it is folded; raises :class:`Inconsistent` at the first
    that does not fit."""
    facts = stream.Facts()
    for row in rows:
        event = stream.event_of(row)
        broken = inconsistency(facts, event, row.version)
        if broken:
            raise Inconsistent(row.global_position, f"{row.event_type} (version {row.version}): {broken}")
        stream.apply(facts, event, row.version)
    return facts


def inconsistency(facts: stream.Facts, e: ev.TournamentEvent, version: int) -> str:
    """Why ``e`` could not follow ``facts`` (empty: it could)."""
    if (version == 1) != isinstance(e, ev.TournamentConfigured):
        return "an event's stream begins with its settings, once"
    active = set(facts.active)
    match e:
        case ev.PlayerEntered(player_id=pid) if pid in active:
            return f"player {pid} is entered already"
        case ev.PlayerWithdrew(player_id=pid) if pid not in active:
            return f"player {pid} is not in the event"
        case ev.DrawMade() if facts.drawn:
            return "the draw is made already"
        case ev.DrawMade(seeds=seeds):
            return _players(seeds, set(facts.entered), "seeded")
        case ev.RoundPaired() if not facts.drawn:
            return "a round paired before the draw"
        case ev.RoundPaired(pairings=pairings):
            return _players([p for pair in pairings for p in pair if p is not None], set(facts.entered), "paired")
        case ev.TeamRoundPaired() if not facts.drawn:
            return "a round of teams paired before the draw"
        case ev.TeamRoundPaired(round=round_no) if round_no != len(facts.team_rounds) + 1:
            return f"round {round_no} of teams paired after {len(facts.team_rounds)} rounds"
        case ev.TeamRoundPaired(pairings=pairings):
            return _teams([t for pair in pairings for t in pair if t is not None], set(facts.teams))
        case ev.SlotResult() | ev.SlotFinished():
            return _result(e, set(facts.entered))
        case ev.ProofFiled() if not facts.drawn:
            return "a match file reported before the draw"
        case ev.ProofFiled(player=pid) if pid not in set(facts.entered):
            return f"player {pid} reported a match file but is not in the event"
        case ev.ProofDeclined(slot=slot, match_id=match_id) if facts.proofs.get(slot, {}).get("match_id") != match_id:
            return f"the match file {match_id} declined in {slot}, where it did not wait"
        case ev.ProofDeclined(reason=reason) if not reason.strip():
            return "a match file declined without a reason"
        case ev.LotAdded(players=players):
            return _players(players, set(facts.entered), "in a lot")
        case ev.LotSold(lot=lot) if lot not in facts.money.lots:
            return f"lot {lot!r} sold but never added"
        case ev.LotBoughtBack(lot=lot):
            return _buy_back(facts, lot)
        case ev.JackpotBought() | ev.JackpotLeft() | ev.JackpotStarted():
            return _jackpot(facts, e)
    return ""


def _teams(paired: list[int], registered: set[int]) -> str:
    if len(set(paired)) != len(paired):
        return "a team paired twice in a round"
    strangers = sorted(set(paired) - registered)
    return f"paired but not registered: teams {strangers}" if strangers else ""


def _jackpot(facts: stream.Facts, e) -> str:
    jackpot = facts.money.jackpots.get(e.jackpot)
    if jackpot is None:
        return f"jackpot {e.jackpot!r} never opened"
    if jackpot.event_id is not None:
        return f"jackpot {e.jackpot!r} has started already"
    if isinstance(e, ev.JackpotBought):
        if e.player_id not in facts.active or e.player_id in jackpot.buyers:
            return f"player {e.player_id} is not in the event, or has a seat of jackpot {e.jackpot!r} already"
        return f"jackpot {e.jackpot!r} is full" if jackpot.full else ""
    if isinstance(e, ev.JackpotLeft):
        return "" if e.player_id in jackpot.buyers else f"player {e.player_id} has no seat in {e.jackpot!r}"
    return "" if jackpot.full else f"jackpot {e.jackpot!r} started before it was full"


def _buy_back(facts: stream.Facts, lot: str) -> str:
    sale = facts.money.sales.get(lot)
    if sale is None or facts.money.lots[lot].field:
        return f"lot {lot!r} bought back, but it is unsold or the field's"
    return f"lot {lot!r} bought back twice" if sale.bought_back else ""


def _players(players, entrants: set, what: str) -> str:
    if len(set(players)) != len(players):
        return f"a player {what} twice"
    strangers = sorted(p for p in players if p not in entrants)
    return f"{what} but not entered: {strangers}" if strangers else ""


def _result(e, entrants: set) -> str:
    if e.winner == e.loser:
        return f"player {e.winner} beat themself"
    strangers = sorted(p for p in (e.winner, e.loser) if p not in entrants)
    if strangers:
        return f"a result for players not entered: {strangers}"
    if not 0 <= e.loser_points <= e.winner_points:
        return f"the winner's {e.winner_points} points against the loser's {e.loser_points}"
    return ""
