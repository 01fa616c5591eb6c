from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Matches")

    def ready(self):
        from eventlog import projections

        from .projections import MatchSummaryProjection

        projections.register(MatchSummaryProjection())
