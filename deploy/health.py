"""``/api/health/``: is every projection keeping up, has any stream been set aside, which analyses are dead letters?

Open to monitoring without credentials: the status and the counts. Officials (players/authority.py)
also get each failure (projection, stream, position, error), as in the admin. Always 200 while the
site answers: "degraded" is for a person to look at, not a reason for a load balancer to stop
sending traffic.
"""

from __future__ import annotations

from django.db.models import Count
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from analysis.models import MatchAnalysis
from eventlog import projections, verification
from eventlog.models import ProjectionCheckpoint, ProjectionFailure
from players import authority

MAX_LISTED = 50


class ProjectionHealthSerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text="the last event applied (its global position)")
    behind = serializers.IntegerField(help_text="events in the log after it")
    streams_set_aside = serializers.IntegerField(help_text="streams this projection skipped after failing on them")


class ProjectionFailureSerializer(serializers.Serializer):
    projection = serializers.CharField()
    stream_id = serializers.CharField()
    global_position = serializers.IntegerField()
    event_type = serializers.CharField()
    error = serializers.CharField()
    skipped = serializers.BooleanField()
    failed_at = serializers.DateTimeField()


class AnalysesHealthSerializer(serializers.Serializer):
    queued = serializers.IntegerField()
    running = serializers.IntegerField()
    failed = serializers.IntegerField(help_text="dead letters: never tried again until a person asks")


class AnalysisFailureSerializer(serializers.Serializer):
    match = serializers.CharField()
    plies = serializers.IntegerField()
    attempts = serializers.IntegerField()
    error = serializers.CharField()


class HealthSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "degraded"])
    log_position = serializers.IntegerField(help_text="the newest event's global position (0: an empty log)")
    log_head_hash = serializers.CharField(
        help_text="the newest event's chain hash (eventlog/chain.py): a copy kept elsewhere shows later that "
                  "nothing up to it was edited (manage.py verify_log)")
    projections = serializers.DictField(child=ProjectionHealthSerializer(), help_text="by projection name")
    failures = ProjectionFailureSerializer(many=True, required=False, help_text="officials only: newest first")
    analyses = AnalysesHealthSerializer(help_text="gnubg's analyses by status")
    analysis_failures = AnalysisFailureSerializer(many=True, required=False,
                                                  help_text="officials only: the dead letters, newest first")


class Health(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: HealthSerializer},
                   description="Projections' positions and set-aside streams; the failures' details for officials.")
    def get(self, request):
        top, head_hash = verification.head()
        positions = dict(ProjectionCheckpoint.objects.values_list("name", "position"))
        counts: dict[str, int] = {}
        for name in ProjectionFailure.objects.values_list("projection", flat=True):
            counts[name] = counts.get(name, 0) + 1
        body = {
            "status": "degraded" if counts else "ok",
            "log_position": top,
            "log_head_hash": head_hash,
            "projections": {
                name: {"position": positions.get(name, 0), "behind": max(0, top - positions.get(name, 0)),
                       "streams_set_aside": counts.get(name, 0)}
                for name in sorted(projections.registered())
            },
            "analyses": _analyses(),
        }
        if authority.officiates_everything(request.user):
            body["failures"] = [
                {"projection": f.projection, "stream_id": f.stream_id, "global_position": f.global_position,
                 "event_type": f.event_type, "error": f.error[:500], "skipped": f.skipped,
                 "failed_at": f.failed_at.isoformat()}
                for f in ProjectionFailure.objects.order_by("-failed_at")[:MAX_LISTED]
            ]
            body["analysis_failures"] = [
                {"match": a.stream_id, "plies": a.plies, "attempts": a.attempts, "error": a.error[:500]}
                for a in MatchAnalysis.objects.filter(status=MatchAnalysis.FAILED).order_by("-pk")[:MAX_LISTED]
            ]
        return Response(body)


def _analyses() -> dict:
    counts = dict(MatchAnalysis.objects.filter(status__in=[MatchAnalysis.QUEUED, MatchAnalysis.RUNNING,
                                                           MatchAnalysis.FAILED])
                  .values_list("status").annotate(n=Count("pk")))
    return {status: counts.get(status, 0) for status in (MatchAnalysis.QUEUED, MatchAnalysis.RUNNING,
                                                          MatchAnalysis.FAILED)}
