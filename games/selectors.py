"""Reads: a match's state as clients see it, and lists from the read model."""

from __future__ import annotations

from django.utils.translation import gettext as _

from apikit.refusals import refusal_text

from games.clocks import clock_data
from games.engine.board import BAR, OFF
from games.engine.match import DOUBLED, MOVE
from games.engine.state_ids import position_id_of
from games.limits import gnubg_match_id, xgid

from .models import GameSummary, MatchSummary
from .streams import MatchRecord


def match_state_data(record: MatchRecord) -> dict:
    """The live state of a match, folded from its stream."""
    s = record.state
    board0 = s.board_of(0)
    plays = s.legal_plays() if s.phase == MOVE else []
    return {
        "id": record.stream_id,
        "version": record.version,
        "players": [
            {"seat": i, "player_id": record.player_ids[i], "name": s.players[i],
             "partner_id": record.partner_ids[i] if record.partner_ids else None} for i in (0, 1)
        ],
        "tournament_id": record.tournament_id,
        "length": s.length,
        "options": _options(s),
        "score": list(record.score),
        "game": s.game,
        "phase": s.phase,
        "turn": s.turn,
        "dice": list(s.dice) if s.dice and s.phase == MOVE else None,
        "cube": {"value": s.cube, "owner": s.cube_owner},
        "crawford": s.crawford,
        "crawford_games": list(s.crawford_games),
        "resignation": {"player": s.resignation[0], "kind": s.resignation[1]} if s.resignation else None,
        # the game last won: the recording screen says who won it while the next one waits for its opening roll
        "last_game": ({"game": s.last_game.game, "winner": s.last_game.winner, "points": s.last_game.points,
                       "kind": s.last_game.kind, "cube": s.last_game.cube, "reason": s.last_game.reason}
                      if s.last_game else None),
        "position_id": position_id_of(s),
        "match_id": gnubg_match_id(s),  # None where gnubg cannot write one
        "xgid": xgid(s),
        "pips": list(s.pip_counts()),
        "board": {
            # player 0's numbering: positive = player 0's checkers, negative = player 1's
            "points": board0.signed_points(),
            "bar": [board0.mine[BAR], board0.theirs[BAR]],
            "off": [board0.mine[OFF], board0.theirs[OFF]],
        },
        "legal_moves": [str(p) for p in plays],
        # each legal play's resulting position, so the recording screen can tell which taps still lead to one
        "legal_positions": [_position_key(p.position) for p in plays],
        "may_double": s.may_double(s.turn),  # no dead cube, no Crawford game: the recording screen's button follows
        "answerer": s.answerer if s.phase == DOUBLED else None,  # after a beaver the doubler answers
        "import_warnings": list(record.import_warnings),
        "dice_source": record.dice_source,
        "awaiting_confirmation": record.awaiting_confirmation,
        "finished": record.finished,
        "winner": record.winner,
        "voided": record.voided,
        "over_because": refusal_text(over) if (over := record.why_over()) else None,
        "closed": (
            {"how": record.closed.how, "winner": record.closed.winner,
             "score": list(record.closed.score) if record.closed.score else None,
             "summary": refusal_text(record.closed.said(s.players))}
            if record.closed
            else None
        ),
        "correction": (
            {"winner": record.correction.winner, "score": list(record.correction.score), "reason": record.correction.reason}
            if record.correction
            else None
        ),
        "clock": clock_data(record),
        "clock_rule": record.clock_rule,  # its round's: required, allowed (with its preset) or none; null: any clock
        "online": record.online,  # played online (games/online.py): its disconnect clock and start deadline
    }


def _position_key(position) -> str:
    """The mover's 26 counts then the opponent's (index 0 off, 25 the bar), one base-36 digit each.

    >>> from games.engine.board import Position
    >>> _position_key(Position.start())[:26]
    '00000050300005000000000020'
    """
    # a translation of the counts' bytes: a play's key costs ~1.6 µs, where joining 52 digits cost ~7 (an answer
    # after a roll carries one per legal play)
    return bytes(position.mine + position.theirs).translate(_BASE36).decode("ascii")


_BASE36 = bytes.maketrans(bytes(range(36)), b"0123456789abcdefghijklmnopqrstuvwxyz")


def _options(s) -> dict:
    o = s.options
    if o is None:
        return {}
    return {
        "crawford": o.crawford,
        "jacoby": o.jacoby,
        "beavers": o.beavers,
        "raccoons": o.raccoons,
        "automatic_doubles": o.automatic_doubles,
        "cube_limit": o.cube_limit,
    }


def match_summaries(*, tournament_id: int | None = None, published_only: bool = True):
    rows = MatchSummary.objects.all()
    if published_only:
        rows = rows.filter(published=True)
    if tournament_id is not None:
        rows = rows.filter(tournament_id=tournament_id)
    return rows


GAMES_AROUND = 10  # the viewer's table of games: this many either side of the game shown


def game_summaries(stream_id: str, *, around: int | None = None) -> list[dict]:
    """Each game's row; with ``around``, only the games near that one (a long session's page stays small)."""
    rows = GameSummary.objects.filter(stream_id=stream_id)
    if around is not None:
        rows = rows.filter(game__gte=around - GAMES_AROUND, game__lte=around + GAMES_AROUND)
    return list(
        rows
        .order_by("game")
        .values("game", "score0_before", "score1_before", "crawford", "post_crawford", "finished", "winner", "points",
                "kind", "reason")
    )


def _roll(p: dict) -> str:
    return f"{p['dice'][0]}-{p['dice'][1]}"


# each recorded event in words of the reader's language (the request's): the cube's answers as a player says them
# ("accepte", "passe" in French), never the commands' names
_DESCRIBE = {
    "GameStarted": lambda p, n: (_("entered the opening roll %(roll)s") if p.get("source") == "physical"
                                 else _("rolled the opening roll %(roll)s")) % {"roll": _roll(p)},
    "OpeningRollTied": lambda p, n: _("rolled a tied opening (%(die)s-%(die)s)") % {"die": p["die"]},
    "DiceRolled": lambda p, n: (_("entered %(roll)s for %(name)s") if p.get("source") == "physical"
                                else _("rolled %(roll)s for %(name)s")) % {"roll": _roll(p), "name": n[p["player"]]},
    "CheckersMoved": lambda p, n: _("played %(move)s for %(name)s") % {"move": p["move"], "name": n[p["player"]]},
    "CannotMove": lambda p, n: _("recorded that %(name)s cannot move") % {"name": n[p["player"]]},
    "DoubleOffered": lambda p, n: _("recorded %(name)s's double to %(value)s") % {"name": n[p["player"]],
                                                                                   "value": p["cube"]},
    "DoubleTaken": lambda p, n: _("recorded %(name)s's take") % {"name": n[p["player"]]},
    "DoubleDropped": lambda p, n: _("recorded %(name)s's drop") % {"name": n[p["player"]]},
    "Beavered": lambda p, n: _("recorded %(name)s's beaver") % {"name": n[p["player"]]},
    "Raccooned": lambda p, n: _("recorded %(name)s's raccoon") % {"name": n[p["player"]]},
    "ResignationOffered": lambda p, n: _("recorded %(name)s's resignation (%(kind)s)") % {
        "name": n[p["player"]], "kind": _resignation(p["kind"])},
    "ResignationAccepted": lambda p, n: _("recorded that %(name)s accepted the resignation") % {"name": n[p["player"]]},
    "ResignationDeclined": lambda p, n: _("recorded that %(name)s declined the resignation") % {"name": n[p["player"]]},
    "MatchVoided": lambda p, n: _("the director voided the match"),
    "ResultCorrected": lambda p, n: _("the director set the match's result"),
    "MatchClosed": lambda p, n: _("the match's result was recorded off the board"),
}


def _resignation(kind: str) -> str:
    """What a resignation gives, in the reader's words."""
    return {"single": _("single"), "gammon": _("gammon"), "backgammon": _("backgammon")}.get(kind, kind)


def what_happened(rows, names: tuple[str, str], most: int = 3) -> str:
    """The recorded actions among ``rows`` in words, e.g. "entered 5-3 for Ann, played 13/8 13/10 for Ann"."""
    said = [_DESCRIBE[r.event_type](r.payload, names) for r in rows if r.event_type in _DESCRIBE]
    if len(said) > most:
        said = said[:most] + [_("%(n)s more") % {"n": len(said) - most}]
    return ", ".join(said) or _("recorded something")


def stale_answer(record: MatchRecord, rows) -> dict:
    """What a tablet that was behind is told: what the other tablet recorded meanwhile, and the state now."""
    state = match_state_data(record)
    names = tuple(p["name"] for p in state["players"])
    return {
        "detail": _("The other tablet already %(what)s; the screen is updated.") % {
            "what": what_happened(rows, names)},
        "code": "stale_version",
        "current_version": record.version,
        "state": state,
    }
