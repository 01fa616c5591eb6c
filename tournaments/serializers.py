"""The tournaments API's bodies: one serializer per command type, and every answer's shape.

Each command serializer checks the JSON types strictly (a round of ``"2"`` or ``2.0`` is refused, not read as
2) and builds the decider's typed command (``tournaments/commands.py``); the decider judges the rest.
"""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from apikit.serializers import ErrorSerializer  # noqa: F401 - the API declares its refusals with it

from games.limits import MAX_MATCH_LENGTH, MAX_REASON, max_final_score

from tournaments.formats.core import SlotStatus

from . import commands as c
from . import config

MAX_ID = 2**63 - 1


class StrictIntegerField(serializers.IntegerField):
    """A JSON number that is a whole number: no strings, floats or booleans read as one."""

    def to_internal_value(self, data):
        if not isinstance(data, int) or isinstance(data, bool):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


def _player_id(**kwargs):
    return StrictIntegerField(min_value=1, max_value=MAX_ID, **kwargs)


def _slot():
    return StrictCharField(max_length=40, help_text="the slot's key, e.g. \"main:r1:m1\"")


def _reason(default: str, help_text: str):
    return StrictCharField(default=default, allow_blank=True, max_length=MAX_REASON,
                           help_text=help_text)


def _score():
    return serializers.ListField(
        child=StrictIntegerField(min_value=0, max_value=max_final_score(MAX_MATCH_LENGTH)), min_length=2,
        max_length=2, help_text="[winner's points, loser's points]")


class CommandSerializer(serializers.Serializer):
    """Every command: its ``type``, and the event's version the sender saw (optional)."""

    command: type[c.TournamentCommand] = c.TournamentCommand
    expected_version = StrictIntegerField(
        min_value=0, required=False,
        help_text="the event's version you are looking at; a stale one answers 409 and appends nothing")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._declared_fields["type"] = serializers.ChoiceField(choices=[cls.command.type])

    def to_command(self) -> c.TournamentCommand:
        data = {k: v for k, v in self.validated_data.items() if k not in ("type", "expected_version")}
        return self.command(**data)


class EnterSerializer(CommandSerializer):
    """Enter a player (yourself, or anybody for the director)."""

    command = c.Enter
    player = _player_id()


class CheckInSerializer(CommandSerializer):
    command = c.CheckIn
    player = _player_id()


class CancelCheckInSerializer(CommandSerializer):
    command = c.CancelCheckIn
    player = _player_id(help_text="the entrant whose check-in is undone (before the draw)")


class WithdrawSerializer(CommandSerializer):
    command = c.Withdraw
    player = _player_id()
    reason = _reason("", "why, for the event's history")


class DrawSerializer(CommandSerializer):
    command = c.Draw
    method = serializers.ChoiceField(choices=list(c.DRAW_METHODS), default="random")
    seeds = serializers.ListField(child=_player_id(), required=False, max_length=4096,
                                  help_text="method manual: every checked-in player once, the first seed first")
    previous = StrictIntegerField(min_value=1, max_value=MAX_ID, required=False,
                                  help_text="method previous (a league): the league event whose final tables make "
                                            "this season's divisions, with promotion and relegation")

    def to_command(self):
        d = self.validated_data
        return c.Draw(method=d["method"], seeds=tuple(d["seeds"]) if "seeds" in d else None,
                      previous=d.get("previous"))

    def validate(self, attrs):
        if attrs.get("method") == "manual" and "seeds" not in attrs:
            raise serializers.ValidationError({"seeds": "a manual draw lists the seeds"})
        if attrs.get("method") == "previous" and "previous" not in attrs:
            raise serializers.ValidationError({"previous": "a next season names the league event it follows"})
        return attrs


class PairRoundSerializer(CommandSerializer):
    command = c.PairRound
    round = StrictIntegerField(min_value=1, max_value=config.MAX_ROUNDS, required=False,
                               help_text="the next round (once the previous is finished), "
                                         "or the last one again before it begins")
    pairings = serializers.ListField(
        child=serializers.ListField(child=_player_id(allow_null=True), min_length=2, max_length=2),
        required=False, max_length=4096, help_text="[player, player], or [player, null] for a bye")

    def to_command(self):
        d = self.validated_data
        pairs = tuple((a, b) for a, b in d["pairings"]) if "pairings" in d else None
        return c.PairRound(round=d.get("round"), pairings=pairs)

    def validate_pairings(self, value):
        if any(pair[0] is None for pair in value):
            raise serializers.ValidationError("each pairing is [player, player] or [player, null] for a bye")
        return value


class ForbidSerializer(CommandSerializer):
    command = c.Forbid
    players = serializers.ListField(child=_player_id(), min_length=2, max_length=2,
                                    help_text="the two players who must not meet")

    def validate_players(self, value):
        if value[0] == value[1]:
            raise serializers.ValidationError("two different players")
        return value

    def to_command(self):
        return c.Forbid(players=tuple(self.validated_data["players"]))


class _ResultSerializer(CommandSerializer):
    slot = _slot()
    winner = _player_id(help_text="the winner's player id")
    score = _score()

    def to_command(self):
        d = dict(self.validated_data)
        d.pop("type", None)
        d.pop("expected_version", None)
        d["score"] = tuple(d["score"])
        return self.command(**d)


class ReportResultSerializer(_ResultSerializer):
    """The director records a result from the scoresheet."""

    command = c.ReportResult


class ConfirmResultSerializer(_ResultSerializer):
    """A player's half of a result both players report; the second that agrees records it."""

    command = c.ConfirmResult


class CorrectResultSerializer(_ResultSerializer):
    command = c.CorrectResult
    reason = StrictCharField(max_length=MAX_REASON, help_text="why: shown in the event's history")


class ForfeitSerializer(CommandSerializer):
    """A match decided without being played: name the winner, or the player who forfeits (``loser``)."""

    command = c.Forfeit
    slot = _slot()
    winner = _player_id(required=False, help_text="the winner's player id (or give 'loser')")
    loser = _player_id(required=False, help_text="the player who forfeits (the absent one): the other wins")
    reason = _reason("no-show", "why the loser forfeits")

    def validate(self, attrs):
        if ("winner" in attrs) == ("loser" in attrs):
            raise serializers.ValidationError("name the winner or the player who forfeits ('loser'), one of the two")
        return attrs


class KeepMatchSerializer(CommandSerializer):
    command = c.KeepMatch
    slot = _slot()


class VoidMatchSerializer(CommandSerializer):
    command = c.VoidMatch
    slot = _slot()
    reason = _reason("", "why the slot's match is voided")


class AssignTableSerializer(CommandSerializer):
    command = c.AssignTable
    slot = _slot()
    table = StrictIntegerField(min_value=1, max_value=c.MAX_TABLE, help_text="the table the slot's match moves to")


class SetTableServiceSerializer(CommandSerializer):
    command = c.SetTableService
    table = StrictIntegerField(min_value=1, max_value=c.MAX_TABLE)
    in_service = serializers.BooleanField(help_text="false: out of service (no new match is sent there)")


class IssueChallengeSerializer(CommandSerializer):
    """A ladder challenge: the challenger (yourself, or anybody for the director) challenges a player at most
    the ladder's reach above them; its match is created for them, and it is due by the challenge's deadline."""

    command = c.IssueChallenge
    challenger = _player_id()
    defender = _player_id()


class DeclineChallengeSerializer(CommandSerializer):
    """The challenged player (or the director for them) refuses a challenge whose match has not begun: a
    walkover to the challenger, or cancelled, as the ladder's ``refused`` setting says."""

    command = c.DeclineChallenge
    number = StrictIntegerField(min_value=1, max_value=MAX_ID, help_text="the challenge's number (slot ladder:c{n})")
    reason = _reason("", "why, for the ladder's history")


class ApplyDeadlinesSerializer(CommandSerializer):
    """Settle what is past its deadline now: ladder challenges (``unplayed``: a walkover or cancelled) and league
    matches of a round past its deadline (``unplayed``: a double loss or void), if their match has not begun.
    A periodic sweep does the same on its own."""

    command = c.ApplyDeadlines


class CloseStageSerializer(CommandSerializer):
    """Close stage one (a Swiss or round robin with ``qualifiers``): its table is final, and the knockout of its
    top qualifiers is drawn from it (``StageClosed``, ``StageDrawMade``)."""

    command = c.CloseStage


class ReenterSerializer(CommandSerializer):
    """A buy-back: a player knocked out of the knockout's main bracket, within the event's re-entry rules, takes
    the next first-round place kept open for re-entries (``PlayerReentered``)."""

    command = c.Reenter
    player = _player_id()


class CloseReentrySerializer(CommandSerializer):
    """No more re-entries: the places still open become byes (``ReentryClosed``)."""

    command = c.CloseReentry


class SetRatedSerializer(CommandSerializer):
    """Rated or unrated from now on: the whole event, or one slot's match (a walkover, a friendly)."""

    command = c.SetRated
    rated = serializers.BooleanField(help_text="false: its results stay out of the ratings and the season tables")
    slot = StrictCharField(max_length=40, required=False, default="", allow_blank=True,
                           help_text="one slot's key, e.g. \"main:r1:m1\"; none: the whole event")


COMMAND_SERIALIZERS: dict[str, type[CommandSerializer]] = {
    s.command.type: s for s in (
        EnterSerializer, CheckInSerializer, WithdrawSerializer, DrawSerializer, PairRoundSerializer, ForbidSerializer,
        ReportResultSerializer, ConfirmResultSerializer, CorrectResultSerializer, ForfeitSerializer,
        KeepMatchSerializer, VoidMatchSerializer, CloseStageSerializer, ReenterSerializer, CloseReentrySerializer,
        AssignTableSerializer, SetTableServiceSerializer, CancelCheckInSerializer, SetRatedSerializer,
        IssueChallengeSerializer, DeclineChallengeSerializer, ApplyDeadlinesSerializer)
}
assert set(COMMAND_SERIALIZERS) == set(c.COMMANDS), "one serializer per command type"

COMMAND_REQUEST = PolymorphicProxySerializer(
    component_name="TournamentCommand", resource_type_field_name="type",
    serializers={kind: s for kind, s in COMMAND_SERIALIZERS.items()},
)


# -- answers -----------------------------------------------------------------------------------


class AppendedEventSerializer(serializers.Serializer):
    type = serializers.CharField()
    payload = serializers.DictField()


class TournamentCommandAnswerSerializer(serializers.Serializer):
    appended = AppendedEventSerializer(many=True)
    version = serializers.IntegerField(help_text="the event's version after the command")


class TournamentRowSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club_id = serializers.IntegerField(allow_null=True)
    starts_on = serializers.DateField(allow_null=True)


class EntrySerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()


class SlotSerializer(serializers.Serializer):
    key = serializers.CharField()
    bracket = serializers.CharField()
    round = serializers.IntegerField()
    index = serializers.IntegerField()
    players = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    names = serializers.ListField(child=serializers.CharField(allow_null=True))
    status = serializers.ChoiceField(choices=[s.value for s in SlotStatus])
    length = serializers.IntegerField()
    match_id = serializers.CharField(allow_null=True)
    winner = serializers.IntegerField(allow_null=True)
    score = serializers.ListField(child=serializers.IntegerField())
    forfeit = serializers.BooleanField()
    table = serializers.IntegerField(allow_null=True, help_text="the table the slot's match is played at")
    entries = serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=2, max_length=2,
                                    help_text="per side, which entry of its player: 1, or 2, 3… for a re-entry")
    open_place = serializers.BooleanField(help_text="the second side is a first-round place kept for re-entries")


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    played = serializers.IntegerField(help_text="wins + losses: in a Swiss a bye is a won match, so it is counted")
    wins = serializers.IntegerField(help_text="matches won, byes included in a Swiss (a round robin's rest rounds "
                                              "count for nothing)")
    losses = serializers.IntegerField()
    byes = serializers.IntegerField(help_text="byes had; in a Swiss each is one of the wins, with 0-0 match points")
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    score = serializers.FloatField()
    tiebreaks = serializers.DictField(child=serializers.FloatField())
    flight = serializers.CharField(allow_blank=True)
    forfeits = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="others hold the same rank: players knocked out in the same round of "
                                                "a knockout share their place (3=); the table lists them by wins, "
                                                "then seed")
    place = serializers.CharField(help_text="the place as the tables show it, in the reader's language: '3', or "
                                            "'3=' when shared")
    withdrawn = serializers.BooleanField()


class FlaggedSerializer(serializers.Serializer):
    slot = serializers.CharField()
    match_id = serializers.CharField()
    match_players = serializers.ListField(child=serializers.IntegerField())
    slot_players = serializers.ListField(child=serializers.IntegerField())
    started = serializers.BooleanField()
    finished = serializers.BooleanField()


class StagesSerializer(serializers.Serializer):
    """A staged event (a Swiss or round robin, then a knockout of its top ``qualifiers``); empty for one stage."""

    first = serializers.ChoiceField(choices=["swiss", "rr"], required=False, help_text="stage one's slots' bracket")
    groups = serializers.IntegerField(required=False, help_text="a round robin in groups: how many")
    qualifiers = serializers.IntegerField(required=False)
    closed = serializers.BooleanField(required=False, help_text="stage one closed, the knockout drawn")
    table = serializers.ListField(child=serializers.IntegerField(), required=False,
                                  help_text="stage one's final table when it closed, best first")
    seeds = serializers.ListField(child=serializers.IntegerField(), required=False,
                                  help_text="the knockout's seeds, 1 first")


class ReentryMadeSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    place = serializers.CharField(help_text="the first-round slot the re-entry took")
    entry = serializers.IntegerField(help_text="2 for a first re-entry, 3 for a second…")


class ReentrySerializer(serializers.Serializer):
    """The knockout's re-entry (buy-back) rules and state; empty when the event offers none."""

    until_round = serializers.IntegerField(required=False, help_text="the last round whose losers may re-enter")
    times = serializers.IntegerField(required=False, help_text="re-entries one player may make")
    closed = serializers.BooleanField(required=False)
    open = serializers.ListField(child=serializers.CharField(), required=False,
                                 help_text="first-round places still open, in the order re-entries take them")
    made = ReentryMadeSerializer(many=True, required=False)
    eligible = serializers.ListField(child=serializers.IntegerField(), required=False,
                                     help_text="players who may re-enter now")


class TournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.IntegerField(allow_null=True)
    director = serializers.IntegerField(allow_null=True)
    format = serializers.CharField(allow_null=True)
    version = serializers.IntegerField()
    entries = EntrySerializer(many=True)
    checked_in = serializers.ListField(child=serializers.IntegerField())
    withdrawn = serializers.ListField(child=serializers.IntegerField())
    drawn = serializers.BooleanField()
    winner = serializers.IntegerField(allow_null=True)
    champions = serializers.DictField(child=serializers.IntegerField(allow_null=True),
                                      help_text="flight -> its champion")
    flagged = FlaggedSerializer(many=True)
    slots = SlotSerializer(many=True)
    standings = StandingSerializer(many=True)
    stages = StagesSerializer()
    reentry = ReentrySerializer()


class EventMatchSerializer(serializers.Serializer):
    """A match the director adds to the event by hand (not a slot's: the draw's matches are created for it)."""

    player0 = _player_id(help_text="player id of the first player")
    player1 = _player_id(help_text="player id of the second player")
    length = StrictIntegerField(min_value=0, max_value=MAX_MATCH_LENGTH, help_text="odd, or 0 for a money session")
    published = serializers.BooleanField(default=True, help_text="and only while the event is")
    crawford = serializers.BooleanField(default=True)
    jacoby = serializers.BooleanField(default=False)
    beavers = serializers.BooleanField(default=False)
    raccoons = serializers.BooleanField(default=False)
    automatic_doubles = StrictIntegerField(default=0, min_value=0)
    cube_limit = StrictIntegerField(default=0, min_value=0)
    dice = serializers.ChoiceField(choices=["server", "board"], default="server")


class EventMatchImportSerializer(serializers.Serializer):
    file = serializers.FileField(required=False)
    text = serializers.CharField(required=False, trim_whitespace=False)
    player0 = serializers.IntegerField(required=False)
    player1 = serializers.IntegerField(required=False)


class EventMatchAnswerSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="the match's stream id: GET /api/matches/{id}/ for its state")
    tournament = serializers.IntegerField()
    players = serializers.ListField(child=serializers.IntegerField())
    version = serializers.IntegerField()
    published = serializers.BooleanField()


# -- ladders and leagues -----------------------------------------------------------------------


class RungSerializer(serializers.Serializer):
    rung = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    challengeable = serializers.BooleanField(help_text="free of open challenges")


class ChallengeSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    slot = serializers.CharField()
    challenger = serializers.IntegerField()
    defender = serializers.IntegerField()
    names = serializers.ListField(child=serializers.CharField())
    issued_at = serializers.DateTimeField()
    deadline = serializers.DateTimeField()
    match_id = serializers.CharField(allow_null=True)


class LadderMoveSerializer(serializers.Serializer):
    step = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["challenge", "join", "leave"])
    number = serializers.IntegerField(allow_null=True)
    how = serializers.CharField(allow_blank=True, help_text="played, walkover, refused, lapsed, cancelled, withdrawal")
    text = serializers.CharField()
    player = serializers.IntegerField()
    opponent = serializers.IntegerField(allow_null=True)
    winner = serializers.IntegerField(allow_null=True)
    rungs = serializers.ListField(child=serializers.IntegerField(), help_text="[player's rung before, after]")
    score = serializers.ListField(child=serializers.IntegerField(), allow_null=True)


class LadderSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    version = serializers.IntegerField()
    reach = serializers.IntegerField()
    on_win = serializers.CharField()
    challenge_days = serializers.IntegerField()
    refused = serializers.CharField()
    unplayed = serializers.CharField()
    rungs = RungSerializer(many=True)
    open = ChallengeSerializer(many=True)
    history = LadderMoveSerializer(many=True)


class DivisionRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    zone = serializers.ChoiceField(choices=["promoted", "relegated", ""], allow_blank=True)


class DivisionSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    finished = serializers.BooleanField()
    rows = DivisionRowSerializer(many=True)


class RoundDeadlineSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    deadline = serializers.DateTimeField()
    open = serializers.IntegerField(help_text="matches of the round still to play")


class LeagueSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    version = serializers.IntegerField()
    previous = serializers.IntegerField(allow_null=True, help_text="the league event this season follows")
    promote = serializers.IntegerField()
    relegate = serializers.IntegerField()
    round_days = serializers.IntegerField()
    unplayed = serializers.CharField()
    starts_at = serializers.DateTimeField(allow_null=True)
    winner = serializers.IntegerField(allow_null=True)
    divisions = DivisionSerializer(many=True)
    rounds = RoundDeadlineSerializer(many=True)
