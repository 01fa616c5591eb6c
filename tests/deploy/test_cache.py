"""The production cache (deploy/cache.py): Django's Redis cache, with one client per server made once."""

import threading

import pytest

from deploy.cache import SharedClientRedisCache


@pytest.fixture
def cache(broker_url):  # the test process's own Redis database
    return SharedClientRedisCache(broker_url, {"KEY_PREFIX": "cache-test"})


def test_it_is_djangos_redis_cache_in_every_call_the_throttles_and_snapshots_make(cache):
    cache.set("count", [1.5, 2.5], timeout=30)
    assert cache.get("count") == [1.5, 2.5]
    assert cache.add("count", "other") is False and cache.add("fresh", 1, timeout=30) is True
    assert cache.incr("fresh") == 2
    cache.set("gone", 1, timeout=0)  # Django's rule: a timeout of 0 deletes
    assert cache.get("gone", "missing") == "missing"
    cache.delete("count")
    assert cache.get("count") is None


def test_every_call_shares_one_client_across_threads(cache):
    clients = [cache._cache.get_client(), cache._cache.get_client(write=True)]
    seen = []
    thread = threading.Thread(target=lambda: seen.append(cache._cache.get_client()))
    thread.start()
    thread.join()
    assert clients[0] is clients[1] is seen[0]
    cache.set("from-the-shared-client", "yes", timeout=30)
    assert clients[0].get(cache.make_and_validate_key("from-the-shared-client")) is not None
