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
