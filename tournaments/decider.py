"""The tournament as a decider: ``decide(state, command) -> [events]`` and ``evolve(state, event) -> state``.

Pure Python (no Django), like ``games/engine``: the state is the fold of the tournament's own stream
(``tournaments/stream.py``), its matches' results included as facts of that stream; the structure
(brackets, rounds, standings) is derived from it by ``tournaments/derive.py`` and the formats library.
What only the database knows (who acts, ratings, the club's rating ramp, a random seed) comes in the
command (``tournaments/commands.py``). A command that does not fit raises one of the refusals of
``tournaments/refusals.py``, each with a stable ``code``; nothing is decided by half.

The service around it (``tournaments/services.py``) loads, folds, looks up, decides and appends, then does
what the events ask of the slots' matches (closing one decided on paper, recording a correction in it).
"""

from __future__ import annotations

import random

from games.limits import max_final_score
from tournaments.formats import ladder, league, single_elimination, swiss, teams
from tournaments.formats.core import READY, SETTLED, Bracket, FormatError, SlotStatus
from tournaments.formats.knockout import OpenPlace

from . import commands as c
from . import config
from . import derive, tables
from . import events as ev
from .refusals import (
    AllRoundsPaired, AlreadyDrawn, AlreadyEntered, BadDrawMethod, BadPairings, BadTeam, BadRound, BadScore, BadSeeds, BadWinner,
    ChallengeBegun, ChallengeRefused, CheckInClosed, EventFull, FieldTooSmall, NoPreviousSeason, NotLadder,
    UnknownChallenge, LateEntryClosed, NoMatch, NoResult, NotDrawn, NotEntered, NotFlagged,
    NotInEvent, NotPermitted, NotSwiss, PairingImpossible, ReasonRequired, RoundBegun, RoundNotFinished, SlotNotReady,
    TableOutOfService, TableTaken, UnknownCommand, UnknownSlot,
)
from .refusals import (
    NoOpenPlace, NoReentry, NotEliminated, NotStaged, ReentriesUsed, ReentryClosed, ReentryTooLate, SettingsFixed,
    StageClosed, StageNotFinished,
)
from .refusals import Reason
from .stream import TEAM_FORMATS, Facts, Format, evolve, fold  # noqa: F401 - the decider's other half, re-exported

State = Facts

# why a result is refused for a slot not being played, by where the slot stands
NOT_BEING_PLAYED = {SlotStatus.WAITING: Reason.NOT_BEING_PLAYED_WAITING, SlotStatus.BYE: Reason.NOT_BEING_PLAYED_BYE, SlotStatus.DONE: Reason.NOT_BEING_PLAYED_DONE,
                    SlotStatus.VOID: Reason.NOT_BEING_PLAYED_VOID}


def decide(state: State, command: c.TournamentCommand) -> list[ev.TournamentEvent]:
    """The events ``command`` appends to a tournament in ``state``; raises a refusal if it does not fit."""
    handler = _HANDLERS.get(type(command)) or getattr(command, "decide", None)
    if handler is None:
        raise UnknownCommand(Reason.UNKNOWN_COMMAND, command=type(command).__name__)
    permit(type(command), command.by)
    return handler(state, command) if type(command) in _HANDLERS else handler(state)


def permit(command: type[c.TournamentCommand], by: c.Actor) -> None:
    """Who may send a command of this type, the one rule of it (the service asks it before it reads a body, so
    that a command the actor may not send answers 403 whatever its fields): a ``director_only`` command is the
    event's director's or an official's. What depends on the command's values (entering yourself, challenging
    as the challenger) is judged by its handler."""
    if command.director_only and not by.official:
        raise NotPermitted(Reason.DIRECTOR_ONLY)


def view_of(state: State) -> derive.View:
    return derive.derive(state)


# -- entries ------------------------------------------------------------------------------


def _enter(facts: State, cmd: c.Enter) -> list:
    pid = cmd.player
    if not cmd.by.official and cmd.by.player != pid:
        raise NotPermitted(Reason.ONLY_YOURSELF)
    if facts.format in TEAM_FORMATS:
        raise BadTeam(Reason.ENTER_WITH_TEAM)
    if pid in facts.entered and pid not in facts.withdrawn:
        raise AlreadyEntered(Reason.ALREADY_ENTERED)
    limit = facts.config.get("max_players")
    if isinstance(limit, int) and len(facts.active) >= limit:
        raise EventFull(Reason.CASUAL_EVENT_FULL, limit=limit)
    if not facts.drawn:
        return [ev.PlayerEntered(pid, 1)]
    if facts.stage_closed is not None:
        raise LateEntryClosed(Reason.STAGE_ONE_CLOSED)
    if facts.format == Format.LADDER:  # a ladder is open: a newcomer starts on the bottom rung
        return [ev.PlayerEntered(pid, 1)]
    if facts.format != Format.SWISS:
        raise LateEntryClosed(Reason.SWISS_TAKES_LATE_ENTRIES)
    # the rule, as the console says it: open until round `until` is paired (a late entrant joins the next
    # round to be paired, at the latest round `until`)
    until = facts.config.get("late_entry_until_round", 0)
    next_round = len(facts.rounds) + 1
    if not until:
        raise LateEntryClosed(Reason.NO_LATE_ENTRY_ROUND)
    if next_round > until:
        raise LateEntryClosed(Reason.LATE_ENTRY_CLOSED, round=until)
    return [ev.PlayerEntered(pid, next_round)]


def _check_in(facts: State, cmd: c.CheckIn) -> list:
    if cmd.player not in facts.entered:
        raise NotEntered(Reason.NOT_ENTERED)
    if facts.drawn:
        raise CheckInClosed(Reason.CHECK_IN_CLOSED)
    return [] if cmd.player in facts.checked_in else [ev.PlayerCheckedIn(cmd.player)]


def _cancel_check_in(facts: State, cmd: c.CancelCheckIn) -> list:
    """A check-in made by mistake, undone before the draw (after it, the player withdraws)."""
    if cmd.player not in facts.entered:
        raise NotEntered(Reason.NOT_ENTERED)
    if facts.drawn:
        raise CheckInClosed(Reason.CHECK_IN_CLOSED)
    return [ev.PlayerCheckInCancelled(cmd.player)] if cmd.player in facts.checked_in else []


def _withdraw(facts: State, cmd: c.Withdraw) -> list:
    """The player leaves, and forfeits at once every match of theirs that is due and undecided (begun or not:
    a Swiss round's, a bracket's, every round robin match left to play), so the opponent wins it and goes on and
    nobody waits for a match that will not be played (one slot, one result: the service closes the match).
    Matches not due yet follow the format's own rule (``formats/knockout.py``, ``formats/round_robin.py``: a
    withdrawn player forfeits them as they come; a Swiss pairs the withdrawn no more). A ladder has its own
    (``formats/ladder.py``: the player leaves the ladder, their open challenges settled)."""
    if cmd.player not in facts.entered or cmd.player in facts.withdrawn:
        raise NotInEvent(Reason.NOT_IN_EVENT)
    events: list = [ev.PlayerWithdrew(cmd.player, cmd.reason), *c.jackpots_left_by(facts, cmd.player)]
    if not facts.drawn or facts.format == Format.LADDER:
        return events
    reason = f"withdrew: {cmd.reason}" if cmd.reason.strip() else "withdrew"
    for slot in view_of(facts).slots:
        if slot.status == READY and cmd.player in slot.players:
            winner = next(p for p in slot.players if p != cmd.player)
            events.append(ev.MatchForfeited(slot.key, winner, cmd.player, 0, 0, slot.length, reason=reason))
    return events


# -- the draw and the rounds ----------------------------------------------------------------


def draw_field(facts: State) -> list[int]:
    """Who the draw places: the entrants still in, the checked-in ones once anybody has checked in."""
    return [p for p in facts.active if not facts.checked_in or p in facts.checked_in]


def _draw(facts: State, cmd: c.Draw) -> list:
    if facts.drawn:
        raise AlreadyDrawn(Reason.ALREADY_DRAWN)
    if facts.format in TEAM_FORMATS:
        return _draw_teams(facts, cmd)
    field = draw_field(facts)
    if len(field) < 2:
        raise FieldTooSmall(Reason.TWO_PLAYERS)
    groups = facts.config.get("groups", 1) if facts.format == Format.ROUND_ROBIN else 1
    if len(field) < 2 * groups:
        raise FieldTooSmall(Reason.GROUPS_FIELD, groups=groups, players=2 * groups)
    if cmd.method == "random":
        seeds = list(field)
        random.Random(cmd.entropy).shuffle(seeds)  # the service's secret seed: unpredictable, and replayable here
    elif cmd.method == "rating":
        rating = dict(cmd.ratings)
        seeds = sorted(field, key=lambda p: (-rating.get(p, 1500.0), field.index(p)))
    elif cmd.method == "manual":
        seeds = list(cmd.seeds or ())
        if sorted(seeds) != sorted(field):
            raise BadSeeds(Reason.BAD_SEEDS)
    elif cmd.method == "previous":
        if facts.format != Format.LEAGUE or not cmd.previous_divisions:
            raise NoPreviousSeason(Reason.PREVIOUS_SEASON)
        divisions = league.next_season(cmd.previous_divisions, field, facts.config.get("promote", 1),
                                       facts.config.get("relegate", 1))
        seeds = [p for d in divisions for p in d]
        return [ev.DrawMade(tuple(seeds), cmd.method), _divisions(facts, divisions, cmd)]
    else:
        raise BadDrawMethod(Reason.BAD_DRAW_METHOD)
    events: list = [ev.DrawMade(tuple(seeds), cmd.method)]
    if facts.format == Format.LEAGUE:
        events.append(_divisions(facts, league.split(seeds, facts.config.get("division_size", 8)), cmd))
    if facts.format == Format.SWISS:
        try:
            pairs = swiss.pair_round(1, seeds, [], forbidden=facts.forbidden)
        except FormatError as refused:
            raise PairingImpossible(refused.reason or str(refused), **refused.params) from None
        events.append(ev.RoundPaired(1, tuple(tuple(p) for p in pairs), False))
    return events


def _draw_teams(facts: State, cmd: c.Draw) -> list:
    """A team event's draw orders its teams (random, by the mean rating of their board players, or the
    director's list of team numbers); its ``DrawMade`` lists their members, team by team, each in its own order."""
    numbers = list(facts.teams)
    if len(numbers) < 2:
        raise FieldTooSmall(Reason.TEAMS_DRAW)
    groups = facts.config.get("groups", 1) if facts.format == Format.TEAM_ROUND_ROBIN else 1
    if len(numbers) < 2 * groups:
        raise FieldTooSmall(Reason.TEAMS_GROUPS_FIELD, groups=groups, teams=2 * groups)
    if cmd.method == "random":
        order = list(numbers)
        random.Random(cmd.entropy).shuffle(order)
    elif cmd.method == "rating":
        rating = dict(cmd.ratings)
        boards = derive.team_config(facts.config).boards

        def mean(n: int) -> float:
            players = facts.teams[n]["members"][:boards]
            return sum(rating.get(p, 1500.0) for p in players) / len(players)
        order = sorted(numbers, key=lambda n: (-mean(n), n))
    elif cmd.method == "manual":
        order = list(cmd.seeds or ())
        if sorted(order) != sorted(numbers):
            raise BadSeeds(Reason.TEAM_SEEDS)
    else:
        raise BadDrawMethod(Reason.BAD_DRAW_METHOD)
    events: list = [ev.DrawMade(tuple(p for n in order for p in facts.teams[n]["members"]), cmd.method)]
    if facts.format == Format.TEAM_SWISS:  # round 1 paired with the draw, as an individual Swiss's
        events.append(ev.TeamRoundPaired(1, tuple(teams.swiss_pairing(1, order, []))))
    return events


def _divisions(facts: State, divisions, cmd: c.Draw) -> ev.DivisionsMade:
    return ev.DivisionsMade(tuple(tuple(d) for d in divisions), cmd.at, facts.config.get("round_days", 7),
                            cmd.previous)


def _pair_round(facts: State, cmd: c.PairRound) -> list:
    """The next Swiss round: paired by the rules, or the director's own pairings (a manual override).

    ``round`` (optional) names the round: the next one, once every match of the rounds before it is
    decided; or the last one paired again, while none of its matches has a result or has begun."""
    if facts.format != Format.SWISS:
        raise NotSwiss(Reason.NOT_SWISS)
    if not facts.drawn:
        raise NotDrawn(Reason.DRAW_FIRST)
    view = view_of(facts)
    round_no = _round_to_pair(facts, view, cmd.round if cmd.round is not None else len(facts.rounds) + 1)
    if cmd.pairings is not None:
        return [ev.RoundPaired(round_no, _checked_manual(facts, cmd.pairings, round_no), True)]
    return next_swiss_round(facts, view, round_no)


def _round_to_pair(facts: State, view: derive.View, round_no: int) -> int:
    rounds = facts.config.get("rounds", 0)
    if not 1 <= round_no <= rounds:
        raise BadRound(Reason.NO_SUCH_ROUND, rounds=rounds)
    paired = len(facts.rounds)
    if round_no == paired + 1:
        unfinished = sorted({s.round for s in view.slots if s.round < round_no and s.status not in SETTLED})
        if unfinished:
            raise RoundNotFinished(Reason.PAIR_ONCE_FINISHED, round=unfinished[0], next=round_no)
        return round_no
    if round_no == paired:
        if round_has_begun(facts, view, round_no):
            raise RoundBegun(Reason.ROUND_BEGUN, round=round_no)
        return round_no
    raise BadRound(Reason.LAST_PAIRED, round=paired, next=paired + 1)


def round_has_begun(facts: State, view: derive.View, round_no: int) -> bool:
    """A result in the round, or a match of it that has started (its first roll)."""
    for s in view.slots:
        if s.round != round_no or s.bye:
            continue
        link = facts.matches.get(s.key)
        outcome = facts.outcomes.get(link["match_id"]) if link else None
        if s.result is not None or (outcome is not None and outcome.started):
            return True
    return False


def _checked_manual(facts: State, manual, round_no: int) -> tuple:
    """The director's pairings for ``round_no``: every active player once, one bye at most (to a player
    who has had none), no forbidden pair and no rematch."""
    late = {p for p, r in facts.entered_round.items() if r > round_no}
    active = (set(facts.seeds or []) | set(facts.entered)) - set(facts.withdrawn) - late
    seen = [p for pair in manual for p in pair if p is not None]
    if sorted(seen) != sorted(active):
        raise BadPairings(Reason.PAIR_EVERY_PLAYER)
    if len([b for a, b in manual if b is None]) > len(active) % 2:
        raise BadPairings(Reason.ONE_BYE)
    earlier = facts.rounds[: round_no - 1]
    met = {frozenset(p) for pairs in earlier for p in pairs if p[1] is not None}
    had_bye = {a for pairs in earlier for a, b in pairs if b is None}
    for a, b in manual:
        if b is None and a in had_bye and len(had_bye) < len(active):
            raise BadPairings(Reason.SECOND_BYE, player=a)
        if b is not None and frozenset((a, b)) in facts.forbidden:
            raise BadPairings(Reason.FORBIDDEN_PAIR, a=a, b=b)
        if b is not None and frozenset((a, b)) in met:
            raise BadPairings(Reason.REMATCH, a=a, b=b)
    return tuple((a, b) for a, b in manual)


def next_swiss_round(facts: State, view: derive.View, round_no: int | None = None) -> list:
    """Pair round ``round_no`` (default: the next) from the results of the rounds before it."""
    round_no = round_no or len(facts.rounds) + 1
    if round_no > facts.config.get("rounds", 0):
        raise AllRoundsPaired(Reason.ALL_ROUNDS_PAIRED)
    if not _played_out_before(view, round_no):
        raise RoundNotFinished(Reason.ROUND_NOT_FINISHED, round=round_no - 1)
    history = derive.swiss_history(facts, {s.key: s.result for s in view.slots if s.result})[: round_no - 1]
    seeded = set(facts.seeds)  # a set: a big field's thousand entries each looked up in its thousand seeds
    players = facts.seeds + [p for p in facts.entered if p not in seeded]
    start = {p: float(facts.config.get("late_entry_points", 0)) for p, r in facts.entered_round.items() if r > 1}
    late = {p for p, r in facts.entered_round.items() if r > round_no}
    try:
        pairs = swiss.pair_round(round_no, players, history, forbidden=facts.forbidden,
                                 withdrawn=set(facts.withdrawn) | late, start_points=start)
    except FormatError as refused:
        raise PairingImpossible(refused.reason or str(refused), **refused.params) from None
    return [ev.RoundPaired(round_no, tuple(tuple(p) for p in pairs), False)]


def _forbid(facts: State, cmd: c.Forbid) -> list:
    return [ev.PairingForbidden(tuple(sorted(cmd.players)))]


# -- results ---------------------------------------------------------------------------------


def _slot(facts: State, key: str):
    slot = derive.slot_of(facts, key)
    if slot is None:
        raise UnknownSlot(Reason.UNKNOWN_SLOT, slot=repr(key))
    return slot


def _result_fields(slot, cmd: c.ResultCommand, *, require_ready: bool = True) -> dict:
    if cmd.winner not in slot.players or None in slot.players:
        raise BadWinner(Reason.WINNER_OF_SLOT, players=list(slot.players))
    loser = next(p for p in slot.players if p != cmd.winner)
    if cmd.score is None:  # nothing assumed: a result the director did not give is not recorded
        raise BadScore(Reason.SCORE_REQUIRED)
    won, lost = cmd.score
    if won < slot.length or lost >= slot.length:
        raise BadScore(Reason.WINNER_POINTS, length=slot.length)
    if won > max_final_score(slot.length):
        raise BadScore(Reason.FINAL_SCORE, length=slot.length, most=max_final_score(slot.length))
    if require_ready and slot.status != READY:
        raise SlotNotReady(NOT_BEING_PLAYED[slot.status], slot=slot.key)
    return {"slot": slot.key, "winner": cmd.winner, "loser": loser, "winner_points": won, "loser_points": lost,
            "length": slot.length, "rating_ramp": cmd.rating_ramp}


def _report(facts: State, cmd: c.ReportResult) -> list:
    return [ev.ResultReported(**_result_fields(_slot(facts, cmd.slot), cmd), reported_by="director")]


def _confirm(facts: State, cmd: c.ConfirmResult) -> list:
    slot = _slot(facts, cmd.slot)
    fields = _result_fields(slot, cmd)
    me = cmd.by.player
    if me is None or me not in slot.players:
        raise NotPermitted(Reason.PLAYERS_CONFIRM)
    mine = ev.ResultConfirmed(**fields, player_id=me)
    events: list = [mine]
    others = facts.confirmations.get(cmd.slot, {})
    if any(p != me and said.agrees_with(mine) for p, said in others.items()):
        events.append(ev.ResultReported(**fields, reported_by="players"))
    return events


def _correct(facts: State, cmd: c.CorrectResult) -> list:
    if not cmd.reason.strip():
        raise ReasonRequired(Reason.CORRECTION_REASON)
    slot = derive.slot_of(facts, cmd.slot)
    if slot is None or slot.result is None:
        raise NoResult(Reason.NO_RESULT)
    return [ev.SlotResultCorrected(**_result_fields(slot, cmd, require_ready=False), reason=cmd.reason)]


def _forfeit(facts: State, cmd: c.Forfeit) -> list:
    slot = derive.slot_of(facts, cmd.slot)
    if slot is None or slot.status != READY:
        raise SlotNotReady(Reason.FORFEIT_NOT_DUE)
    if (cmd.winner is None) == (cmd.loser is None):
        raise BadWinner(Reason.NAME_THE_WINNER)
    named, role = (cmd.winner, Reason.WINNER_OF_SLOT) if cmd.winner is not None else (cmd.loser, Reason.LOSER_OF_SLOT)
    if named not in slot.players:
        raise BadWinner(role, players=list(slot.players))
    winner = named if cmd.winner is not None else next(p for p in slot.players if p != named)
    loser = next(p for p in slot.players if p != winner)
    return [ev.MatchForfeited(slot.key, winner, loser, 0, 0, slot.length, reason=cmd.reason)]


def _keep(facts: State, cmd: c.KeepMatch) -> list:
    flag = next((f for f in view_of(facts).flagged if f["slot"] == cmd.slot), None)
    if flag is None:
        raise NotFlagged(Reason.NOT_FLAGGED)
    return [ev.MatchKept(flag["slot"], flag["match_id"])]


def _void(facts: State, cmd: c.VoidMatch) -> list:
    """Nothing of the tournament's own: the service voids the slot's match, and the match's ``MatchVoided``
    comes back to this stream as ``SlotMatchVoided`` (the process manager)."""
    if cmd.slot not in facts.matches:
        raise NoMatch(Reason.NO_MATCH)
    return []


def _assign_table(facts: State, cmd: c.AssignTable) -> list:
    """The director moves a match to another table: one in service, where no other match is being played."""
    if cmd.slot not in facts.matches:
        raise NoMatch(Reason.NO_MATCH)
    if cmd.table in facts.out_of_service:
        raise TableOutOfService(Reason.TABLE_OUT_OF_SERVICE, table=cmd.table)
    other = tables.busy_tables(facts, except_slot=cmd.slot).get(cmd.table)
    if other is not None:
        raise TableTaken(Reason.TABLE_TAKEN, table=cmd.table, slot=other)
    if facts.tables.get(cmd.slot) == cmd.table:
        return []
    return [ev.TableAssigned(cmd.slot, cmd.table, by_director=True)]


def _set_table_service(facts: State, cmd: c.SetTableService) -> list:
    """A table out of service gets no new match (one being played there stays until the director moves it)."""
    if (cmd.table not in facts.out_of_service) == cmd.in_service:
        return []
    return [ev.TableService(cmd.table, cmd.in_service)]


def tables_for_new_matches(facts: State, slots: list[str]) -> list:
    """The process manager's choice for matches it just created: each the lowest free table in service. A slot
    that already has a table (its match replaced) keeps it."""
    out, taken = [], set()
    for slot in slots:
        if slot in facts.tables:
            continue
        table = tables.free_table(facts, taken)
        taken.add(table)
        out.append(ev.TableAssigned(slot, table))
    return out


# -- ladders and leagues --------------------------------------------------------------------------

DAY = league.DAY


def _ladder(facts: State) -> ladder.Ladder:
    if facts.format != Format.LADDER:
        raise NotLadder(Reason.NOT_LADDER)
    if not facts.drawn:
        raise NotDrawn(Reason.DRAW_LADDER_FIRST)
    return view_of(facts).ladder


def _issue(facts: State, cmd: c.IssueChallenge) -> list:
    board = _ladder(facts)
    if not cmd.by.official and cmd.by.player != cmd.challenger:
        raise NotPermitted(Reason.CHALLENGER_ONLY)
    why = ladder.refusal_to_challenge(board.rungs, board.open, cmd.challenger, cmd.defender,
                                      facts.config.get("reach", 3))
    if why:
        raise ChallengeRefused(why.reason, **why.params)
    number = max(facts.challenges, default=0) + 1
    deadline = cmd.at + facts.config.get("challenge_days", 14) * DAY
    length = derive.ladder_config(facts.config).length
    return [ev.ChallengeIssued(number, cmd.challenger, cmd.defender, cmd.at, deadline, length)]


def _open_challenge(facts: State, board: ladder.Ladder, number: int) -> ladder.Challenge:
    challenge = next((ch for ch in board.open if ch.number == number), None)
    if challenge is None:
        raise UnknownChallenge(Reason.UNKNOWN_CHALLENGE, number=number)
    return challenge


def _begun(facts: State, slot: str) -> bool:
    link = facts.matches.get(slot)
    outcome = facts.outcomes.get(link["match_id"]) if link else None
    return outcome is not None and outcome.started and not outcome.voided


def _unplayed_challenge(facts: State, challenge: ladder.Challenge, rule: str, event) -> list:
    """The challenge settled without being played: cancelled, or a walkover to the challenger."""
    if rule == "cancelled":
        return [event]
    return [event, ev.MatchForfeited(challenge.key, challenge.challenger, challenge.defender, 0, 0, challenge.length,
                                     reason=f"challenge {event.event_type[9:].lower()}")]


def _decline(facts: State, cmd: c.DeclineChallenge) -> list:
    challenge = _open_challenge(facts, _ladder(facts), cmd.number)
    if not cmd.by.official and cmd.by.player != challenge.defender:
        raise NotPermitted(Reason.CHALLENGED_DECLINES)
    if _begun(facts, challenge.key):
        raise ChallengeBegun(Reason.CHALLENGE_BEGUN)
    rule = facts.config.get("refused", "walkover")
    declined = ev.ChallengeDeclined(challenge.number, None if cmd.by.official and cmd.by.player != challenge.defender
                                    else challenge.defender, cmd.at, rule, cmd.reason)
    return _unplayed_challenge(facts, challenge, rule, declined)


def _apply_deadlines(facts: State, cmd: c.ApplyDeadlines) -> list:
    """Everything past its deadline at ``cmd.at`` and not begun, settled by the event's rules; nothing when
    nothing is due (the sweep sends it often)."""
    if not facts.drawn or facts.format not in (Format.LADDER, Format.LEAGUE):
        return []
    view = view_of(facts)
    out: list = []
    if facts.format == Format.LADDER:
        rule = facts.config.get("unplayed", "walkover")
        for challenge in view.ladder.open:
            if challenge.deadline <= cmd.at and not _begun(facts, challenge.key):
                out += _unplayed_challenge(facts, challenge, rule, ev.ChallengeLapsed(challenge.number, cmd.at, rule))
        return out
    starts_at, round_days = facts.league_clock
    for s in view.slots:
        if (s.status == READY and league.deadline(starts_at, round_days, s.round) <= cmd.at
                and not _begun(facts, s.key)):
            out.append(ev.MatchUnplayed(s.key, cmd.at))
    return out


def deadlines(facts: State) -> list[dict]:
    """What is due and when: each open challenge, or each league round with matches still to play."""
    if not facts.drawn:
        return []
    view = view_of(facts)
    if facts.format == Format.LADDER:
        return [{"slot": ch.key, "number": ch.number, "deadline": ch.deadline} for ch in view.ladder.open]
    if facts.format == Format.LEAGUE:
        starts_at, round_days = facts.league_clock
        rounds = sorted({s.round for s in view.slots if s.status == READY})
        return [{"round": r, "deadline": league.deadline(starts_at, round_days, r)} for r in rounds]
    return []


# -- stages and re-entry ------------------------------------------------------------------------


def _close_stage(facts: State, cmd: c.CloseStage) -> list:
    """Stage one's table is final: its top ``qualifiers`` (withdrawn players left out) are the knockout's seeds,
    seeded by that table (1 meets the last qualifier, 1 and 2 only in the final)."""
    if not (facts.staged or facts.team_staged):
        raise NotStaged(Reason.NOT_STAGED)
    if facts.stage_closed is not None:
        raise StageClosed(Reason.STAGE_CLOSED)
    if not facts.drawn:
        raise NotDrawn(Reason.STAGE_NOT_BEGUN)
    view = view_of(facts)
    if facts.team_staged:
        return _close_team_stage(facts, view)
    if facts.format == Format.SWISS and len(facts.rounds) < facts.config.get("rounds", 0):
        raise StageNotFinished(Reason.STAGE_ROUNDS, round=len(facts.rounds), rounds=facts.config["rounds"])
    unfinished = sorted({s.key for s in view.slots if s.status not in SETTLED})
    if unfinished:
        raise StageNotFinished(Reason.STAGE_UNDECIDED, count=len(unfinished), slot=unfinished[0])
    table = derive.qualifying_order(facts, view)
    qualifiers = [p for p in table if p not in facts.withdrawn][: facts.config["qualifiers"]]
    if len(qualifiers) < 2:
        raise FieldTooSmall(Reason.TWO_QUALIFIERS)
    return [ev.StageClosed(1, tuple(table)), ev.StageDrawMade(2, tuple(qualifiers), "standings")]


def _close_team_stage(facts: State, view: derive.View) -> list:
    """A round robin of teams (in groups) is over: its final order of qualifying (the group winners first, then
    the runners-up…) is recorded, and its top ``qualifiers`` teams are the knockout's seeds in that order."""
    unfinished = sorted({s.key for s in view.slots if s.status not in SETTLED})
    if unfinished:
        raise StageNotFinished(Reason.STAGE_UNDECIDED, count=len(unfinished), slot=unfinished[0])
    order = derive.team_qualifying_order(view)
    qualifiers = order[: facts.config["qualifiers"]]
    if len(qualifiers) < 2:
        raise FieldTooSmall(Reason.TWO_QUALIFIERS)
    return [ev.StageClosed(1, tuple(order)), ev.StageDrawMade(2, tuple(qualifiers), "standings")]


def _knockout_drawn(facts: State):
    if facts.config.get("reentry") is None or derive.knockout_seeds(facts) is None:
        raise NoReentry(Reason.NO_REENTRY)
    if facts.reentry_closed:
        raise ReentryClosed(Reason.REENTRY_CLOSED)


def open_places(facts: State, view: derive.View | None = None) -> list[str]:
    """The knockout's first-round places still open for re-entries, in the order they are taken (a re-entry a
    correction left without ground gives its place back: the view's open places, not the facts', count)."""
    view = view or view_of(facts)
    open_now = {s.key for s in view.slots if s.sources[1] == str(OpenPlace())}
    order = single_elimination.reentry_places(len(derive.knockout_seeds(facts)),
                                              facts.config["reentry"].get("until_round", 1))
    return [k for k in order if k in open_now]


def _reenter(facts: State, cmd: c.Reenter) -> list:
    _knockout_drawn(facts)
    place, entry = reentry_for(facts, view_of(facts), cmd.player)
    return [ev.PlayerReentered(cmd.player, place, entry)]


def reentry_for(facts: State, view: derive.View, pid: int) -> tuple[str, int]:
    """The place and entry number a re-entry of ``pid`` takes now; a refusal when the rules do not allow it.
    (``view`` is ``facts``' own, passed in so that a page asking for every player derives it once.)"""
    rules = facts.config["reentry"]
    if pid in facts.withdrawn:
        raise NotInEvent(Reason.WITHDRAWN)
    main = [s for s in view.slots if s.bracket == single_elimination.MAIN]
    lost_in = single_elimination.eliminated_in(Bracket(tuple(main), None, {}, {}, {}), pid)
    if lost_in is None:
        raise NotEliminated(Reason.NOT_ELIMINATED)
    if lost_in > rules["until_round"]:
        raise ReentryTooLate(Reason.REENTRY_TOO_LATE, until=rules["until_round"], round=lost_in)
    made = max(s.entries[s.players.index(pid)] for s in main if pid in s.players) - 1  # re-entries that stand
    if made >= rules["times"]:
        raise ReentriesUsed(Reason.REENTRIES_USED, times=rules["times"])
    places = open_places(facts, view)
    if not places:
        raise NoOpenPlace(Reason.NO_OPEN_PLACE)
    return places[0], made + 2


def _close_reentry(facts: State, cmd: c.CloseReentry) -> list:
    _knockout_drawn(facts)
    return [ev.ReentryClosed(tuple(open_places(facts)))]


def _set_rated(facts: State, cmd: c.SetRated) -> list:
    """Rated or not, the whole event or one slot (one the event has: drawn, or paired in a Swiss round)."""
    if cmd.slot and cmd.slot not in {s.key for s in view_of(facts).slots}:
        raise UnknownSlot(Reason.UNKNOWN_SLOT, slot=repr(cmd.slot))
    return [ev.RatedSet(cmd.rated, cmd.slot)]


def _publish(facts: State, cmd: c.Publish) -> list:
    """Published or hidden: recorded only when it changes (the ratings and seasons re-derive on each change)."""
    return [] if facts.published == cmd.published else [ev.VisibilitySet(cmd.published)]


# what the director may still change once the draw is made: what the event reads as it goes on (the next rounds'
# pairing, late entries, the tables' order, the next matches' dice, the next challenges), never the draw's shape;
# each setting says it of itself (``tournaments.config.EventSettings``)
SETTINGS_AFTER_DRAW = config.AFTER_DRAW


def _configure(facts: State, cmd: c.Configure) -> list:
    """New settings, whole (checked by ``tournaments.config`` first): any before the draw; after it, only
    ``SETTINGS_AFTER_DRAW``, and a Swiss event's rounds never fewer than it has paired."""
    new = dict(cmd.settings)
    old = {k: v for k, v in facts.config.items() if k not in ev.SETTINGS_KEPT}
    if new == old:
        return []
    if facts.drawn:
        fixed = sorted(k for k in set(new) | set(old) if new.get(k) != old.get(k) and k not in SETTINGS_AFTER_DRAW)
        if fixed:
            raise SettingsFixed(Reason.SETTINGS_FIXED, settings=", ".join(fixed))
        if new.get("rounds") != old.get("rounds"):
            if facts.stage_closed is not None:
                raise SettingsFixed(Reason.STAGE_ROUNDS_FIXED)
            if new.get("rounds", 0) < len(facts.rounds):
                raise SettingsFixed(Reason.FEWER_ROUNDS, round=len(facts.rounds))
    return [ev.SettingsChanged(new)]


_HANDLERS = {
    c.Enter: _enter, c.CheckIn: _check_in, c.Withdraw: _withdraw, c.Draw: _draw, c.PairRound: _pair_round,
    c.Forbid: _forbid, c.ReportResult: _report, c.ConfirmResult: _confirm, c.CorrectResult: _correct,
    c.Forfeit: _forfeit, c.KeepMatch: _keep, c.VoidMatch: _void, c.CloseStage: _close_stage, c.Reenter: _reenter,
    c.CloseReentry: _close_reentry,
    c.AssignTable: _assign_table, c.SetTableService: _set_table_service, c.CancelCheckIn: _cancel_check_in,
    c.SetRated: _set_rated, c.IssueChallenge: _issue, c.DeclineChallenge: _decline,
    c.ApplyDeadlines: _apply_deadlines, c.Configure: _configure, c.Publish: _publish,
}


# -- what the process manager does next --------------------------------------------------------


def swiss_round_to_repair(facts: State, view: derive.View) -> int | None:
    """The last Swiss round, when a correction came after its pairing, none of its matches has begun and the rounds
    before it are played out: an earlier round reopened meanwhile (a match voided) holds the repair back until it
    is finished again, as it would hold back the pairing of a next round."""
    if facts.format != Format.SWISS or not facts.rounds or facts.corrected_at <= facts.round_paired_at[-1]:
        return None
    last = len(facts.rounds)
    return None if round_has_begun(facts, view, last) or not _played_out_before(view, last) else last


def _played_out_before(view: derive.View, round_no: int) -> bool:
    """Every slot of the rounds before ``round_no`` settled: what a Swiss round is paired from."""
    return all(s.status in SETTLED for s in view.slots if s.round < round_no)


def team_rounds_to_record(facts: State, view: derive.View) -> list:
    """The rounds of a Swiss of teams that the view pairs and the stream has not recorded yet (the next round, once
    the rounds before it are played out): recorded before their boards' matches are made, and from then on never
    paired again (``teams.derive_swiss`` reads them back)."""
    if facts.format != Format.TEAM_SWISS or view.teams is None:
        return []
    pairs: dict[int, list] = {}
    for m in view.teams.meetings:
        if m.round > len(facts.team_rounds):
            pairs.setdefault(m.round, []).append((m.a, m.b))
    return [ev.TeamRoundPaired(r, tuple(p)) for r, p in sorted(pairs.items())]


def needs_advance(facts: State, view: derive.View) -> bool:
    """Whether the process manager has matches to create, close or replace, or a Swiss round to pair."""
    auto_pair = facts.format == Format.SWISS and facts.config.get("auto_pair", True)
    pending_swiss = auto_pair and view.slots and (
        len(facts.rounds) < facts.config.get("rounds", 0) and all(s.status in SETTLED for s in view.slots))
    return bool(view.to_create or view.to_close or [f for f in view.flagged if not f["started"]] or pending_swiss
                or team_rounds_to_record(facts, view)
                or swiss_round_to_repair(facts, view) is not None)
