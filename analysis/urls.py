from django.urls import path

from . import api

urlpatterns = [
    path("matches/<str:stream_id>/analysis/", api.MatchAnalysisView.as_view(), name="match-analysis"),
    path("matches/<str:stream_id>/analysis/request/", api.MatchAnalysisRequest.as_view(), name="match-analysis-request"),
    path("players/<int:pk>/analysis/", api.PlayerAnalysisView.as_view(), name="player-analysis"),
    path("tournaments/<int:pk>/analysis/", api.EventAnalysisView.as_view(), name="event-analysis"),
]
