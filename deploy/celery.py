"""The Celery app. With REDIS_URL unset, tasks run in-process (the embedded default)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deploy.settings")

app = Celery("crawford")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
