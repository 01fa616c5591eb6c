from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = _("Seasons")

    def ready(self):
        from eventlog import projections

        from .projections import SeasonTablesProjection

        projections.register(SeasonTablesProjection())
        from eventlog import verification

        from . import decider

        # verify_log: every season stream folded by its decider's evolve from its first fact
        verification.register_judge(decider.STREAM_TYPE, lambda stream_id, rows: decider.fold(
            (row.event_type, row.payload) for row in rows))
