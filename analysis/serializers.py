from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from .models import Decision, MatchAnalysis, PlayerFigures


class DecisionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Decision
        fields = ["game", "turn", "version", "player", "kind", "dice", "played", "best", "equity_played",
                  "equity_best", "loss", "verdict"]


class PlayerFiguresSerializer(serializers.ModelSerializer):
    class Meta:
        model = PlayerFigures
        fields = ["side", "player_id", "name", "unforced_moves", "chequer_error", "chequer_rate", "chequer_rating",
                  "close_cube", "cube_error", "cube_rate", "cube_rating", "overall_rate", "overall_rating",
                  "performance_rating", "luck", "marked_doubtful", "marked_bad", "marked_very_bad"]


class MatchAnalysisSerializer(serializers.ModelSerializer):
    """Equities and losses in EMG (gnubg's normalised equity); rates in mEMG per decision, as gnubg prints them."""

    match = serializers.CharField(source="stream_id")
    engine = serializers.SerializerMethodField()
    players = PlayerFiguresSerializer(source="figures", many=True)
    decisions = DecisionSerializer(many=True)
    decisions_done = serializers.IntegerField(
        help_text="while queued or running: the decisions of the games analysed so far (done: all of them)")
    decisions_total = serializers.IntegerField(
        help_text="the match's decisions (checker plays with a choice, cube decisions), counted from its events "
                  "when the run starts (0 until then); the number of `decisions` once done")

    unfinished = serializers.SerializerMethodField(
        help_text="the match had not ended where the analysis read it (an import that stops mid-game, an abandoned "
                  "match, one still played): analysed up to there")
    deeper = serializers.SerializerMethodField(
        help_text="the deeper analysis that will replace this one when it is done ({plies, status}), or null")

    class Meta:
        model = MatchAnalysis
        fields = ["match", "plies", "status", "decisions_done", "decisions_total", "games_done", "games", "engine",
                  "unfinished", "deeper", "attempts", "error", "seconds",
                  "finished_at", "players",
                  "decisions"]

    @extend_schema_field({"type": "object", "nullable": True,
                          "properties": {"plies": {"type": "integer"}, "status": {"type": "string"}}})
    def get_deeper(self, row) -> dict | None:
        deeper = getattr(row, "deeper", None)
        return {"plies": deeper.plies, "status": deeper.status} if deeper is not None else None

    def get_unfinished(self, row) -> bool:
        return not row.match_finished

    def get_engine(self, row) -> str:
        return f"GNU Backgammon, {row.plies}-ply"


class HistoryPointSerializer(serializers.Serializer):
    match = serializers.CharField()
    opponent = serializers.CharField(allow_blank=True, help_text="the other player's name in that match")
    ended_at = serializers.DateTimeField(allow_null=True)
    plies = serializers.IntegerField()
    unfinished = serializers.BooleanField(help_text="the match stopped before its end: analysed up to there")
    chequer_rate = serializers.FloatField()
    cube_rate = serializers.FloatField()
    overall_rate = serializers.FloatField()
    performance_rating = serializers.FloatField()
    luck = serializers.FloatField()
    overall_rating = serializers.CharField()


class PooledFiguresSerializer(serializers.Serializer):
    """A player's figures over several analysed matches, pooled as eXtreme Gammon pools them: the total error over
    the total decisions (a long match weighs by its decisions), never a mean of the matches' rates."""

    matches = serializers.IntegerField(help_text="the analysed matches pooled")
    unforced_moves = serializers.IntegerField(help_text="their unforced moves, summed")
    close_cube = serializers.IntegerField(help_text="their close or actual cube decisions, summed")
    chequer_rate = serializers.FloatField(help_text="1000 × total checker-play error ÷ total unforced moves (mEMG)")
    cube_rate = serializers.FloatField(help_text="1000 × total cube error ÷ total close cube decisions (mEMG)")
    overall_rate = serializers.FloatField(help_text="1000 × total error ÷ total decisions (mEMG)")
    overall_rating = serializers.CharField(help_text="gnubg's word for overall_rate, by its own thresholds")
    performance_rating = serializers.FloatField(help_text="PR on eXtreme Gammon's scale: overall_rate ÷ 2")
    luck = serializers.FloatField(help_text="the mean luck per match (EMG)")


class PlayerAnalysisSerializer(serializers.Serializer):
    pooled = PooledFiguresSerializer(allow_null=True,
                                     help_text="the figures over all the matches listed (null: none analysed)")
    matches = HistoryPointSerializer(many=True, help_text="the analysed matches, oldest first")


class EventAverageSerializer(PooledFiguresSerializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()


class _FairPlayField(serializers.Serializer):
    online = PooledFiguresSerializer(allow_null=True, help_text="every analysed player's figures online, pooled")
    board = PooledFiguresSerializer(allow_null=True, help_text="every analysed player's figures at the board, pooled")


class _FairPlayFlag(serializers.Serializer):
    raised = serializers.BooleanField(help_text="for a person to review: never a finding")
    decisions = serializers.DictField(child=serializers.IntegerField(), help_text="the player's decisions online "
                                                                                  "and at the board")
    share = serializers.FloatField(allow_null=True, help_text="the online error rate over the rate at the board")
    min_decisions = serializers.IntegerField(help_text="the decisions each side needs for a flag")
    max_share = serializers.FloatField(help_text="the share at or below which the flag is raised")


class FairPlaySerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    online = PooledFiguresSerializer(allow_null=True, help_text="the player's figures over their online matches")
    board = PooledFiguresSerializer(allow_null=True, help_text="the player's figures over their matches at the "
                                                               "board")
    field = _FairPlayField()
    flag = _FairPlayFlag()
    limits = serializers.CharField(help_text="what the flag can and cannot say")
