from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    name = "seasons"

    def ready(self):
        from eventlog import projections

        from .projections import SeasonTablesProjection

        projections.register(SeasonTablesProjection())
