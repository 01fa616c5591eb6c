"""The Celery app. With REDIS_URL unset, tasks run in-process (the embedded default)."""

import gc
import os

from celery import Celery
from celery.signals import worker_process_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deploy.settings")

app = Celery("crawford")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect  # each process of a prefork pool, once forked
@worker_ready.connect  # a solo pool's one process
def freeze_what_is_loaded(**_) -> None:
    """Put what a worker's process holds at its start (Django, the apps and their modules: most of its objects, kept
    for good) out of the cyclic garbage collector's reach. A big event's result allocates enough for a full
    collection every result or two, and each went through all of those objects again (about a tenth of a second
    of CPU on a small machine)."""
    gc.collect()
    gc.freeze()
