# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

.PHONY: run test install bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[dev]"
	rm -f $(VENV)/.installed-* && touch $(STAMP)

install: $(STAMP)

# The embedded default: SQLite, tasks in-process, a demo club event, served on 127.0.0.1:8000.
run: $(STAMP)
	mkdir -p var
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

# The whole suite against real PostgreSQL and Redis with a live Celery worker (started when none answers).
test: $(STAMP)
	scripts/test-services.sh $(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) var staticfiles
