from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = _("Match analysis")

    def ready(self):
        from eventlog import projections

        from .projections import AnalysisProjection

        projections.register(AnalysisProjection())
