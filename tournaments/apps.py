from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Events")

    def ready(self):
        from eventlog import projections, upcasting

        from . import events
        from .process import TournamentProcess
        from .projections import TournamentViewProjection

        upcasting.register(stream_type=events.STREAM_TYPE, event_type="ResultCorrected", schema_version=1,
                           becomes="SlotResultCorrected")(
            lambda payload: upcasting.Upcast(*events.upcast_result_corrected(payload)))
        # the process manager first: in one run of all, the view then reads the facts it appended
        projections.register(TournamentProcess())
        projections.register(TournamentViewProjection())
        from .notices import MatchNotices

        projections.register(MatchNotices())
        from games import imports

        from .services import tournament_import_job

        imports.register_event_recorder(tournament_import_job)  # a director's big import, stored by the worker
