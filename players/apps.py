from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"

    def ready(self):
        from eventlog import projections

        from .projections import PlayerIdentityProjection

        projections.register(PlayerIdentityProjection())
