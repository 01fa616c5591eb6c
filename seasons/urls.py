from django.urls import path

from . import api

urlpatterns = [
    path("seasons/", api.SeasonListOpen.as_view(), name="season-list"),
    path("seasons/<id:pk>/", api.SeasonDetail.as_view(), name="season-detail"),
    path("seasons/<id:pk>/commands/", api.SeasonCommands.as_view(), name="season-commands"),
]
