"""The shapes of the ratings API's answers (ratings/selectors.py builds them), for the OpenAPI document."""

from rest_framework import serializers


class RatingRowSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.FloatField()
    experience = serializers.IntegerField(help_text="match points played in rated matches (FIBS' experience)")
    matches = serializers.IntegerField(help_text="rated matches played")
    provisional = serializers.BooleanField(help_text="too little experience yet: the rating moves faster")


class RatingChangeSerializer(serializers.Serializer):
    match = serializers.CharField(help_text="the rated result: a match stream, or an event's slot tournament-<pk>:<slot>")
    match_id = serializers.CharField(allow_null=True, help_text="a match one can open, if there is one")
    tournament_id = serializers.IntegerField(allow_null=True)
    seq = serializers.IntegerField(help_text="the global position of the event that rated it")
    date = serializers.DateTimeField(allow_null=True)
    opponent_id = serializers.IntegerField(allow_null=True)
    opponent = serializers.CharField(allow_blank=True)
    won = serializers.BooleanField()
    length = serializers.IntegerField(help_text="the match length in points")
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    experience_after = serializers.IntegerField()


class PlayerRatingsSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.FloatField()
    experience = serializers.IntegerField()
    provisional = serializers.BooleanField()
    history = RatingChangeSerializer(many=True, help_text="oldest first, one page of it (the next in the Link header)")
