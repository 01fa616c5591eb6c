from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "analysis"

    def ready(self):
        from eventlog import projections

        from .projections import AnalysisProjection

        projections.register(AnalysisProjection())
