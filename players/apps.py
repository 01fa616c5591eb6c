from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = _("Players and clubs")

    def ready(self):
        from eventlog import projections

        from .projections import PlayerIdentityProjection

        projections.register(PlayerIdentityProjection())
