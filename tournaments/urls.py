from django.urls import path

from . import api

urlpatterns = [
    path("tournaments/", api.TournamentListCreate.as_view(), name="tournament-list"),
    path("tournaments/<id:pk>/", api.TournamentDetail.as_view(), name="tournament-detail"),
    path("tournaments/<id:pk>/settings/", api.TournamentSettings.as_view(), name="tournament-settings"),
    path("tournaments/<id:pk>/money/", api.TournamentMoney.as_view(), name="tournament-money"),
    path("tournaments/<id:pk>/commands/", api.TournamentCommands.as_view(), name="tournament-commands"),
    path("tournaments/<id:pk>/ladder/", api.TournamentLadder.as_view(), name="tournament-ladder"),
    path("tournaments/<id:pk>/league/", api.TournamentLeague.as_view(), name="tournament-league"),
    path("tournaments/<id:pk>/teams/", api.TournamentTeams.as_view(), name="tournament-teams"),
    path("tournaments/<id:pk>/matches/", api.TournamentMatches.as_view(), name="tournament-matches"),
    path("tournaments/<id:pk>/members/import/", api.TournamentMemberImport.as_view(),
         name="tournament-member-import"),
    path("tournaments/<id:pk>/slots/<str:slot>/proof/", api.SlotProof.as_view(), name="tournament-slot-proof"),
    path("tournaments/<id:pk>/slots/<str:slot>/proof/consent/", api.SlotProofConsent.as_view(),
         name="tournament-slot-proof-consent"),
    path("tournaments/<id:pk>/slots/<str:slot>/proof/decline/", api.SlotProofDecline.as_view(),
         name="tournament-slot-proof-decline"),
    path("tournaments/<id:pk>/matches/import/", api.TournamentMatchImport.as_view(), name="tournament-match-import"),
]
