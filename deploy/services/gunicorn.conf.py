"""gunicorn for Crawford: `gunicorn -c deploy/services/gunicorn.conf.py deploy.wsgi`.

The live nodes (the pages' push, server-sent events: eventlog/live.py) run the same file with the ASGI app and
uvicorn's worker class, where a page waiting for the next move costs a coroutine, not a thread:
`GUNICORN_WORKER_CLASS=uvicorn_worker.UvicornWorker gunicorn -c deploy/services/gunicorn.conf.py deploy.asgi`."""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gthread")
# a live node's answers are streams held open for minutes; its worker's heartbeat is separate from any request
timeout = 30
graceful_timeout = 30
accesslog = "-"
errorlog = "-"
forwarded_allow_ips = "127.0.0.1"
# gunicorn 25.1+ opens a control socket for `gunicornc` at one path per user ($XDG_RUNTIME_DIR/gunicorn.ctl, else
# ~/.gunicorn/gunicorn.ctl): the nodes of one host (crawford-web@8000, @8001, the live node) all claimed it, and
# every node after the first logged "Control server error: ... already in use". Off, unless a node is given a path
# of its own; the units manage the nodes with systemd's signals (reload = HUP, stop = TERM).
if os.environ.get("GUNICORN_CONTROL_SOCKET"):
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]
else:
    control_socket_disable = True


def post_worker_init(worker):
    """Django imports its URLconf, and with it every view, at a worker's first request: about a second on this
    machine, which the first tap on a tablet after a restart would wait. Done here, before the worker takes one,
    with the modules a first request would still import (the tasks it queues, the throttles' library).

    Then the ~120,000 objects of the imported code are frozen out of the garbage collector's sight: each full
    collection walked them all, 45-90 ms in the middle of whichever command triggered it (on a quiet machine,
    the recording screen's only answers over 100 ms)."""
    import gc

    from django.urls import get_resolver
    from django.utils.module_loading import autodiscover_modules

    get_resolver().reverse_dict  # noqa: B018 - imports the URLconf and builds its lookups
    autodiscover_modules("tasks")  # what a first request's queued work (an import, an export) imports to send it
    import apikit.throttling  # noqa: F401 - the API's throttles: their library is imported by a first request otherwise
    gc.collect()  # what the imports left as garbage goes now, not into the frozen generation
    gc.freeze()
