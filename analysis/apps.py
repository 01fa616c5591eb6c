from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = _("Match analysis")

    def ready(self):
        from eventlog import projections

        from .projections import AnalysisProjection

        projections.register(AnalysisProjection())

        from django.core.signals import request_started

        from . import background

        request_started.connect(background.on_request, dispatch_uid="crawford-analyses-in-the-background")
