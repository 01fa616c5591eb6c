from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"

    def ready(self):
        from eventlog import projections

        from .projections import RatingsProjection

        projections.register(RatingsProjection())
