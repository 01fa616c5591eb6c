"""The API throttles anonymous clients per address and signed-in users per user, at the rates in the settings
(apikit/throttling.py): counted in this process's memory as the suite's settings have it, and on Redis as
production has it, where every worker shares the counts and two requests at once never lose one."""

from __future__ import annotations

import logging
import os
import threading
from types import SimpleNamespace

import pytest

from apikit import throttling

pytestmark = pytest.mark.django_db


@pytest.fixture
def rates(settings, throttle_clock_stopped):
    settings.API_THROTTLE_RATES = {"anon": "5/minute", "user": "8/minute"}
    throttling.forget_counts()
    yield settings
    throttling.forget_counts()


@pytest.fixture
def on_redis(rates):
    if not os.environ.get("REDIS_URL"):
        pytest.skip("counts on Redis: run `make test`, or set REDIS_URL")
    rates.API_THROTTLE_STORAGE = os.environ["REDIS_URL"]
    throttling.forget_counts()
    yield rates
    throttling.forget_counts()


def test_anonymous_clients_are_throttled_per_address(rates):
    from django.test import Client

    one = Client(REMOTE_ADDR="203.0.113.1")
    statuses = [one.get("/api/ratings/").status_code for _ in range(6)]
    assert statuses == [200] * 5 + [429]
    assert Client(REMOTE_ADDR="203.0.113.2").get("/api/ratings/").status_code == 200  # another address


def test_signed_in_users_are_throttled_per_user_and_told_when_to_come_back(rates, make_user, api):
    client = api(make_user("alice"))
    statuses = [client.get("/api/ratings/").status_code for _ in range(9)]
    assert statuses == [200] * 8 + [429]
    refused = client.get("/api/ratings/")
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 60
    assert api(make_user("bob")).get("/api/ratings/").status_code == 200  # another user


def test_on_redis_the_counts_are_shared_and_atomic(on_redis):
    """32 requests at once from 8 threads, each with its own connection, for a rate of 20: exactly 20 pass.
    (DRF's own throttle, reading and writing back its list, let several more through.)"""
    on_redis.API_THROTTLE_RATES = {"anon": "5/minute", "user": "20/minute"}
    signed_in = SimpleNamespace(user=SimpleNamespace(pk=41, is_authenticated=True))
    passed, start = [], threading.Barrier(8)

    def four():
        start.wait()
        passed.extend(throttling.UserThrottle().allow_request(signed_in, None) for _ in range(4))

    threads = [threading.Thread(target=four) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(passed).count(True) == 20 and len(passed) == 32
    assert throttling.limiter().storage.__class__.__name__ == "RedisStorage"


def test_on_redis_through_the_api(on_redis, make_user, api):
    client = api(make_user("carol"))
    assert [client.get("/api/ratings/").status_code for _ in range(9)] == [200] * 8 + [429]


def test_a_throttle_without_its_storage_lets_requests_through(rates, make_user, api, caplog):
    kept = rates.API_THROTTLE_STORAGE
    rates.API_THROTTLE_STORAGE = "redis://127.0.0.1:1/0"  # nothing listens there
    client = api(make_user("dave"))
    with caplog.at_level(logging.WARNING, logger="apikit.throttling"):
        assert [client.get("/api/ratings/").status_code for _ in range(10)] == [200] * 10
    assert "throttle skipped" in caplog.text
    rates.API_THROTTLE_STORAGE = kept  # for the fixture's clean-up
