"""`make run`'s embedded default, as a newcomer gets it: SQLite, no broker, tasks in-process, the demo loaded.

The rest of the suite runs on PostgreSQL, so what only SQLite meets (a projection writing with PostgreSQL's
COPY, say) is caught here: every projection must take the whole demo without setting a stream aside. The same
default served and used, signed in, in a browser: tests/system/test_make_run_in_a_browser.py."""

import json
import os
import subprocess
import sys

from tests.conftest import ROOT

PROBE = """
import json
from eventlog.models import Event, ProjectionFailure
from games.models import MatchSummary
from ratings.models import PlayerRating, RatingChange
from seasons.models import SeasonScore, SeasonStanding
print("PROBE" + json.dumps({
    "events": Event.objects.count(),
    "failures": [f"{f.projection}: {f.error}" for f in ProjectionFailure.objects.all()],
    "finished": MatchSummary.objects.filter(finished=True).count(),
    "rated_players": PlayerRating.objects.count(),
    "rating_changes": RatingChange.objects.count(),
    "rated_results": RatingChange.objects.values("match_key").distinct().count(),
    "season_rows": SeasonStanding.objects.count(),
    "season_versions": sorted(set(SeasonScore.objects.values_list("rule_version", flat=True))),
}))
"""

# Ids past what a row can hold (a bigint), asked for on every route that names a row by its id and in the queries
# and bodies that take one: SQLite cannot bind such a number at all (PostgreSQL compares it as a numeric)
ROW_IDS_PROBE = """
import json, re
from django.contrib.auth import get_user_model
from django.test import Client
from django.test.utils import setup_test_environment
from django.urls import get_resolver
from tournaments.models import Tournament
setup_test_environment()

def routes(patterns, prefix=""):
    for p in patterns:
        if hasattr(p, "url_patterns"):
            yield from routes(p.url_patterns, prefix + str(p.pattern))
        else:
            yield prefix + str(p.pattern)

by_id = sorted({r for r in routes(get_resolver().url_patterns) if "<id:" in r})
event = "/events/%d/" % Tournament.objects.order_by("pk").first().pk
answers = {}
users = {"director": get_user_model().objects.get(username="director"),
         "staff": get_user_model().objects.create_superuser("row-ids-probe", password=None)}
for who in ("anonymous", "director", "staff"):
    client = Client(raise_request_exception=False)
    if who in users:
        client.force_login(users[who])
    for route in by_id:
        for number in (str(2**63), str(10**23)):
            path = re.sub(r"<\\w+:\\w+>", "x", "/" + re.sub(r"<id:\\w+>", number, route))
            answers[who + " " + path] = client.get(path).status_code
    for path in ("/api/ratings/?club=" + str(10**23), "/ratings/?club=" + str(10**23), event):
        answers[who + " " + path] = client.get(path).status_code
    for body in ({"player0": 2**63, "player1": 1, "text": "1 point match"},
                 {"player0": 1, "player1": 10**23, "length": 1}):
        where = "/api/matches/import/" if "text" in body else "/api/matches/"
        answers[who + " POST " + where] = client.post(where, body, content_type="application/json").status_code
print("PROBE" + json.dumps({"routes": len(by_id), "event": event, "answers": answers}))
"""


def test_the_demo_loads_on_sqlite_with_every_projection_whole(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'crawford.sqlite3'}", CRAWFORD_VAR_DIR=str(tmp_path),
               DEBUG="1", SECRET_KEY="embedded-run-test-" + "k" * 40, DJANGO_SETTINGS_MODULE="deploy.settings")

    def manage(*args, env=env):
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=600)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        return done.stdout + done.stderr

    manage("migrate", "--noinput")
    loaded = manage("load_demo")
    assert "Traceback" not in loaded and "set aside" not in loaded, loaded[-3000:]
    # kombu's warning for a broker URL without a host (Celery takes a producer even to run a task in-process)
    assert "No hostname was supplied" not in loaded, loaded[-3000:]
    out = manage("shell", "-c", PROBE)
    facts = json.loads(next(line for line in out.splitlines() if line.startswith("PROBE"))[len("PROBE"):])
    assert facts["failures"] == []
    assert facts["finished"] >= 5
    # every result rated once, for both players: the club night's matches and the demo season's paper results
    assert facts["rated_players"] >= 8 and facts["rating_changes"] == 2 * facts["rated_results"]
    assert facts["rated_results"] >= facts["finished"]
    # the demo season: a table of the eight members, scored by both rule versions (seasons/demo.py)
    assert facts["season_rows"] == 8 and facts["season_versions"] == [1, 2]

    # the hash chain on SQLite: whole, every stream re-judged; and the log carried to another (empty) database
    # with its hashes, the same head
    checked = manage("verify_log")
    assert "the log checks out" in checked, checked[-3000:]
    head = next(line for line in checked.splitlines() if "head hash" in line).split("head hash ")[1]
    manage("export_log", str(tmp_path / "log.jsonl"))
    other = dict(env, DATABASE_URL=f"sqlite:///{tmp_path / 'other.sqlite3'}")
    manage("migrate", "--noinput", env=other)
    manage("import_log", str(tmp_path / "log.jsonl"), env=other)
    assert f"head hash {head}" in manage("verify_log", env=other)

    # an id no row can have: no such page (404) or a refused body (400), never a server error
    out = manage("shell", "-c", ROW_IDS_PROBE)
    probe = json.loads(next(line for line in out.splitlines() if line.startswith("PROBE"))[len("PROBE"):])
    answers = probe["answers"]
    assert probe["routes"] >= 30
    for asked, status in answers.items():
        who, path = asked.split(" ", 1)
        if path.startswith("POST "):
            assert status == (403 if who == "anonymous" else 400), (asked, status)
        elif "?club=" in path or path == probe["event"]:
            assert status == 200, (asked, status)  # a club no one is in: an empty list; the demo's event is shown
        elif path.startswith("/admin/"):  # to its login, or (staff) to its index saying no such event exists
            assert status == 302, (asked, status)
        else:
            assert status == 404, (asked, status)
