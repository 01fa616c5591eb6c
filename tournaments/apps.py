from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Events")

    def ready(self):
        from eventlog import projections, upcasting
        from published import language, tournaments

        from . import events
        from .process import TournamentProcess
        from .projections import TournamentViewProjection

        # the tournament stream's types: how their older rows read, declared on each type, applied where the log is read
        upcasting.declare(language.upcasters(tournaments.FACTS))
        upcasting.declare(language.upcasters(events.EVENTS.values()))  # and the tournament's own
        # the process manager first: in one run of all, the view then reads the facts it appended
        projections.register(TournamentProcess())
        projections.register(TournamentViewProjection())
        from .ledger_projection import MoneyLedgerProjection

        projections.register(MoneyLedgerProjection())
        from .notices import MatchNotices

        projections.register(MatchNotices())
        from games import imports

        from .services import tournament_import_job

        imports.register_event_recorder(tournament_import_job)  # a director's big import, stored by the worker
        from eventlog import verification

        from . import judging

        # verify_log: every tournament stream folded from its first fact, each fact checked against the facts
        # before it by the decider's invariants (one it could not have decided is named)
        verification.register_judge(tournaments.STREAM_TYPE, judging.judge)
