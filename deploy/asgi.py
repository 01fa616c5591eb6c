"""The ASGI application of the live nodes (deploy/services/crawford-live@.service): the pages' push.

Django runs each request's sync code (middleware, view) on a thread of its own under ASGI, each with its own
database connection: a thousand pages opening their streams at once would ask PostgreSQL for a thousand
connections. :class:`AtTheDoor` lets a few requests of the process into Django at a time, each until its
answer starts (a stream's then costs a coroutine: eventlog/live.py); the others wait their turn as coroutines.
"""

import asyncio
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deploy.settings")
os.environ["CRAWFORD_SERVER"] = "asgi"  # no connection kept across requests (deploy/settings.py)


class AtTheDoor:
    """At most ``at_once`` HTTP requests inside the application at a time, each from its arrival until its
    answer's first message (``http.response.start``) or its end."""

    def __init__(self, app, at_once: int):
        self.app, self.at_once = app, at_once
        self._held: tuple[object, asyncio.Semaphore] | None = None

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._held is None or self._held[0] is not loop:
            self._held = (loop, asyncio.Semaphore(self.at_once))
        return self._held[1]

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        door = self._semaphore()
        await door.acquire()
        inside = True

        def leave():
            nonlocal inside
            if inside:
                inside = False
                door.release()

        async def sending(message):
            if message["type"] == "http.response.start":
                leave()
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            leave()


django_application = get_asgi_application()
application = AtTheDoor(django_application, at_once=int(os.environ.get("LIVE_REQUESTS_AT_ONCE", "8")))
