from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = _("Seasons")

    def ready(self):
        from eventlog import projections

        from .projections import SeasonTablesProjection

        projections.register(SeasonTablesProjection())
