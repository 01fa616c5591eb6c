"""The tournament's commands: typed, frozen values the decider judges (``tournaments/decider.py``).

Pure Python. The API builds them from one serializer per type (``tournaments/api.py``); scripts, the
admin and the tests may hand :func:`parse` a plain dict. What only the database knows travels in the
command, filled by the service before it decides: who acts (:class:`Actor`), the players' ratings for a
draw by rating, the club's rating ramp for a result, the draw's random seed.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .refusals import BadCommand, BadDrawMethod, BadPairings, BadRound, UnknownCommand

MAX_REASON = 500  # games.limits.MAX_REASON: the same bound as a match's reasons (checked by a test)
DRAW_METHODS = ("random", "rating", "manual", "previous")  # "previous": a league's next season
MAX_TABLE = 999  # a club's room, or a federation's hall


@dataclass(frozen=True)
class Actor:
    """Who sends the command, as the service found them: ``official`` runs this event (its director or an
    official); ``player`` is the actor's own player, if they have one."""

    official: bool = False
    player: int | None = None


@dataclass(frozen=True)
class TournamentCommand:
    type: ClassVar[str] = ""
    director_only: ClassVar[bool] = True
    by: Actor = field(default=Actor(), kw_only=True)


@dataclass(frozen=True)
class Enter(TournamentCommand):
    type: ClassVar[str] = "enter"
    director_only: ClassVar[bool] = False
    player: int


@dataclass(frozen=True)
class CheckIn(TournamentCommand):
    type: ClassVar[str] = "check_in"
    player: int


@dataclass(frozen=True)
class CancelCheckIn(TournamentCommand):
    type: ClassVar[str] = "cancel_check_in"
    player: int


@dataclass(frozen=True)
class Withdraw(TournamentCommand):
    type: ClassVar[str] = "withdraw"
    player: int
    reason: str = ""


@dataclass(frozen=True)
class Draw(TournamentCommand):
    type: ClassVar[str] = "draw"
    method: str = "random"
    seeds: tuple[int, ...] | None = None  # method "manual"
    # filled by the service: (player, rating) of the entrants for "rating"; a secret random seed for "random"
    ratings: tuple[tuple[int, float], ...] = ()
    entropy: int = 0
    previous: int | None = None  # method "previous": the league event whose final tables make the divisions
    # filled by the service: the clock (a league's round deadlines start from it) and, for "previous", that
    # event's divisions, each in final order, division 1 first
    at: int = 0
    previous_divisions: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class PairRound(TournamentCommand):
    type: ClassVar[str] = "pair_round"
    round: int | None = None  # None: the next round
    pairings: tuple[tuple[int, int | None], ...] | None = None  # the director's own (None: by the rules)


@dataclass(frozen=True)
class Forbid(TournamentCommand):
    type: ClassVar[str] = "forbid"
    players: tuple[int, int]


@dataclass(frozen=True)
class ResultCommand(TournamentCommand):
    slot: str
    winner: int
    score: tuple[int, int] | None = None  # (winner's points, loser's points); required, refused when missing
    rating_ramp: str = "fibs"  # filled by the service: the club's new-player ramp


@dataclass(frozen=True)
class ReportResult(ResultCommand):
    type: ClassVar[str] = "report_result"


@dataclass(frozen=True)
class ConfirmResult(ResultCommand):
    type: ClassVar[str] = "confirm_result"
    director_only: ClassVar[bool] = False


@dataclass(frozen=True)
class CorrectResult(ResultCommand):
    type: ClassVar[str] = "correct_result"
    reason: str = ""


@dataclass(frozen=True)
class Forfeit(TournamentCommand):
    """A match decided without being played: named by its ``winner``, or by the player who forfeits (``loser``,
    the absent one; the other wins). One of the two, never both."""

    type: ClassVar[str] = "forfeit"
    slot: str
    winner: int | None = None
    reason: str = "no-show"
    loser: int | None = None


@dataclass(frozen=True)
class KeepMatch(TournamentCommand):
    type: ClassVar[str] = "keep_match"
    slot: str


@dataclass(frozen=True)
class VoidMatch(TournamentCommand):
    type: ClassVar[str] = "void_match"
    slot: str
    reason: str = ""


@dataclass(frozen=True)
class AssignTable(TournamentCommand):
    type: ClassVar[str] = "assign_table"
    slot: str
    table: int


@dataclass(frozen=True)
class SetTableService(TournamentCommand):
    type: ClassVar[str] = "set_table_service"
    table: int
    in_service: bool


@dataclass(frozen=True)
class IssueChallenge(TournamentCommand):
    """A ladder challenge: by the challenger themself, or by the director for them."""

    type: ClassVar[str] = "issue_challenge"
    director_only: ClassVar[bool] = False
    challenger: int
    defender: int
    at: int = 0  # filled by the service: the clock reading (seconds); the deadline runs from it


@dataclass(frozen=True)
class DeclineChallenge(TournamentCommand):
    """The defender refuses a challenge (or the director records their refusal) before its match begins."""

    type: ClassVar[str] = "decline_challenge"
    director_only: ClassVar[bool] = False
    number: int
    reason: str = ""
    at: int = 0


@dataclass(frozen=True)
class ApplyDeadlines(TournamentCommand):
    """Settle what is past its deadline by the event's rules: ladder challenges whose match has not begun,
    league matches of a round past its deadline whose match has not begun. Sent by the director, or by the
    periodic sweep (``tournaments.tasks.sweep_deadlines``) on the system's behalf."""

    type: ClassVar[str] = "apply_deadlines"
    at: int = 0


@dataclass(frozen=True)
class CloseStage(TournamentCommand):
    """Close stage one (its table is final) and draw the knockout of its top ``qualifiers``."""

    type: ClassVar[str] = "close_stage"


@dataclass(frozen=True)
class Reenter(TournamentCommand):
    """A buy-back: the director puts an eliminated player back into the knockout's first round."""

    type: ClassVar[str] = "reenter"
    player: int


@dataclass(frozen=True)
class CloseReentry(TournamentCommand):
    type: ClassVar[str] = "close_reentry"


@dataclass(frozen=True)
class SetRated(TournamentCommand):
    """The whole event (no ``slot``) or one slot's match rated or unrated from now on."""

    type: ClassVar[str] = "set_rated"
    rated: bool
    slot: str = ""


@dataclass(frozen=True)
class Configure(TournamentCommand):
    """The director's new settings, whole (``tournaments.config.checked`` read them first). Not one of the
    API's command types: the settings are sent as an event's, by ``tournaments.services.tournament_configure``."""

    type: ClassVar[str] = "configure"
    settings: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Publish(TournamentCommand):
    """The event published or hidden. Not one of the API's command types: sent by
    ``tournaments.services.tournament_publish``, which makes the event's matches follow."""

    type: ClassVar[str] = "publish"
    published: bool


COMMANDS: dict[str, type[TournamentCommand]] = {
    c.type: c for c in (Enter, CheckIn, Withdraw, Draw, PairRound, Forbid, ReportResult, ConfirmResult, CorrectResult,
                        Forfeit, KeepMatch, VoidMatch, CloseStage, Reenter, CloseReentry, AssignTable,
                        SetTableService, CancelCheckIn, SetRated, IssueChallenge, DeclineChallenge, ApplyDeadlines)
}
CLOCKED = (Draw, IssueChallenge, DeclineChallenge, ApplyDeadlines)  # the service fills their ``at``
COMMAND_TYPES = tuple(COMMANDS)


# -- from a plain dict ---------------------------------------------------------------------


def parse(data: Any) -> TournamentCommand:
    """A command from a JSON object with a ``type`` (and ``expected_version``, ignored here: the service's)."""
    if not isinstance(data, dict):
        raise BadCommand("a command is a JSON object with a 'type'")
    kind = data.get("type")
    cls = COMMANDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise UnknownCommand(f"unknown command type {kind!r}; expected one of {', '.join(COMMANDS)}")
    return _PARSERS[cls](data)


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_id(value) -> bool:
    """A player id: a whole number a bigint column holds (a read model stores it)."""
    return _whole(value) and 0 < value < 2**63


def _player(c: dict, name: str = "player") -> int:
    pid = c.get(name)
    if not is_id(pid):
        raise BadCommand(f"'{name}' is the id of a player")
    return pid


def _slot(c: dict) -> str:
    slot = c.get("slot")
    if not isinstance(slot, str):
        raise BadCommand("'slot' is a slot's key, e.g. \"main:r1:m1\"")
    return slot


def _reason(c: dict, default: str) -> str:
    reason = c.get("reason", default)
    if not isinstance(reason, str):
        return default
    if len(reason) > MAX_REASON:
        raise BadCommand(f"'reason' is at most {MAX_REASON} characters")
    if "\x00" in reason:  # the log cannot store it: refused here, with the field named, as any other bad field
        raise BadCommand("'reason' cannot contain a NUL character")
    return reason


def _winner(c: dict, name: str = "winner"):
    # any value: the decider says whether it is one of the slot's players, with the players named
    winner = c.get(name)
    return winner if _whole(winner) else -1


def _score(c: dict) -> tuple[int, int] | None:
    if "score" not in c:
        return None
    score = c["score"]
    if not (isinstance(score, list) and len(score) == 2 and all(_whole(s) and s >= 0 for s in score)):
        raise BadCommand("'score' is [winner's points, loser's points]")
    return (score[0], score[1])


def _ids(values, what: str) -> tuple[int, ...]:
    if not (isinstance(values, list) and all(is_id(v) for v in values)):
        raise BadCommand(what)
    return tuple(values)


def _draw(c: dict) -> Draw:
    method = c.get("method", "random")
    if method not in DRAW_METHODS:
        raise BadDrawMethod("method is random, rating or manual")
    seeds = None
    if method == "manual":
        seeds = _ids(c.get("seeds"), "'seeds' must list every checked-in player exactly once")
    previous = None
    if method == "previous":
        previous = c.get("previous")
        if not is_id(previous):
            raise BadCommand("'previous' is the id of the league event the new season follows")
    return Draw(method=method, seeds=seeds, previous=previous)


def _pair_round(c: dict) -> PairRound:
    round_no = c.get("round")
    if "round" in c and not _whole(round_no):  # absent: the next round; null or anything else: refused
        raise BadRound("'round' is a round number of this event")
    manual = c.get("pairings")
    if manual is None:
        return PairRound(round=round_no)
    if not isinstance(manual, list):
        raise BadCommand("'pairings' is a list of [player, player] (or [player, null] for a bye)")
    pairs = []
    for pair in manual:
        if not (isinstance(pair, list) and len(pair) == 2 and is_id(pair[0]) and (pair[1] is None or is_id(pair[1]))):
                raise BadPairings("each pairing is [player, player] or [player, null] for a bye")
        pairs.append((pair[0], pair[1]))
    return PairRound(round=round_no, pairings=tuple(pairs))


def _forbid(c: dict) -> Forbid:
    players = c.get("players")
    if not (isinstance(players, list) and len(players) == 2 and all(is_id(p) for p in players)
            and players[0] != players[1]):
        raise BadCommand("'players' are the two players who must not meet")
    return Forbid(players=(players[0], players[1]))


def _table(c: dict) -> int:
    table = c.get("table")
    if not (_whole(table) and 1 <= table <= MAX_TABLE):
        raise BadCommand(f"'table' is a table number from 1 to {MAX_TABLE}")
    return table


def _in_service(c: dict) -> bool:
    value = c.get("in_service")
    if not isinstance(value, bool):
        raise BadCommand("'in_service' is true (the table is back) or false (out of service)")
    return value


def _set_rated(c: dict) -> SetRated:
    rated, slot = c.get("rated"), c.get("slot", "")
    if not isinstance(rated, bool):
        raise BadCommand("'rated' is true or false")
    if not isinstance(slot, str):
        raise BadCommand("'slot' is a slot's key, e.g. \"main:r1:m1\" (none: the whole event)")
    return SetRated(rated=rated, slot=slot)


_PARSERS = {
    Enter: lambda c: Enter(player=_player(c)),
    CheckIn: lambda c: CheckIn(player=_player(c)),
    CancelCheckIn: lambda c: CancelCheckIn(player=_player(c)),
    Withdraw: lambda c: Withdraw(player=_player(c), reason=_reason(c, "")),
    Draw: _draw,
    PairRound: _pair_round,
    Forbid: _forbid,
    ReportResult: lambda c: ReportResult(slot=_slot(c), winner=_winner(c), score=_score(c)),
    ConfirmResult: lambda c: ConfirmResult(slot=_slot(c), winner=_winner(c), score=_score(c)),
    CorrectResult: lambda c: CorrectResult(slot=_slot(c), winner=_winner(c), score=_score(c), reason=_reason(c, "")),
    Forfeit: lambda c: Forfeit(slot=_slot(c), winner=_winner(c) if "winner" in c else None,
                               loser=_winner(c, "loser") if "loser" in c else None, reason=_reason(c, "no-show")),
    KeepMatch: lambda c: KeepMatch(slot=_slot(c)),
    VoidMatch: lambda c: VoidMatch(slot=_slot(c), reason=_reason(c, "")),
    AssignTable: lambda c: AssignTable(slot=_slot(c), table=_table(c)),
    SetTableService: lambda c: SetTableService(table=_table(c), in_service=_in_service(c)),
    IssueChallenge: lambda c: IssueChallenge(challenger=_player(c, "challenger"), defender=_player(c, "defender")),
    DeclineChallenge: lambda c: DeclineChallenge(number=_number(c), reason=_reason(c, "")),
    ApplyDeadlines: lambda c: ApplyDeadlines(),
    CloseStage: lambda c: CloseStage(),
    Reenter: lambda c: Reenter(player=_player(c)),
    CloseReentry: lambda c: CloseReentry(),
    SetRated: _set_rated,
}


def _number(c: dict) -> int:
    number = c.get("number")
    if not is_id(number):
        raise BadCommand("'number' is a challenge's number")
    return number


def with_facts(command: TournamentCommand, **facts) -> TournamentCommand:
    """The command with what the service looked up (never taken from the client)."""
    return dataclasses.replace(command, **facts)
