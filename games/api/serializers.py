from rest_framework import serializers

from games import limits
from games.models import MatchSummary
from games.services import COMMAND_TYPES


class MatchCreateSerializer(serializers.Serializer):
    player0 = serializers.IntegerField(help_text="Player id of the first player")
    player1 = serializers.IntegerField(help_text="Player id of the second player")
    length = serializers.IntegerField(
        min_value=0, max_value=limits.MAX_MATCH_LENGTH,
        help_text=f"Match length (odd, at most {limits.MAX_MATCH_LENGTH}: gnubg's Match ID holds 15 bits), "
                  "or 0 for an unlimited money session")
    tournament = serializers.IntegerField(required=False, allow_null=True)
    published = serializers.BooleanField(default=True)
    crawford = serializers.BooleanField(default=True)
    jacoby = serializers.BooleanField(default=False)
    beavers = serializers.BooleanField(default=False)
    raccoons = serializers.BooleanField(default=False)
    automatic_doubles = serializers.IntegerField(default=0, min_value=0, max_value=limits.MAX_AUTOMATIC_DOUBLES)
    cube_limit = serializers.IntegerField(
        default=0, min_value=0, max_value=limits.MAX_CUBE,
        help_text=f"A power of two; 0 = the platform's highest cube, {limits.MAX_CUBE} (gnubg's Match ID holds no more)")
    dice = serializers.ChoiceField(choices=["server", "board"], default="server",
                                   help_text="where every roll comes from, fixed for the match: the server's "
                                             "verifiable dice, or the players' own dice entered from the board")


class CommandSerializer(serializers.Serializer):
    """Documentation of a command's shape; the service validates it."""

    type = serializers.ChoiceField(choices=COMMAND_TYPES)
    expected_version = serializers.IntegerField(min_value=1)
    player = serializers.IntegerField(required=False, min_value=0, max_value=1)
    dice = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=6), min_length=2,
                                 max_length=2, required=False)
    move = serializers.CharField(required=False, allow_blank=True, max_length=limits.MAX_MOVE_TEXT)
    kind = serializers.ChoiceField(choices=["single", "gammon", "backgammon"], required=False)
    winner = serializers.IntegerField(required=False, min_value=0, max_value=1)
    score = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=limits.MAX_SCORE),
                                  min_length=2, max_length=2, required=False,
                                  help_text="correct_result: the final score; in a match to L points the winner "
                                            f"has at most L - 1 + {limits.MAX_GAME_POINTS}")
    reason = serializers.CharField(required=False, max_length=limits.MAX_REASON)


class MatchImportSerializer(serializers.Serializer):
    file = serializers.FileField(required=False)
    text = serializers.CharField(required=False, trim_whitespace=False)
    player0 = serializers.IntegerField(required=False)
    player1 = serializers.IntegerField(required=False)
    tournament = serializers.IntegerField(required=False, allow_null=True)


class MatchSummarySerializer(serializers.ModelSerializer):
    id = serializers.CharField(source="stream_id")

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["match_id"] = data.get("match_id") or None  # as the match's own state shows it: null where gnubg cannot write one
        return data

    class Meta:
        model = MatchSummary
        exclude = ["stream_id"]


class EventSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    global_position = serializers.IntegerField()
    type = serializers.CharField(source="event_type")
    schema_version = serializers.IntegerField()
    payload = serializers.JSONField()
    recorded_at = serializers.DateTimeField()
