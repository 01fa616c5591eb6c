"""The test run's settings: deploy.settings with the two values production never defaults.

Set in the environment, not only here, so the processes the tests start (the Celery worker, gunicorn,
manage.py) get them too; a test that wants production's behaviour sets DEBUG=0 and its own key.
"""

import os

os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("SECRET_KEY", "tests-only-not-secret-" + "k" * 40)

from deploy.settings import *  # noqa: E402,F403

# the tests' directors create events of their own without a club: the site allows members' casual events
# (production's default is off; tests/tournaments/test_who_may_create.py checks both)
CASUAL_EVENTS = True

# the suite sends thousands of requests from one address in a minute: the throttles are tested on their own
# (tests/deploy/test_bounded_answers.py) with the production rates set there; the counts stay in this process
API_THROTTLE_RATES = {"anon": "1000000/minute", "user": "1000000/minute"}
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# PBKDF2's million rounds are for attackers, not for the hundreds of test users; set here, not in a fixture,
# so the processes the tests start (the Celery worker, gunicorn) hash as fast as the test process
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
