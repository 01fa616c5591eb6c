from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        from eventlog import projections

        from .projections import TournamentViewProjection

        projections.register(TournamentViewProjection())
