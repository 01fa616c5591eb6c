from django.urls import path

from . import api

# the event's averages (tournaments/<pk>/analysis/) are routed by deploy/urls.py, which knows events

urlpatterns = [
    path("matches/<str:stream_id>/analysis/", api.MatchAnalysisView.as_view(), name="match-analysis"),
    path("matches/<str:stream_id>/analysis/request/", api.MatchAnalysisRequest.as_view(), name="match-analysis-request"),
    path("players/<id:pk>/analysis/", api.PlayerAnalysisView.as_view(), name="player-analysis"),
    path("players/<id:pk>/fair-play/", api.PlayerFairPlayView.as_view(), name="player-fair-play"),
]
