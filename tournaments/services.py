"""Running an event: every director's and player's action appends to the tournament stream.

``tournament_command`` judges one command against the folded facts and appends
its event in one transaction; ``tournament_advance`` is the process manager
(run by Celery after results arrive): it creates the matches of slots that have
become playable, pairs the next Swiss round when one is complete, and voids
matches a correction made wrong before anyone started them.
"""

from __future__ import annotations

import secrets

from django.conf import settings as django_settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404

from eventlog import store
from eventlog.models import Event
from eventlog.store import NewEvent
from eventlog.tasks import wake_projections
from games import services as matches
from games.commands import VoidMatch
from games.limits import MAX_REASON, max_final_score
from players import authority
from players.models import Player
from tournaments.formats import swiss
from tournaments.formats.core import FormatError

from . import config as config_rules
from . import derive, stream
from .models import Tournament


class TournamentError(ValueError):
    """A command that breaks the event's rules or does not fit its state: HTTP 400."""


def rating_ramp(tournament: Tournament) -> str:
    """The new-player ramp of the club running the event, written into its matches so ratings replay exactly."""
    ramp = (Tournament.objects.filter(pk=tournament.pk).values_list("club__rating_rule__ramp", flat=True).first())
    return ramp or "fibs"


# -- loading -------------------------------------------------------------------------------


def tournament_facts(tournament: Tournament) -> stream.Facts:
    return stream.fold(store.read_stream(stream.stream_id_of(tournament.pk)))


def match_outcomes(facts: stream.Facts) -> dict[str, derive.MatchOutcome]:
    out = {}
    ids = [link["match_id"] for link in facts.matches.values()]
    ids += [m for old in facts.superseded.values() for m in old]
    for match_id in ids:
        record = matches.match_load(match_id)
        state = record.state
        winner = record.winner if record.finished and record.voided is None else None
        out[match_id] = derive.MatchOutcome(
            match_id, tuple(record.player_ids), started=state.game > 0 or record.finished,
            voided=record.voided is not None, winner=winner, score=tuple(record.score),
        )
    return out


def may_see(user, tournament: Tournament) -> bool:
    """A published event is public; a hidden one (a draft) exists only for its officials and its entrants."""
    if tournament.published or authority.runs_event(user, tournament.director_id):
        return True
    player = Player.objects.filter(user_id=getattr(user, "pk", None)).values_list("pk", flat=True).first()
    if player is None:
        return False
    return player in tournament_facts(tournament).entered


def visible_or_404(user, pk: int) -> Tournament:
    """The event, for those who may see it; a hidden event answers 404 to the others, as if it did not exist."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if not may_see(user, tournament):
        raise Http404("no such event")
    return tournament


def tournament_view(tournament: Tournament) -> tuple[stream.Facts, derive.View]:
    facts = tournament_facts(tournament)
    return facts, derive.derive(facts, match_outcomes(facts))


SWISS_TIEBREAKS = ("buchholz", "median_buchholz", "sonneborn_berger")

# -- creating --------------------------------------------------------------------------------


def tournament_create(*, actor, name: str, format: str, club=None, settings: dict | None = None) -> Tournament:
    """An event and its configuration: format, match lengths per bracket and round, rounds, tie-breaks."""
    if not (actor and getattr(actor, "is_authenticated", False)):
        raise PermissionDenied("log in to create an event")
    if not authority.may_create_event(actor, club):
        if club is None:
            raise PermissionDenied("only officials, and a club's directors under its name, may create events")
        raise PermissionDenied(f"only the directors of {club} and officials may create events under its name")
    if format not in stream.FORMATS:
        raise TournamentError(f"format is one of {', '.join(stream.FORMATS)}")
    max_name = Tournament._meta.get_field("name").max_length
    if not isinstance(name, str) or not name.strip() or len(name) > max_name:
        raise TournamentError(f"an event's name is 1 to {max_name} characters")
    try:  # a limit such as max_players is the site's to set, never the creator's: not a setting one may send
        config = {**config_rules.checked(format, settings), "format": format}
    except config_rules.SettingsError as refused:
        raise TournamentError(f"settings: {refused}") from None
    if authority.casual_event(actor, club):
        config["max_players"] = django_settings.CASUAL_EVENT_MAX_PLAYERS
    if format == "swiss":  # a Swiss table without tie-breaks ranks equal scores by seed alone: record the usual ones
        config.setdefault("tiebreaks", list(SWISS_TIEBREAKS))
    with transaction.atomic():
        tournament = Tournament.objects.create(name=name, club=club, director=actor)
        _append(tournament, 0, [NewEvent("TournamentConfigured", config)], actor)
    return tournament


def tournament_publish(*, actor, tournament: Tournament, published: bool) -> Tournament:
    """Publish or hide an event, and with it every match it holds (a match follows its event's visibility).

    The event's row is locked while its matches follow, as the process manager locks it while it creates
    matches: a match created during a publication is created with the visibility the publication left."""
    if not authority.runs_event(actor, tournament.director_id):
        raise PermissionDenied("only the event's director or an official may publish or hide it")
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        locked.published = published
        locked.save(update_fields=["published"])
        # every match registered in the event, from the log itself (the process manager's and those added by hand)
        ids = Event.objects.filter(stream_type=matches.streams.STREAM_TYPE, event_type=matches.streams.REGISTERED,
                                   payload__tournament_id=locked.pk).order_by("global_position")
        for match_id in ids.values_list("stream_id", flat=True):
            matches.match_set_published(stream_id=match_id, published=published, actor=actor)
    tournament.published = published
    return locked


# -- commands --------------------------------------------------------------------------------

DIRECTOR_ONLY = {
    "check_in", "withdraw", "draw", "pair_round", "forbid", "report_result", "correct_result", "forfeit",
    "keep_match", "void_match",
}


def tournament_command(*, actor, tournament: Tournament, command: dict) -> list[NewEvent]:
    if not isinstance(command, dict):
        raise TournamentError("a command is a JSON object with a 'type'")
    kind = command.get("type")
    handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise TournamentError(f"unknown command type {kind!r}; expected one of {', '.join(_HANDLERS)}")
    official = authority.runs_event(actor, tournament.director_id)
    if kind in DIRECTOR_ONLY and not official:
        raise PermissionDenied("only the event's director or an official may do this")
    if command.get("expected_version") is not None:
        return _judge_and_append(actor, official, tournament, command, handler)
    # No version pinned: the command is judged against the event as it is. If another command got in between
    # (four players entering at once), it is judged again on the new facts rather than refused with a 409
    # the player can do nothing about; the judgement, not the version, decides.
    for attempt in range(COMMAND_ATTEMPTS):
        try:
            return _judge_and_append(actor, official, tournament, command, handler)
        except store.ConcurrencyError:
            if attempt == COMMAND_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


COMMAND_ATTEMPTS = 8


def _judge_and_append(actor, official, tournament, command, handler) -> list[NewEvent]:
    with transaction.atomic():
        facts, view = tournament_view(tournament)
        expected = command.get("expected_version")
        if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
            raise TournamentError("'expected_version' is the event's version number")
        if expected is not None and expected != facts.version:
            raise store.ConcurrencyError(stream.stream_id_of(tournament.pk), expected, facts.version)
        new = handler(actor=actor, official=official, tournament=tournament, facts=facts, view=view, c=command)
        if new:
            _append(tournament, facts.version, new, actor)
    return new


def _reason(c: dict, default: str) -> str:
    reason = c.get("reason", default)
    if not isinstance(reason, str):
        return default
    if len(reason) > MAX_REASON:
        raise TournamentError(f"'reason' is at most {MAX_REASON} characters")
    return reason


def _ids(value) -> bool:
    """A list of player ids: whole numbers a bigint column holds (a read model stores them)."""
    return isinstance(value, list) and all(
        isinstance(v, int) and not isinstance(v, bool) and 0 < v < 2**63 for v in value)


def _slot_key(c: dict) -> str:
    slot = c.get("slot")
    if not isinstance(slot, str):
        raise TournamentError("'slot' is a slot's key, e.g. \"main:r1:m1\"")
    return slot


def _player(c: dict, field: str = "player") -> int:
    pid = c.get(field)
    if not isinstance(pid, int) or isinstance(pid, bool) or not Player.objects.filter(pk=pid).exists():
        raise TournamentError(f"'{field}' is the id of a player")
    return pid


def _enter(*, actor, official, tournament, facts, view, c):
    pid = _player(c)
    if not official and not Player.objects.filter(pk=pid, user=actor).exists():
        raise PermissionDenied("you may enter only yourself")
    if pid in facts.entered and pid not in facts.withdrawn:
        raise TournamentError("already entered")
    limit = facts.config.get("max_players")
    if isinstance(limit, int) and len([p for p in facts.entered if p not in facts.withdrawn]) >= limit:
        raise TournamentError(f"a member's casual event takes at most {limit} players")
    if facts.drawn:
        if facts.format != "swiss":
            raise TournamentError("late entry is open only in Swiss events, before the round set by the director")
        until = facts.config.get("late_entry_until_round", 0)
        next_round = len(facts.rounds) + 1
        if next_round > until:
            raise TournamentError(f"late entry closed after round {until}")
        return [NewEvent("PlayerEntered", {"player_id": pid, "from_round": next_round})]
    return [NewEvent("PlayerEntered", {"player_id": pid, "from_round": 1})]


def _check_in(*, actor, official, tournament, facts, view, c):
    pid = _player(c)
    if pid not in facts.entered:
        raise TournamentError("the player has not entered")
    if facts.drawn:
        raise TournamentError("check-in closes with the draw")
    return [] if pid in facts.checked_in else [NewEvent("PlayerCheckedIn", {"player_id": pid})]


def _withdraw(*, actor, official, tournament, facts, view, c):
    pid = _player(c)
    if pid not in facts.entered or pid in facts.withdrawn:
        raise TournamentError("the player is not in the event")
    return [NewEvent("PlayerWithdrew", {"player_id": pid, "reason": _reason(c, "")})]


def _draw(*, actor, official, tournament, facts, view, c):
    if facts.drawn:
        raise TournamentError("the draw has been made")
    field = [p for p in facts.entered if p not in facts.withdrawn and (not facts.checked_in or p in facts.checked_in)]
    if len(field) < 2:
        raise TournamentError("the draw needs at least two checked-in players")
    method = c.get("method", "random")
    if method == "random":
        seeds = list(field)
        for i in range(len(seeds) - 1, 0, -1):  # Fisher-Yates with the OS's secure generator
            j = secrets.randbelow(i + 1)
            seeds[i], seeds[j] = seeds[j], seeds[i]
    elif method == "rating":
        from ratings.models import PlayerRating  # ratings read games/players; the draw only reads ratings

        rating = dict(PlayerRating.objects.filter(player_id__in=field).values_list("player_id", "rating"))
        seeds = sorted(field, key=lambda p: (-rating.get(p, 1500.0), field.index(p)))
    elif method == "manual":
        seeds = c.get("seeds")
        if not _ids(seeds) or sorted(seeds) != sorted(field):
            raise TournamentError("'seeds' must list every checked-in player exactly once")
    else:
        raise TournamentError("method is random, rating or manual")
    events = [NewEvent("DrawMade", {"seeds": seeds, "method": method})]
    if facts.format == "swiss":
        try:
            pairs = swiss.pair_round(1, seeds, [], forbidden=facts.forbidden)
        except FormatError as refused:
            raise TournamentError(str(refused)) from None
        events.append(NewEvent("RoundPaired", {"round": 1, "pairings": [list(p) for p in pairs], "manual": False}))
    return events


def _pair_round(*, actor, official, tournament, facts, view, c):
    """The next Swiss round: paired by the rules, or the director's own pairings (a manual override).

    ``round`` (optional) names the round: the next one, once every match of the rounds before it is
    decided; or the last one paired again, while none of its matches has a result or has begun."""
    if facts.format != "swiss":
        raise TournamentError("only Swiss rounds are paired; brackets and round robins follow their draw")
    if not facts.drawn:
        raise TournamentError("make the draw first: it pairs round 1")
    manual = c.get("pairings")
    if manual is not None and not isinstance(manual, list):
        raise TournamentError("'pairings' is a list of [player, player] (or [player, null] for a bye)")
    round_no = _round_to_pair(facts, view, c.get("round", len(facts.rounds) + 1))
    if manual is not None:
        return [NewEvent("RoundPaired", {"round": round_no, "pairings": _checked_manual(facts, manual, round_no),
                                         "manual": True})]
    return _next_swiss_round(facts, view, round_no)


def _round_to_pair(facts, view, round_no) -> int:
    rounds = facts.config.get("rounds", 0)
    if not isinstance(round_no, int) or isinstance(round_no, bool) or not 1 <= round_no <= rounds:
        raise TournamentError(f"'round' is a round number of this event, from 1 to {rounds}")
    paired = len(facts.rounds)
    if round_no == paired + 1:
        unfinished = sorted({s.round for s in view.slots if s.round < round_no and s.status not in ("done", "bye")})
        if unfinished:
            raise TournamentError(f"round {unfinished[0]} is not finished: pair round {round_no} once it is")
        return round_no
    if round_no == paired:
        outcomes = match_outcomes(facts)
        for s in view.slots:
            link = facts.matches.get(s.key)
            if s.round == round_no and not s.bye and (s.result is not None
                                                      or (link and outcomes[link["match_id"]].started)):
                raise TournamentError(f"round {round_no} has begun: it can no longer be paired again")
        return round_no
    raise TournamentError(f"round {paired} is the last one paired: pair round {paired + 1} next")


def _checked_manual(facts, manual, round_no: int) -> list[list]:
    """The director's pairings for ``round_no``: every active player once, one bye at most (to a player
    who has had none), no forbidden pair and no rematch."""
    late = {p for p, r in facts.entered_round.items() if r > round_no}
    active = (set(facts.seeds or []) | set(facts.entered)) - set(facts.withdrawn) - late
    seen: list[int] = []
    for pair in manual:
        if not (isinstance(pair, list) and len(pair) == 2 and _ids(pair[:1]) and (pair[1] is None or _ids(pair[1:]))):
            raise TournamentError("each pairing is [player, player] or [player, null] for a bye")
        seen += [p for p in pair if p is not None]
    if sorted(seen) != sorted(active):
        raise TournamentError("a manual pairing must place every active player exactly once")
    if len([b for a, b in manual if b is None]) > len(active) % 2:
        raise TournamentError("a bye only when the number of players is odd, and one at most")
    earlier = facts.rounds[: round_no - 1]
    met = {frozenset(p) for pairs in earlier for p in pairs if p[1] is not None}
    had_bye = {a for pairs in earlier for a, b in pairs if b is None}
    for a, b in manual:
        if b is None and a in had_bye and len(had_bye) < len(active):
            raise TournamentError(f"player {a} has had a bye already")
        if b is not None and frozenset((a, b)) in facts.forbidden:
            raise TournamentError(f"players {a} and {b} may not be paired")
        if b is not None and frozenset((a, b)) in met:
            raise TournamentError(f"players {a} and {b} have met already: no rematch in a Swiss event")
    return manual


def _next_swiss_round(facts, view, round_no: int | None = None) -> list[NewEvent]:
    """Pair round ``round_no`` (default: the next) from the results of the rounds before it."""
    round_no = round_no or len(facts.rounds) + 1
    if round_no > facts.config.get("rounds", 0):
        raise TournamentError("all rounds have been paired")
    if any(s.status not in ("done", "bye") for s in view.slots if s.round < round_no):
        raise TournamentError(f"round {round_no - 1} is not finished")
    history = derive.swiss_history(facts, {s.key: s.result for s in view.slots if s.result})[: round_no - 1]
    players = [p for p in (facts.seeds + [p for p in facts.entered if p not in facts.seeds])]
    start = {p: float(facts.config.get("late_entry_points", 0)) for p, r in facts.entered_round.items() if r > 1}
    late = {p for p, r in facts.entered_round.items() if r > round_no}
    try:
        pairs = swiss.pair_round(round_no, players, history, forbidden=facts.forbidden,
                                 withdrawn=set(facts.withdrawn) | late, start_points=start)
    except FormatError as refused:
        raise TournamentError(str(refused)) from None
    return [NewEvent("RoundPaired", {"round": round_no, "pairings": [list(p) for p in pairs], "manual": False})]


def _forbid(*, actor, official, tournament, facts, view, c):
    players = c.get("players")
    if not (_ids(players) and len(players) == 2 and players[0] != players[1]):
        raise TournamentError("'players' are the two players who must not meet")
    return [NewEvent("PairingForbidden", {"players": sorted(players)})]


def _result_payload(tournament, view, c, *, require_ready: bool = True) -> dict:
    key = _slot_key(c)
    slot = next((s for s in view.slots if s.key == key), None)
    if slot is None:
        raise TournamentError(f"no slot {c.get('slot')!r} in this event")
    winner = c.get("winner")
    if isinstance(winner, bool) or winner not in slot.players or None in slot.players:
        raise TournamentError(f"the winner must be one of the slot's players {list(slot.players)}")
    loser = next(p for p in slot.players if p != winner)
    if "score" not in c:  # nothing assumed: a result the director did not give is not recorded
        raise TournamentError("'score' is required: [winner's points, loser's points]")
    score = c["score"]
    if not (isinstance(score, list) and len(score) == 2
            and all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in score)):
        raise TournamentError("'score' is [winner's points, loser's points]")
    if score[0] < slot.length or score[1] >= slot.length:
        raise TournamentError(f"in a {slot.length}-point match the winner has {slot.length} points or more, the loser fewer")
    if score[0] > max_final_score(slot.length):
        raise TournamentError(f"a {slot.length}-point match ends with at most {max_final_score(slot.length)} points")
    if require_ready and slot.status != "ready":
        raise TournamentError(f"{slot.key} is {slot.status}: report a result only for a match being played")
    return {"slot": slot.key, "winner": winner, "loser": loser, "winner_points": score[0], "loser_points": score[1],
            "length": slot.length, "rating_ramp": rating_ramp(tournament)}


def _close_slot_match(actor, facts, payload: dict, how: str) -> None:
    """A slot decided off the board ends its server match: one slot, one result (nothing more is played in it)."""
    link = facts.matches.get(payload["slot"])
    if link is not None:
        score = None if how == "forfeit" else (payload["winner_points"], payload["loser_points"])
        matches.match_close(stream_id=link["match_id"], winner_player=payload["winner"], score=score, how=how,
                            actor=actor)


def _report(*, actor, official, tournament, facts, view, c):
    payload = _result_payload(tournament, view, c)
    _close_slot_match(actor, facts, payload, "paper")
    return [NewEvent("ResultReported", {**payload, "reported_by": "director"})]


def _confirm(*, actor, official, tournament, facts, view, c):
    payload = _result_payload(tournament, view, c)
    me = Player.objects.filter(user=actor).values_list("pk", flat=True).first()
    slot = next(s for s in view.slots if s.key == payload["slot"])
    if me not in slot.players:
        raise PermissionDenied("only the two players of the match confirm its result")
    events = [NewEvent("ResultConfirmed", {**payload, "player_id": me})]
    other = facts.confirmations.get(payload["slot"], {})
    agreeing = [p for p, said in other.items() if p != me and all(said[k] == payload[k] for k in payload)]
    if agreeing:
        _close_slot_match(actor, facts, payload, "paper")
        events.append(NewEvent("ResultReported", {**payload, "reported_by": "players"}))
    return events


def _correct(*, actor, official, tournament, facts, view, c):
    reason = _reason(c, "")
    if not reason.strip():
        raise TournamentError("a correction needs a 'reason'")
    key = _slot_key(c)
    slot = next((s for s in view.slots if s.key == key), None)
    if slot is None or slot.result is None:
        raise TournamentError("correct a slot that has a result")
    payload = {**_result_payload(tournament, view, c, require_ready=False), "reason": reason}
    link = facts.matches.get(key)
    if link is not None and set(link["players"]) == {payload["winner"], payload["loser"]}:
        # the slot's match shows the corrected result too (its viewer, the home page)
        matches.match_set_result(stream_id=link["match_id"], winner_player=payload["winner"],
                                 score=(payload["winner_points"], payload["loser_points"]), reason=reason, actor=actor)
    return [NewEvent("ResultCorrected", payload)]


def _forfeit(*, actor, official, tournament, facts, view, c):
    key = _slot_key(c)
    slot = next((s for s in view.slots if s.key == key), None)
    if slot is None or slot.status != "ready":
        raise TournamentError("a forfeit is for a match that is due and not decided")
    winner = c.get("winner")
    if isinstance(winner, bool) or winner not in slot.players:
        raise TournamentError(f"the winner must be one of the slot's players {list(slot.players)}")
    loser = next(p for p in slot.players if p != winner)
    payload = {"slot": slot.key, "winner": winner, "loser": loser, "winner_points": 0, "loser_points": 0,
               "length": slot.length, "reason": _reason(c, "no-show")}
    _close_slot_match(actor, facts, payload, "forfeit")
    return [NewEvent("MatchForfeited", payload)]


def _keep(*, actor, official, tournament, facts, view, c):
    key = _slot_key(c)
    flag = next((f for f in view.flagged if f["slot"] == key), None)
    if flag is None:
        raise TournamentError("only a flagged match can be kept")
    return [NewEvent("MatchKept", {"slot": flag["slot"], "match_id": flag["match_id"]})]


def _void(*, actor, official, tournament, facts, view, c):
    link = facts.matches.get(_slot_key(c))
    if link is None:
        raise TournamentError("no match was created for that slot")
    record = matches.match_load(link["match_id"])
    if record.voided is None:
        matches.match_command(actor=actor, stream_id=link["match_id"],
                              command=VoidMatch(_reason(c, "").strip() or "voided by the director"),
                              expected_version=record.version)
    return []


_HANDLERS = {
    "enter": _enter,
    "check_in": _check_in,
    "withdraw": _withdraw,
    "draw": _draw,
    "pair_round": _pair_round,
    "forbid": _forbid,
    "report_result": _report,
    "confirm_result": _confirm,
    "correct_result": _correct,
    "forfeit": _forfeit,
    "keep_match": _keep,
    "void_match": _void,
}


# -- the process manager ----------------------------------------------------------------------


def tournament_advance(tournament: Tournament) -> list[str]:
    """Create the matches that became playable; pair a finished Swiss round's successor. Idempotent.

    The matches are created in batches of ``EVENT_MATCHES_PER_TRANSACTION``, each batch in its own transaction
    with its ``MatchCreated`` facts: every append holds the log's advisory lock until its transaction commits,
    and everybody's moves wait behind it. A batch that fails leaves the ones before it, and the next advance
    (or the periodic sweep) carries on from the facts."""
    created: list[str] = []
    limit = max(1, django_settings.EVENT_MATCHES_PER_TRANSACTION)
    while True:
        batch = _advance_batch(tournament, limit)
        created += batch
        if len(batch) < limit:
            return created


def _advance_batch(tournament: Tournament, limit: int) -> list[str]:
    created: list[str] = []
    with transaction.atomic():
        # the event's row, locked: its visibility (which the new matches inherit) holds until this commits
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        facts, view = tournament_view(tournament)
        new: list[NewEvent] = []
        replaced = [f["match_id"] for f in view.flagged if not f["started"]]
        repair = _swiss_round_to_repair(facts, view)
        if repair:
            replaced += [facts.matches[s.key]["match_id"] for s in view.slots if s.round == repair and s.key in facts.matches]
        for slot, match_id in view.to_close:  # decided without it (a withdrawal): nothing more is played in it
            r = slot.result
            matches.match_close(stream_id=match_id, winner_player=r.winner, how="forfeit" if r.forfeit else "paper",
                                score=None if r.forfeit else (r.winner_points, r.loser_points))
        for match_id in replaced:  # nobody has rolled yet: a wrong pairing is simply replaced
            matches.match_void(stream_id=match_id, reason="pairing changed by a result correction")
        if repair:
            new += _next_swiss_round(facts, view, repair)
        elif replaced or view.to_close:
            facts, view = tournament_view(tournament)
        auto_pair = facts.format == "swiss" and facts.config.get("auto_pair", True)
        if not repair and auto_pair and view.slots and len(facts.rounds) < facts.config.get("rounds", 0):
            if all(s.status in ("done", "bye") for s in view.slots):
                new += _next_swiss_round(facts, view)
        for slot in [] if repair else view.to_create[:limit]:
            a, b = slot.players
            record = matches.match_create(
                actor=tournament.director, player0=Player.objects.get(pk=a), player1=Player.objects.get(pk=b),
                length=slot.length, tournament_id=tournament.pk, published=tournament.published,
                officiating_director_id=tournament.director_id, rating_ramp=rating_ramp(tournament),
                dice=facts.config.get("dice", "server"),
            )
            created.append(record.stream_id)
            new.append(NewEvent("MatchCreated", {"slot": slot.key, "match_id": record.stream_id, "players": [a, b],
                                                 "length": slot.length}))
        if new:
            _append(tournament, facts.version, new, tournament.director)
    return created


def _swiss_round_to_repair(facts: stream.Facts, view: derive.View) -> int | None:
    """The last Swiss round, when a correction came after its pairing and none of its matches has begun."""
    if facts.format != "swiss" or not facts.rounds or facts.corrected_at <= facts.round_paired_at[-1]:
        return None
    last = len(facts.rounds)
    outcomes = match_outcomes(facts)
    for slot in view.slots:
        if slot.round != last or slot.bye:
            continue
        link = facts.matches.get(slot.key)
        if slot.result is not None or (link and outcomes[link["match_id"]].started):
            return None
    return last


def _append(tournament: Tournament, expected: int, events: list[NewEvent], actor) -> None:
    store.append(
        stream_id=stream.stream_id_of(tournament.pk), stream_type=stream.STREAM_TYPE, expected_version=expected,
        events=events, metadata={"actor": getattr(actor, "pk", None)}, on_commit=wake_projections,
    )


COMMAND_TYPES = tuple(_HANDLERS)
