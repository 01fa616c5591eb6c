"""The hints after a commit (the projections' wake-up, the live pages' push) go from a thread of the process, in
order, while the answer goes out (eventlog/hints.py): a command's answer never waits for them, and a broker that
hangs delays the hints, not the answer."""

import multiprocessing
import threading

import pytest

from eventlog import hints, live, tasks, wake_ups
from tests.waiting import WAIT


def test_hints_are_sent_in_order_by_another_thread_and_one_that_fails_stops_none_after_it(caplog):
    sent, threads = [], set()

    def hint(n):
        def send():
            threads.add(threading.current_thread().name)
            if n == 2:
                raise ConnectionError("broker down")
            sent.append(n)
        return send

    for n in range(5):
        hints.send(hint(n))
    assert hints.flush(WAIT)
    assert sent == [0, 1, 3, 4]
    assert threads == {"crawford-hints"} and threading.current_thread().name != "crawford-hints"
    assert "a hint after a commit was not sent" in caplog.text and "broker down" in caplog.text


def _child(out):
    sent = []
    hints.send(lambda: sent.append(threading.current_thread().name))
    out.send((hints.flush(WAIT), sent))


def test_a_forked_process_starts_its_own_thread():
    hints.send(lambda: None)  # the parent's thread runs; a fork does not copy it
    assert hints.flush(WAIT)
    ours, theirs = multiprocessing.get_context("fork").Pipe()
    child = multiprocessing.get_context("fork").Process(target=_child, args=(theirs,))
    child.start()
    assert ours.poll(WAIT), "the child's hint was never sent"
    assert ours.recv() == (True, ["crawford-hints"])
    child.join(WAIT)


@pytest.mark.django_db(transaction=True)
def test_a_match_command_answers_before_its_wake_up_and_push_are_sent(broker_url, api, make_user, monkeypatch):
    """The hint thread is held inside the wake-up's Redis call: the command answers all the same; once the broker
    answers, the wake-up and the push go, with the version the command left."""
    import redis

    if not wake_ups.merged():
        pytest.skip("the wake-ups go to a Redis broker only with REDIS_URL set")
    held, claimed = threading.Event(), []
    real_claim = wake_ups.claim

    def slow_broker(*, publish=None):
        assert held.wait(WAIT)
        claimed.append(publish)
        return real_claim(publish=publish)

    ann, bob = make_user("ann"), make_user("bob")
    client = api(ann)
    created = client.post("/api/matches/", {"player0": ann.player.pk, "player1": bob.player.pk, "length": 3,
                                            "dice": "board"}, format="json").json()
    assert hints.flush(WAIT)  # the creation's own
    monkeypatch.setattr(wake_ups, "claim", slow_broker)
    listener = redis.Redis.from_url(broker_url).pubsub()
    listener.subscribe(live.message(live.stream_topic(created["id"]), 0)[0])
    try:
        answer = client.post(f"/api/matches/{created['id']}/commands/",
                             {"type": "roll", "dice": [3, 1], "expected_version": created["version"]}, format="json")
        assert answer.status_code == 200, answer.content
        version = answer.json()["state"]["version"]
        assert not claimed, "the answer came back before the hint was sent"
        held.set()
        assert hints.flush(WAIT)
        assert claimed == [live.message(live.stream_topic(created["id"]), version)]
        # published before flush() returned: the first push is waited for, then none may be there after it
        heard = (m for m in iter(lambda: listener.get_message(timeout=WAIT), None) if m["type"] == "message")
        pushed = [next(heard, None)]
        pushed += [m for m in iter(lambda: listener.get_message(timeout=0.5), None) if m["type"] == "message"]
        assert [m and int(m["data"]) for m in pushed] == [version]
    finally:
        held.set()
        hints.flush(WAIT)
        listener.close()


def test_with_no_broker_the_wake_up_and_push_are_made_before_the_answer(monkeypatch):
    """The embedded default (tasks in-process, no Redis): the projections run in the request, as the pages that
    show a result at once expect; nothing is left to a thread."""
    monkeypatch.setattr(wake_ups, "merged", lambda: False)
    done = []
    monkeypatch.setattr(tasks, "wake_projections", lambda: done.append("woken"))
    monkeypatch.setattr(live, "publish", lambda topic, number: done.append((topic, number)))
    monkeypatch.setattr(hints, "send", lambda hint: pytest.fail("handed to the thread"))
    tasks.wake_projections_and_tell("match:x", 7)
    assert done == ["woken", ("match:x", 7)]
