"""The live pages' push (eventlog/live.py): a match's append, once committed, reaches the pages following it as a
server-sent event, under ASGI (the live nodes: a coroutine per page) through real Redis pub/sub; under WSGI a web
node answers at once and the browser comes back; only the embedded default (no Redis) holds a thread. Someone who
may not see the match is refused, as on its page. A crowd of streams: tests/eventlog/test_live_node_capacity.py."""

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient, Client

from eventlog import live
from games import commands as match_commands
from games.command_handler import match_command
from games.creation import match_create
from games.loading import match_load
from players.models import Player
from tests.waiting import WAIT

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def director(django_user_model):
    return django_user_model.objects.create_user("dora", password="x", is_staff=True, is_superuser=True)


@pytest.fixture
def match_id(director):
    a, b = Player.objects.create(display_name="Ada"), Player.objects.create(display_name="Bruno")
    return match_create(actor=director, player0=a, player1=b, length=3, dice="board").stream_id


def roll(director, match_id):
    record = match_load(match_id)
    match_command(actor=director, stream_id=match_id, command=match_commands.RollDice(dice=(3, 1)),
                  expected_version=record.version)


def events(chunks: list[bytes]) -> list[int]:
    text = b"".join(chunks).decode()
    return [int(block.split("data: ")[1]) for block in text.split("\n\n") if "event: moved" in block]


def test_under_asgi_the_page_hears_the_append_after_its_commit(director, match_id):
    now = match_load(match_id).version

    async def follow():
        response = await AsyncClient().get(f"/matches/{match_id}/follow/")
        assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
        assert response["X-Accel-Buffering"] == "no"
        stream = response.streaming_content
        first = await asyncio.wait_for(anext(stream), WAIT)
        assert events([first]) == [now]  # the match's version now, at once (an append before the subscription
        # is caught by the read that follows it)
        await sync_to_async(roll, thread_sensitive=False)(director, match_id)
        heard = []
        while not events(heard):
            heard.append(await asyncio.wait_for(anext(stream), WAIT))
        await stream.aclose()
        return events(heard)

    assert asyncio.run(follow()) == [now + 1]  # the opening roll


def test_under_wsgi_a_web_node_answers_at_once_and_the_page_comes_back(director, match_id, broker_url):
    """A web node's thread is never held by a stream: it answers the number now and ends, with ``retry`` for the
    browser's EventSource to come back, and hears the append at its next try."""
    now = match_load(match_id).version
    response = Client().get(f"/matches/{match_id}/follow/")
    stream = iter(response.streaming_content)
    first = next(stream)
    roll(director, match_id)  # appended while the answer is read: a stream held open would tell it
    chunks = [first, *stream]  # ends by itself
    assert events(chunks) == [now] and first.startswith(b"retry: ")
    again = Client().get(f"/matches/{match_id}/follow/")
    assert events(list(again.streaming_content)) == [now + 1]


def test_a_hidden_match_is_not_followed_by_strangers(director, match_id):
    a, b = Player.objects.create(display_name="Chloé"), Player.objects.create(display_name="Dimitri")
    hidden = match_create(actor=director, player0=a, player1=b, length=3, published=False).stream_id
    assert Client().get(f"/matches/{hidden}/follow/").status_code == 404
    assert Client().get("/matches/no-such-match/follow/").status_code == 404


def test_a_publish_with_redis_down_does_not_fail_the_command(settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    live._client = None
    try:
        live.publish(live.stream_topic("x"), 3)  # logged, not raised: the append has committed already
    finally:
        live._client = None


def test_without_redis_the_embedded_site_pushes_in_process(director, match_id, settings):
    settings.REDIS_URL = ""  # `make run`: one process (runserver), no Redis
    now = match_load(match_id).version
    response = Client().get(f"/matches/{match_id}/follow/")
    stream = iter(response.streaming_content)
    assert events([next(stream)]) == [now]
    # from another thread while this one waits on the stream; before the wait starts or after, it is heard (the
    # in-process board keeps each topic's latest number)
    threading.Thread(target=roll, args=(director, match_id)).start()
    heard = []
    while not events(heard):
        heard.append(next(stream))
    response.close()
    assert events(heard) == [now + 1]
