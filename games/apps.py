from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        from eventlog import projections

        from .projections import MatchSummaryProjection

        projections.register(MatchSummaryProjection())
