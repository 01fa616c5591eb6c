from django.urls import path

from . import api

urlpatterns = [
    path("ratings/", api.RatingList.as_view(), name="rating-list"),
    path("players/<id:player_id>/ratings/", api.PlayerRatingHistory.as_view(), name="player-ratings"),
]
