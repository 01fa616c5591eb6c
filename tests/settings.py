"""The test run's settings: deploy.settings with the two values production never defaults.

Set in the environment, not only here, so the processes the tests start (the Celery worker, gunicorn,
manage.py) get them too; a test that wants production's behaviour sets DEBUG=0 and its own key.
"""

import os

os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("SECRET_KEY", "tests-only-not-secret-" + "k" * 40)
# one analysis at 0-ply (a second of gnubg a match, not production's 0-ply then 2-ply, 20 s more): the tests of
# the two depths (tests/analysis/test_depths.py) set them
os.environ.setdefault("ANALYSIS_PLIES", "0")
os.environ.setdefault("ANALYSIS_QUICK_PLIES", "0")

# pytest-xdist: each test process (gw0, gw1…) has a database of its own (pytest-django names it) and a Redis
# database of its own, the broker its worker listens on: gwN takes REDIS_URL's number minus N. Done once, in the
# test process; the worker and the servers it starts inherit the result (and the flag).
if os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get("REDIS_URL") and not os.environ.get("CRAWFORD_REDIS_SPLIT"):
    from urllib.parse import urlparse

    _url = urlparse(os.environ["REDIS_URL"])
    _db = (int(_url.path.strip("/") or 0) - int(os.environ["PYTEST_XDIST_WORKER"].removeprefix("gw"))) % 16
    os.environ["REDIS_URL"] = _url._replace(path=f"/{_db}").geturl()
    os.environ["CRAWFORD_REDIS_SPLIT"] = "1"

from deploy.settings import *  # noqa: E402,F403

# the tests' directors create events of their own without a club: the site allows members' casual events
# (production's default is off; tests/tournaments/test_who_may_create.py checks both)
CASUAL_EVENTS = True

# the suite sends thousands of requests from one address in a minute: the throttles are tested on their own
# (tests/deploy/test_bounded_answers.py) with the production rates set there; the counts stay in this process
API_THROTTLE_RATES = {"anon": "1000000/minute", "user": "1000000/minute"}
PDF_THROTTLE_RATE = "1000000/minute"  # tests/seasons/test_printed_once.py sets its own
IMPORT_GAMES_RATE = "1000000/hour"  # tests/games/test_big_imports.py sets its own
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
API_THROTTLE_STORAGE = "memory://"  # tests/deploy/test_throttles.py counts on the test's Redis too

# PBKDF2's million rounds are for attackers, not for the hundreds of test users; set here, not in a fixture,
# so the processes the tests start (the Celery worker, gunicorn) hash as fast as the test process
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The test databases are thrown away: a commit need not wait for the disk (PostgreSQL's synchronous_commit, set per
# session here, so for every process the suite starts with these settings; what other sessions see is unchanged);
# a transactional test's flush deletes the rows rather than truncating every table (tests/postgresql/base.py)
if DATABASES["default"]["ENGINE"] == "deploy.postgresql":  # noqa: F405
    DATABASES["default"]["ENGINE"] = "tests.postgresql"  # noqa: F405
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"  # noqa: F405

# the replica's alias as production has it with DATABASE_REPLICA_URL set (deploy/replica.py), a mirror of the
# test database: present always, routed to only where a test turns the router on (tests/deploy/test_replica_router.py)
if "replica" not in DATABASES:  # noqa: F405
    import copy

    DATABASES["replica"] = copy.deepcopy(DATABASES["default"])  # noqa: F405
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}  # noqa: F405

# the e-mails the live Celery worker sends land in files the test reads (the test process itself uses Django's
# locmem outbox): one folder per Redis database, so engineers' runs on one machine keep apart
from pathlib import Path as _Path  # noqa: E402

EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
EMAIL_FILE_PATH = str(_Path(__file__).resolve().parents[1] / "var" / "test-mail"
                      / (os.environ.get("REDIS_URL", "").rsplit("/", 1)[-1] or "embedded"))
