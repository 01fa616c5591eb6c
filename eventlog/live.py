"""Live pages without polling: "this topic moved on" pushed to browsers as server-sent events.

A topic is a stream (``stream:<id>``, told after its append commits) or the projections (``projections``, told
after a projection run applied something). Publishers say only that something changed and the number it reached;
a page then fetches what it shows through the ordinary read endpoints, so a lost or duplicated message costs at
most one fetch and never shows anything the log does not hold.

Across processes (gunicorn nodes, the Celery worker that runs the projections) the messages go through Redis
pub/sub; with no Redis (the embedded default, one process) through an in-process board. Redis channels are
shared by all its databases: the channel names carry the database's number, so two sites (or two test runs) on
one Redis never hear each other.

Why server-sent events and not Django Channels: the push is one way (the writes stay ordinary HTTP commands),
an ``EventSource`` reconnects by itself, it passes through nginx as a plain response (``X-Accel-Buffering: no``)
and needs no second routing layer. Under ASGI (gunicorn's uvicorn worker) a waiting page costs a coroutine; under
WSGI (``runserver``, the tests' live server) a thread, so there a stream ends after a minute and the browser
reconnects.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from functools import lru_cache
from urllib.parse import urlparse

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import transaction
from django.http import StreamingHttpResponse

log = logging.getLogger(__name__)

HEARTBEAT = 15.0  # seconds between comments on a quiet stream: proxies (nginx: 60 s) keep it open
SYNC_LIFETIME = 60.0  # a WSGI thread is held at most this long; the browser reconnects (retry below)
ASYNC_LIFETIME = 600.0
RETRY_MS = 1000


def stream_topic(stream_id: str) -> str:
    return f"stream:{stream_id}"


PROJECTIONS = "projections"


def _channel(topic: str) -> str:
    return _channel_prefix(settings.REDIS_URL) + topic


@lru_cache(maxsize=4)
def _channel_prefix(url: str | None) -> str:
    db = (urlparse(url).path or "/0").lstrip("/") or "0"
    return f"crawford:{db}:live:"


# -- publishing ---------------------------------------------------------------------------------


def publish(topic: str, number: int) -> None:
    """Tell the pages following ``topic`` that it reached ``number``. Call it after the commit: a page told
    before would fetch the state before the change. Never raises: a page that misses it catches up at its
    next message or its reconnection."""
    if not settings.REDIS_URL:
        _board.post(topic, number)
        return
    try:
        _redis().publish(*message(topic, number))
    except Exception as down:  # noqa: BLE001 - the write is committed; a push is only a hint
        log.warning("live push for %s not sent (%s)", topic, down)


def message(topic: str, number: int) -> tuple[str, str]:
    """The Redis channel and message of :func:`publish`, for a caller that sends it in a pipeline of its own."""
    return _channel(topic), json.dumps(number)


def same_server(url: str) -> bool:
    """True if ``url`` is the Redis server the live pages listen on (any database: pub/sub ignores it)."""
    return _same_server(settings.REDIS_URL, url)


@lru_cache(maxsize=8)
def _same_server(ours: str | None, theirs: str | None) -> bool:
    # asked after every command: the URLs are parsed once
    if not ours or not theirs:
        return False
    ours, theirs = urlparse(ours), urlparse(theirs)
    return (ours.scheme, ours.hostname, ours.port, ours.username, ours.password) == \
        (theirs.scheme, theirs.hostname, theirs.port, theirs.username, theirs.password)


def projections_moved(applied: dict[str, int]) -> None:
    """After a run of the projections (the worker's, or one a page runs itself to show its outcome at once): the
    pages following them are told, once it is committed, if it applied anything. Whoever ran it must tell: a run
    that took the events leaves the worker's next run nothing to apply, and so nothing to tell."""
    if any(applied.values()):
        transaction.on_commit(lambda: publish(PROJECTIONS, projected_position()))


_client = None
_client_lock = threading.Lock()


def _redis():
    global _client
    with _client_lock:
        if _client is None:
            import redis

            _client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
        return _client


class _Board:
    """The in-process stand-in for Redis pub/sub: the latest number of each topic and a condition to wait on."""

    def __init__(self):
        self._numbers: dict[str, int] = {}
        self._changed = threading.Condition()

    def post(self, topic: str, number: int) -> None:
        with self._changed:
            self._numbers[topic] = max(number, self._numbers.get(topic, 0))
            self._changed.notify_all()

    def wait_past(self, topic: str, number: int, timeout: float) -> int | None:
        with self._changed:
            self._changed.wait_for(lambda: self._numbers.get(topic, 0) > number, timeout)
            found = self._numbers.get(topic, 0)
            return found if found > number else None


_board = _Board()


# -- following ------------------------------------------------------------------------------------


def _event(number: int) -> bytes:
    return f"event: moved\ndata: {number}\n\n".encode()


def _follow_sync(topic: str, current: Callable[[], int]) -> Iterator[bytes]:
    sent = current()
    yield f"retry: {RETRY_MS}\n".encode() + _event(sent)
    until = time.monotonic() + SYNC_LIFETIME
    if not settings.REDIS_URL:
        while (left := until - time.monotonic()) > 0:
            number = _board.wait_past(topic, sent, min(HEARTBEAT, left))
            if number is None:
                yield b": still here\n\n"
                continue
            sent = number
            yield _event(number)
        return
    pubsub = _redis().pubsub(ignore_subscribe_messages=True)
    try:
        pubsub.subscribe(_channel(topic))
        # what committed between the first read and the subscription would be missed: read once more
        if (number := current()) > sent:
            sent = number
            yield _event(number)
        quiet = time.monotonic()
        while time.monotonic() < until:
            message = pubsub.get_message(timeout=1.0)
            if message is None:
                if time.monotonic() - quiet > HEARTBEAT:
                    quiet = time.monotonic()
                    yield b": still here\n\n"
                continue
            number = json.loads(message["data"])
            if number > sent:
                sent = number
                quiet = time.monotonic()
                yield _event(number)
    finally:
        pubsub.close()


async def _follow_async(topic: str, current: Callable[[], int]) -> AsyncIterator[bytes]:
    from asgiref.sync import sync_to_async

    read = sync_to_async(current)
    sent = await read()
    yield f"retry: {RETRY_MS}\n".encode() + _event(sent)
    until = time.monotonic() + ASYNC_LIFETIME
    if not settings.REDIS_URL:
        while (left := until - time.monotonic()) > 0:
            number = await asyncio.to_thread(_board.wait_past, topic, sent, min(HEARTBEAT, left))
            if number is None:
                yield b": still here\n\n"
                continue
            sent = number
            yield _event(number)
        return
    import redis.asyncio

    client = redis.asyncio.Redis.from_url(settings.REDIS_URL)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    try:
        await pubsub.subscribe(_channel(topic))
        if (number := await read()) > sent:
            sent = number
            yield _event(number)
        while time.monotonic() < until:
            message = await pubsub.get_message(timeout=HEARTBEAT)
            if message is None:
                yield b": still here\n\n"
                continue
            number = json.loads(message["data"])
            if number > sent:
                sent = number
                yield _event(number)
    finally:  # the client left (Django cancels the response) or the lifetime ended
        await pubsub.aclose()
        await client.aclose()


def event_stream(request, topic: str, current: Callable[[], int]) -> StreamingHttpResponse:
    """A ``text/event-stream`` answer: ``moved`` events carrying the topic's number, the first one at once
    (``current()``, read in the request's own terms), then one each time a publisher tells a higher one."""
    follow = _follow_async if isinstance(request, ASGIRequest) else _follow_sync
    response = StreamingHttpResponse(follow(topic, current), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx passes each event on at once
    return response


def projected_position() -> int:
    """How far every projection has read the log: the number the event pages' topic counts in."""
    from django.db.models import Min

    from .models import ProjectionCheckpoint

    return ProjectionCheckpoint.objects.aggregate(low=Min("position"))["low"] or 0
