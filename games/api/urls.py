from django.urls import path

from . import chouettes, online, views

urlpatterns = [
    path("chouettes/", chouettes.ChouetteOpen.as_view(), name="chouette-open"),
    path("chouettes/<str:stream_id>/", chouettes.ChouetteDetail.as_view(), name="chouette-detail"),
    path("chouettes/<str:stream_id>/commands/", chouettes.ChouetteCommands.as_view(), name="chouette-commands"),
    path("challenges/", online.Challenges.as_view(), name="challenges"),
    path("challenges/<id:pk>/accept/", online.ChallengeAccept.as_view(), name="challenge-accept"),
    path("challenges/<id:pk>/decline/", online.ChallengeDecline.as_view(), name="challenge-decline"),
    path("matches/", views.MatchListCreate.as_view(), name="match-list"),
    path("matches/import/", views.MatchImport.as_view(), name="match-import"),
    path("imports/<id:pk>/", views.ImportJobView.as_view(), name="import-job"),
    path("exports/<id:pk>/", views.ExportJobView.as_view(), name="export-job"),
    path("matches/<str:stream_id>/", views.MatchDetail.as_view(), name="match-detail"),
    path("matches/<str:stream_id>/commands/", views.MatchCommands.as_view(), name="match-commands"),
    path("matches/<str:stream_id>/events/", views.MatchEvents.as_view(), name="match-events"),
    path("matches/<str:stream_id>/presence/", online.MatchPresence.as_view(), name="match-presence"),
    path("matches/<str:stream_id>/dice/", views.MatchDice.as_view(), name="match-dice"),
    path("matches/<str:stream_id>/games/", views.MatchGames.as_view(), name="match-games"),
    path("matches/<str:stream_id>/export.mat", views.MatchExport.as_view(), name="match-export"),
]
