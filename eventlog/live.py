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
and needs no second routing layer.

What an open stream holds, so that a crowd of spectators cannot take the site down:
- Under ASGI (the live nodes: gunicorn's uvicorn worker) a coroutine, and nothing else: no database connection
  (the view's own are closed before the stream starts; the topic's number is read on a thread that closes its
  connection at once, a few at a time per process), and no Redis connection of its own (one subscription per
  process, :class:`_Hub`, hands each message to the streams following its topic).
- Under WSGI with Redis (a web node) no thread either: the answer is the topic's number and an end, and the
  browser comes back after ``retry`` (nginx sends /follow/ to the live nodes; this is for a request that reaches
  a web node anyway). Only the embedded default (``runserver``, one process, no Redis) holds a thread, for a
  minute at most.
- Each process takes at most ``LIVE_MAX_STREAMS`` streams and a client address ``LIVE_MAX_STREAMS_PER_CLIENT``;
  past them the answer is 503 with ``Retry-After`` (the page then asks every few seconds: games/static/.../follow.js).
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
from django.db import connections, transaction
from django.http import HttpResponse, StreamingHttpResponse

log = logging.getLogger(__name__)

HEARTBEAT = 15.0  # seconds between comments on a quiet stream: proxies (nginx: 60 s) keep it open
SYNC_LIFETIME = 60.0  # a WSGI thread is held at most this long; the browser reconnects (retry below)
ASYNC_LIFETIME = 600.0
RETRY_MS = 1000
RETRY_AFTER_SECONDS = 10  # a refused stream's Retry-After
READS_AT_ONCE = 4  # database reads of the streams of one process at a time (each on a connection of its own)


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
    """The embedded default's stream (runserver, one process, no Redis): a thread for a minute at most."""
    sent = current()
    yield f"retry: {RETRY_MS}\n".encode() + _event(sent)
    until = time.monotonic() + SYNC_LIFETIME
    while (left := until - time.monotonic()) > 0:
        number = _board.wait_past(topic, sent, min(HEARTBEAT, left))
        if number is None:
            yield b": still here\n\n"
            continue
        sent = number
        yield _event(number)


async def _follow_async(topic: str, current: Callable[[], int]) -> AsyncIterator[bytes]:
    read = _released_read(current)
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
    follower = await _Hub.of_this_loop().follow(topic)
    try:
        # what committed between the first read and the subscription would be missed: read once more
        if (number := await read()) > sent:
            sent = number
            yield _event(number)
        while time.monotonic() < until:
            number = await follower.next_past(sent, HEARTBEAT)
            if number is None:
                yield b": still here\n\n"
                continue
            sent = number
            yield _event(number)
    finally:  # the client left (Django cancels the response) or the lifetime ended
        follower.leave()


def _released_read(current: Callable[[], int]):
    """``current`` run on a worker thread that closes its database connections once it has read: a stream holds
    none while it waits. At most :data:`READS_AT_ONCE` at a time per process, so a thousand pages opened at once
    ask the database a few at a time, not a thousand connections at once."""
    from asgiref.sync import sync_to_async

    def read_and_close() -> int:
        try:
            return current()
        finally:
            connections.close_all()

    run = sync_to_async(read_and_close, thread_sensitive=False)

    async def read() -> int:
        async with _Hub.reads():
            return await run()

    return read


class _Follower:
    """One stream's view of a topic: the highest number heard and an event to wait on."""

    def __init__(self, hub: _Hub, topic: str):
        self.hub, self.topic, self.number, self.failed = hub, topic, 0, False
        self.moved = asyncio.Event()

    def hear(self, number: int) -> None:
        self.number = max(self.number, number)
        self.moved.set()

    async def next_past(self, sent: int, timeout: float) -> int | None:
        """The topic's number once it passes ``sent``; None after ``timeout`` (a heartbeat is due). Raises when the
        subscription failed (Redis gone): the stream ends and the browser reconnects."""
        while self.number <= sent:
            self.moved.clear()
            try:
                await asyncio.wait_for(self.moved.wait(), timeout)
            except asyncio.TimeoutError:
                return None
            if self.failed:
                raise ConnectionError("the live subscription was lost")
        return self.number

    def leave(self) -> None:
        self.hub.leave(self)


class _Hub:
    """One Redis subscription per process (per event loop) for every stream it serves: a pattern over this site's
    channels, each message handed to the followers of its topic. A stream of its own per page cost one or two Redis
    connections each."""

    _hubs: dict[int, _Hub] = {}
    _semaphores: dict[int, tuple[object, asyncio.Semaphore]] = {}

    def __init__(self, loop):
        self.loop = loop
        self.followers: dict[str, set[_Follower]] = {}
        self.ready: asyncio.Future | None = None
        self.client = self.pubsub = self.task = None

    @classmethod
    def of_this_loop(cls) -> _Hub:
        loop = asyncio.get_running_loop()
        hub = cls._hubs.get(id(loop))
        if hub is None or hub.loop is not loop:
            hub = cls._hubs[id(loop)] = cls(loop)
        return hub

    @classmethod
    def reads(cls) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        held = cls._semaphores.get(id(loop))
        if held is None or held[0] is not loop:
            held = cls._semaphores[id(loop)] = (loop, asyncio.Semaphore(READS_AT_ONCE))
        return held[1]

    async def follow(self, topic: str) -> _Follower:
        follower = _Follower(self, topic)
        self.followers.setdefault(topic, set()).add(follower)
        try:
            await self._subscribed()
        except BaseException:
            self.leave(follower)
            raise
        return follower

    def leave(self, follower: _Follower) -> None:
        group = self.followers.get(follower.topic)
        if group is not None:
            group.discard(follower)
            if not group:
                del self.followers[follower.topic]

    async def _subscribed(self) -> None:
        if self.ready is None:
            self.ready = self.loop.create_future()
            self.task = self.loop.create_task(self._listen())
        await asyncio.shield(self.ready)

    async def _listen(self) -> None:
        import redis.asyncio

        prefix = _channel_prefix(settings.REDIS_URL)
        try:
            self.client = redis.asyncio.Redis.from_url(settings.REDIS_URL)
            self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
            await self.pubsub.psubscribe(prefix + "*")
            if not self.ready.done():
                self.ready.set_result(None)
            while True:
                message = await self.pubsub.get_message(timeout=HEARTBEAT)
                if message is None or message.get("type") != "pmessage":
                    continue
                channel = message["channel"]
                topic = (channel.decode() if isinstance(channel, bytes) else channel)[len(prefix):]
                number = json.loads(message["data"])
                for follower in list(self.followers.get(topic, ())):
                    follower.hear(number)
        except Exception as lost:  # noqa: BLE001 - every stream ends; the next one subscribes anew
            log.warning("live subscription lost (%s)", lost)
            if not self.ready.done():
                self.ready.set_exception(lost)
            for group in self.followers.values():
                for follower in group:
                    follower.failed = True
                    follower.moved.set()
        finally:
            if _Hub._hubs.get(id(self.loop)) is self:
                del _Hub._hubs[id(self.loop)]
            if self.pubsub is not None:
                await self.pubsub.aclose()
            if self.client is not None:
                await self.client.aclose()


def _follow_once(topic: str, current: Callable[[], int]) -> Iterator[bytes]:
    """A web node's answer (WSGI with Redis): the topic's number now, and the browser's next try after ``retry``."""
    yield f"retry: {RETRY_MS}\n".encode() + _event(current())


class _Gate:
    """The streams open in this process, in all and per client address; shared by WSGI threads and ASGI tasks."""

    def __init__(self):
        self._lock = threading.Lock()
        self.total = 0
        self.by_client: dict[str, int] = {}

    def enter(self, client: str) -> bool:
        with self._lock:
            if (self.total >= settings.LIVE_MAX_STREAMS
                    or self.by_client.get(client, 0) >= settings.LIVE_MAX_STREAMS_PER_CLIENT):
                return False
            self.total += 1
            self.by_client[client] = self.by_client.get(client, 0) + 1
            return True

    def leave(self, client: str) -> None:
        with self._lock:
            self.total -= 1
            left = self.by_client.get(client, 1) - 1
            if left:
                self.by_client[client] = left
            else:
                self.by_client.pop(client, None)


_gate = _Gate()


def _gated_sync(client: str, stream: Iterator[bytes]) -> Iterator[bytes]:
    try:
        yield from stream
    finally:
        _gate.leave(client)


async def _gated_async(client: str, stream: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    try:
        async for chunk in stream:
            yield chunk
    finally:
        _gate.leave(client)
        await stream.aclose()


def event_stream(request, topic: str, current: Callable[[], int]) -> HttpResponse:
    """A ``text/event-stream`` answer: ``moved`` events carrying the topic's number, the first one at once
    (``current()``, read in the request's own terms), then one each time a publisher tells a higher one. 503 with
    ``Retry-After`` past the process's or the client's number of open streams."""
    client = request.META.get("REMOTE_ADDR") or "?"
    if not _gate.enter(client):
        refused = HttpResponse("Too many live pages are open; this page asks again by itself.\n", status=503,
                               content_type="text/plain; charset=utf-8")
        refused["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return refused
    if isinstance(request, ASGIRequest):
        # the view's own connections (its visibility check) would stay open as long as the stream
        connections.close_all()
        content = _gated_async(client, _follow_async(topic, current))
    elif settings.REDIS_URL:
        content = _gated_sync(client, _follow_once(topic, current))
    else:
        content = _gated_sync(client, _follow_sync(topic, current))
    response = StreamingHttpResponse(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx passes each event on at once
    return response


def projected_position() -> int:
    """How far every projection has read the log: the number the event pages' topic counts in."""
    from django.db.models import Min

    from .models import ProjectionCheckpoint

    return ProjectionCheckpoint.objects.aggregate(low=Min("position"))["low"] or 0


def projected_position_sql() -> str:
    """:func:`projected_position` as a scalar subquery, for a page that reads it with its own row in one round
    trip."""
    from .models import ProjectionCheckpoint

    return f"(SELECT coalesce(min(position), 0) FROM {ProjectionCheckpoint._meta.db_table})"
