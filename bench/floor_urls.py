"""The product's URLs plus the floor: a minimal DRF endpoint that does one insert under the log's lock.

The floor is what any Django/DRF command endpoint pays on this machine: the same gunicorn, middleware,
authentication, throttles and PostgreSQL transaction (the advisory lock every append takes, one event row with
the next global position, the commit) and nothing of Crawford's own work (loading and judging the match, the
idempotency receipt, the answer). ``bench/api.py`` prints Crawford's figures against it.
"""

import json
import uuid

from django.db import connection, transaction
from django.urls import path
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from deploy.urls import urlpatterns as product_urlpatterns
from eventlog.store import APPEND_LOCK


class Floor(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def post(self, request):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [APPEND_LOCK])
            cursor.execute(
                "INSERT INTO eventlog_event (global_position, stream_id, stream_type, version, event_type, "
                "schema_version, payload, metadata, recorded_at) "
                "SELECT coalesce(max(global_position), 0) + 1, %s, 'bench-floor', 1, 'FloorTouched', 1, %s::jsonb, "
                "'{}'::jsonb, now() FROM eventlog_event RETURNING global_position",
                ["floor-" + uuid.uuid4().hex, json.dumps(request.data)],
            )
            position = cursor.fetchone()[0]
        return Response({"position": position})


urlpatterns = [path("bench/floor/", Floor.as_view()), *product_urlpatterns]
