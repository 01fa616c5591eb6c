"""The shapes of the seasons API: its answers (``seasons/selectors.py`` builds them) and the director's commands."""

from rest_framework import serializers

from . import decider


class SeasonRowSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=list(decider.KINDS))
    club_id = serializers.IntegerField(allow_null=True)


class RuleVersionSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    effective_from = serializers.DateField(help_text="the events dated on or after it are scored by this version")
    rule = serializers.JSONField(help_text="the rule as published at /seasons/rules/: components and best N")


class SeasonEventSerializer(serializers.Serializer):
    tournament_id = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    on = serializers.DateField(help_text="the event's date in the season (it picks the rule version)")
    finished = serializers.BooleanField(help_text="an event gives points once it has its winner")
    rated = serializers.BooleanField(help_text="an unrated event gives no points")
    published = serializers.BooleanField(help_text="a hidden event gives no points until it is published; it is "
                                                   "listed only to those who run the season")
    field_size = serializers.IntegerField()
    rule_version = serializers.IntegerField(allow_null=True, help_text="the version that scored it")


class SeasonChouetteSerializer(serializers.Serializer):
    chouette_id = serializers.CharField()
    on = serializers.DateField(help_text="the night's date in the season (it picks the rule version)")
    players = serializers.DictField(child=serializers.IntegerField(), help_text="name on its sheet -> player id")
    games = serializers.IntegerField(help_text="games on its sheet: a night gives points once it has one")
    rule_version = serializers.IntegerField(allow_null=True)


class SeasonScoreSerializer(serializers.Serializer):
    tournament_id = serializers.IntegerField(allow_null=True, help_text="null: a chouette night's")
    chouette_id = serializers.CharField(required=False, help_text="a chouette night's session (its scores only)")
    points = serializers.FloatField()
    rule_version = serializers.IntegerField()
    counted = serializers.BooleanField(help_text="among the player's best N events (the rule's 'best')")


class SeasonTableRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="equal totals share a place")
    player_id = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    total = serializers.FloatField()
    events = serializers.IntegerField(help_text="finished events of the season the player took part in")
    scores = SeasonScoreSerializer(many=True)


class SeasonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=list(decider.KINDS))
    club = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField(help_text="the season stream's version (expected_version of a command)")
    rules = RuleVersionSerializer(many=True)
    events = SeasonEventSerializer(many=True)
    chouettes = SeasonChouetteSerializer(many=True, help_text="the chouette nights the club counts")
    table = SeasonTableRowSerializer(many=True)


class SeasonOpenSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=160)
    kind = serializers.ChoiceField(choices=list(decider.KINDS), default="season")
    club = serializers.IntegerField(required=False, allow_null=True)
    rule = serializers.JSONField(required=False, help_text="the first rule (see /seasons/rules/)")
    effective_from = serializers.DateField(required=False, help_text="with 'rule': from when it applies")


class SeasonCommandSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["add_event", "remove_event", "set_rule", "add_chouette",
                                            "remove_chouette"])
    chouette = serializers.CharField(required=False, max_length=64,
                                     help_text="add_chouette, remove_chouette: the chouette session's id")
    players = serializers.DictField(child=serializers.IntegerField(min_value=1), required=False,
                                    help_text="add_chouette: name on its sheet -> player id (a name left out counts "
                                              "for nobody)")
    tournament = serializers.IntegerField(required=False, help_text="add_event, remove_event: the event")
    on = serializers.DateField(required=False, help_text="add_event: its date (default: its start date, else today); "
                                                         "add_chouette: the night's (default: today)")
    rule = serializers.JSONField(required=False, help_text="set_rule: the new version of the rule")
    effective_from = serializers.DateField(required=False, help_text="set_rule: from when it applies")
    expected_version = serializers.IntegerField(required=False, min_value=0)

    def validate(self, data):
        need = {"add_event": ("tournament",), "remove_event": ("tournament",), "set_rule": ("rule", "effective_from"),
                "add_chouette": ("chouette", "players"), "remove_chouette": ("chouette",)}
        missing = [f for f in need[data["type"]] if f not in data]
        if missing:
            raise serializers.ValidationError({f: f"{data['type']} needs it" for f in missing})
        return data


class SeasonCommandAnswerSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="the season stream's version after the command")
