# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

.PHONY: run test test-fast install messages bench bench-load bench-scale bench-events bench-hammer restore-drill clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[dev]"
	rm -f $(VENV)/.installed-* && touch $(STAMP)

install: $(STAMP)

# The embedded default: SQLite, tasks in-process, a demo club event, served on 127.0.0.1:8000.
# The settings default to production (DEBUG off, SECRET_KEY required): this local run turns DEBUG on and
# keeps a random key of its own in var/secret-key, made once per clone.
RUN_ENV = DEBUG=1 SECRET_KEY="$$(cat var/secret-key)"
run: $(STAMP)
	mkdir -p var
	test -s var/secret-key || $(BIN)/python -c "import secrets; print(secrets.token_urlsafe(50))" > var/secret-key
	scripts/install-gnubg.sh
	$(RUN_ENV) $(BIN)/python manage.py migrate --noinput
	$(RUN_ENV) $(BIN)/python manage.py load_demo
	$(RUN_ENV) $(BIN)/python manage.py runserver 127.0.0.1:8000

# The pure tests (the engine, the formats, the tournament's decider) first, in processes where importing Django
# fails (tests/pure.py); then the rest of the suite against real PostgreSQL and Redis with a live Celery worker
# (started when none answers). Both go through scripts/test-services.sh, which also installs gnubg, the pure run's
# oracle. Both in TEST_PROCESSES processes (pytest-xdist; a test file stays in one of them, each with its own
# test database and Redis database: tests/settings.py). PYTEST_ARGS go to the second run.
# The second run is in two tiers (tests/conftest.py): the system tier (`-m system`: a browser, a live worker, a
# server, a build, the import linter) and the rest; `make test` runs both in one run, the system tier's files first;
# `make test-fast` leaves the system tier out, for the edit-and-check loop (`make test` before landing).
PURE_TESTS := $(wildcard tests/games/engine tests/tournaments/formats tests/tournaments/decider tests/tournaments/test_decider*.py tests/seasons/scoring tests/tournaments/money)
TEST_PROCESSES ?= 2
PARALLEL = -n $(TEST_PROCESSES) --dist loadfile
MAIN_RUN = scripts/test-services.sh $(BIN)/python -m pytest $(addprefix --ignore=,$(PURE_TESTS)) $(PARALLEL)
# pytest compiles each test module (and the plugins' modules) again unless it may keep the result: with
# PYTHONDONTWRITEBYTECODE set (non-empty), every process of every run rewrites and compiles ~500 modules
test test-fast: export PYTHONDONTWRITEBYTECODE :=
test: $(STAMP)
	scripts/test-services.sh $(BIN)/python -m pytest -p no:django -p tests.pure $(PURE_TESTS) $(PARALLEL)
	$(MAIN_RUN) $(PYTEST_ARGS)

test-fast: $(STAMP)
	scripts/test-services.sh $(BIN)/python -m pytest -p no:django -p tests.pure $(PURE_TESTS) $(PARALLEL)
	$(MAIN_RUN) -m "not system" $(PYTEST_ARGS)

# The French catalogue after a string was wrapped or changed (needs GNU gettext: apt-get install gettext); the
# compiled .mo is committed so that no other machine needs it (deploy/locale/README.md)
messages: $(STAMP)
	DEBUG=1 SECRET_KEY=messages-only $(BIN)/python manage.py makemessages -l fr --no-obsolete -i tests -i bench -i scripts -i staticfiles -i var
	DEBUG=1 SECRET_KEY=messages-only $(BIN)/python manage.py makemessages -d djangojs -l fr --no-obsolete -i tests -i bench -i scripts -i staticfiles -i var -i '*.min.js'
	DEBUG=1 SECRET_KEY=messages-only $(BIN)/python manage.py compilemessages -l fr --ignore=.venv

bench: $(STAMP)
	$(BIN)/python bench/engine.py

# 64 matches recorded through the API (gunicorn, Celery worker, PostgreSQL, Redis db 13) while 50 readers poll;
# then every stream re-judged and every projection compared with a rebuild. BENCH_ARGS="--seconds 900" to finish them all.
bench-load: $(STAMP)
	$(BIN)/python bench/load.py $(BENCH_ARGS)

# Scale-out (docs/operations.md "Scaling out"): two gunicorn nodes, two Celery workers and one beat, reaching a throwaway
# PostgreSQL through PgBouncer in transaction mode, the anonymous reads on its streaming replica (scripts/pg_clusters.py,
# as deploy/compose.yaml runs them); worker 1 SIGKILLed 10 s into the recording and started again 3 s later, 24 5-point
# matches played to their end (long enough that the kill happens while they are played: a run that ends before it
# fails); then bench-load's checks, and the replica caught up and serving reads. The PgBouncer is 1.21 or later, which
# carries the services' prepared statements: the PATH's, else one scripts/install-pgbouncer.sh builds once.
# Redis as for the tests (scripts/test-services.sh: the local server, or a throwaway one).
SCALE_ARGS ?= --pooler --replica --nodes 2 --gunicorn-workers 2 --workers 2 --beat 30 --kill-worker 10 --matches 24 --length 5 --readers 24 --seconds 900
bench-scale: $(STAMP)
	scripts/test-services.sh $(BIN)/python bench/load.py $(SCALE_ARGS) $(BENCH_ARGS)

# The backup drill (docs/operations.md "Backups"): a throwaway cluster archiving its WAL, a base backup, commands,
# a point-in-time restore, every projection rebuilt and compared; prints the recovery time. DRILL_ARGS="--after 500".
# `make test` runs it too, smaller (tests/system/test_restore_drill.py).
restore-drill: $(STAMP)
	$(BIN)/python scripts/restore_drill.py $(DRILL_ARGS)

# Append throughput and a full rebuild of every projection over a log of 1,000,000 events (~15 min).
bench-events: $(STAMP)
	$(BIN)/python bench/events.py $(BENCH_ARGS)

# The largest importable match hammered by 12 anonymous clients on loopback (~1 min); exit 1 if a bystander's
# API read passes 1 s at p99. BENCH_ARGS="--seconds 60 --clients 12".
bench-hammer: $(STAMP)
	$(BIN)/python bench/hammer.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) var staticfiles
