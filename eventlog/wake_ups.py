"""At most one projection wake-up waiting in the broker.

Every append wakes the projections, and one ``project_all`` run catches them
up with everything committed before it starts: a second wake-up queued behind
a first that has not started yet has nothing left to do. A flag in Redis says
"a wake-up is queued and not started". An append sends one only if it is the
one to set the flag (``SET NX``); ``project_all`` clears it before it reads the
log, so whatever commits after that sends a fresh wake-up, and whatever
committed before is read by the run. The flag expires after ``TTL``: a lost
task (a worker SIGKILLed after taking it, before starting it) silences wake-ups
that long at most, and the beat sweep runs meanwhile; a worker that starts
clears the flag and sends a wake-up (``tasks.wake_up_on_start``). The TTL is
short: a wake-up queued behind longer work than that lets one more be sent per
TTL, which costs a run with little to do, never a stall.

With no broker (tasks run in-process, the embedded default) nothing is merged.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from urllib.parse import urlparse

from celery import current_app

KEY = "crawford:projections:wake-up-queued"
TTL = 15  # seconds

log = logging.getLogger(__name__)


def merged() -> bool:
    """Wake-ups go through a Redis broker, so they can be merged."""
    return _merging_broker() is not None


def _merging_broker() -> str | None:
    """The Redis broker's URL when wake-ups are merged, else None."""
    eager, url = celery_settings()
    return url if _redis_broker(eager, url) else None


_read: tuple = (None, (False, None))  # (what Celery's changes said, (task_always_eager, broker_url))


def celery_settings() -> tuple[bool, str | None]:
    """Celery's ``task_always_eager`` and ``broker_url``, asked after every command. Each read through Celery's
    settings costs about ten microseconds; they change only where code sets them on the app (the embedded
    default, tests), which Celery keeps in ``conf.changes``: they are read again when that says otherwise."""
    global _read
    conf = current_app.conf
    changes = conf.changes
    key = (id(conf), changes.get("task_always_eager"), changes.get("broker_url"))
    seen, values = _read
    if seen != key:
        values = (bool(conf.task_always_eager), conf.broker_url)
        _read = (key, values)
    return values


@lru_cache(maxsize=8)
def _redis_broker(eager: bool, url: str | None) -> bool:
    # asked after every command: the URL is parsed once
    return not eager and urlparse(url or "").scheme in ("redis", "rediss")


def claim(*, publish: tuple[str, str] | None = None) -> bool:
    """True if the caller should send a wake-up: none is queued (or they are not merged). Redis errors propagate.

    ``publish``: a (channel, message) for Redis pub/sub sent in the same round trip (pub/sub ignores the
    database number, so the broker's connection serves any channel of that server)."""
    url = _merging_broker()
    if url is None:
        return True
    client = _redis(url)
    if publish is None:
        return bool(client.set(KEY, 1, nx=True, ex=TTL))
    return _claim_and_publish(client, *publish)


def _resp(*parts: bytes) -> bytes:
    """One command in Redis's protocol (RESP): an array of bulk strings."""
    return b"*%d\r\n" % len(parts) + b"".join(b"$%d\r\n%s\r\n" % (len(part), part) for part in parts)


_CLAIM = _resp(b"SET", KEY.encode(), b"1", b"NX", b"EX", b"%d" % TTL)


def _claim_and_publish(client, channel: str, message: str) -> bool:
    # After every match command: both commands written at once on one connection and both answers read, as a
    # pipeline would, without a pipeline's bookkeeping nor redis-py's packing of a constant command (together
    # more than half of the CPU it costs).
    pool = client.connection_pool
    connection = pool.get_connection()
    try:
        connection.send_packed_command([_CLAIM + _resp(b"PUBLISH", channel.encode(), message.encode())])
        claimed = connection.read_response()
        connection.read_response()
    except BaseException:
        connection.disconnect()  # an answer may be left unread: the connection is not given back as it is
        raise
    finally:
        pool.release(connection)
    return claimed is not None  # SET NX answers nil when the flag was set already


def release() -> None:
    """The queued wake-up has started (or was never sent): the next append sends one again. Never raises."""
    if not merged():
        return
    try:
        _redis(celery_settings()[1]).delete(KEY)
    except Exception as broker_down:  # noqa: BLE001 - the flag expires on its own
        log.warning("projection wake-up flag not cleared (%s); it expires in %d s", broker_down, TTL)


@lru_cache(maxsize=4)
def _redis(url: str):
    import redis  # Celery's Redis transport brings it; only needed with a Redis broker

    # short timeouts: a command has committed already and must not hang on a sick broker
    return redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
