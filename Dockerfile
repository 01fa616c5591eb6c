# The image of every Crawford process: gunicorn nodes, Celery workers, beat, migrations (deploy/compose.yaml
# runs it five ways). The code lives where the systemd units expect it, /srv/crawford, and runs as a plain user.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_SETTINGS_MODULE=deploy.settings \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN useradd --system --home-dir /srv/crawford crawford
WORKDIR /srv/crawford

# the dependencies first (pinned in pyproject.toml), so a change of code alone reuses this layer
COPY pyproject.toml README.md ./
RUN python - <<'PY' > /tmp/requirements.txt && pip install --no-cache-dir -r /tmp/requirements.txt
import tomllib
print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]))
PY

COPY manage.py ./
COPY deploy deploy
COPY apikit apikit
COPY eventlog eventlog
COPY published published
COPY players players
COPY games games
COPY tournaments tournaments
COPY ratings ratings
COPY analysis analysis
COPY seasons seasons
# the static files are part of the image (whitenoise serves them); the key only lets settings load for this step
RUN SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput -v 0

USER crawford
EXPOSE 8000
CMD ["gunicorn", "-c", "deploy/services/gunicorn.conf.py", "--bind", "0.0.0.0:8000", "deploy.wsgi:application"]
