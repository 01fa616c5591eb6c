from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Matches")

    def ready(self):
        from eventlog import projections, upcasting
        from published import language, matches

        from . import streams
        from .projections import MatchSummaryProjection

        # the match stream's types: how their older rows read, declared on each type, applied where the log is read
        upcasting.declare(language.upcasters(matches.FACTS))
        upcasting.declare(streams.engine_upcasters())

        projections.register(MatchSummaryProjection())
        from eventlog import verification

        from .rejudging import judge_match_stream

        verification.register_judge(streams.STREAM_TYPE, judge_match_stream)
        from . import chouettes

        verification.register_judge(chouettes.STREAM_TYPE, chouettes.judge_chouette_stream)
