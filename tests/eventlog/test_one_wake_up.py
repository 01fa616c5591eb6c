"""A batch (``one_wake_up``) sends one wake-up at its end, however many appends asked for one; a batch inside
another (the demo's season inside ``load_demo``) is part of the outer batch."""

from eventlog import tasks


def test_a_batch_inside_another_wakes_the_projections_once_at_the_outer_end(monkeypatch):
    sent = []
    monkeypatch.setattr(tasks, "_send_wake_up", lambda publish=None: sent.append(publish))
    with tasks.one_wake_up():
        tasks.wake_projections()
        with tasks.one_wake_up():
            tasks.wake_projections()
            tasks.wake_projections()
        assert sent == []  # the inner batch's end is not the outer one's
        tasks.wake_projections()
        assert sent == []
    assert sent == [None]
    tasks.wake_projections()  # outside any batch: at once
    assert sent == [None, None]


def test_a_batch_that_appended_nothing_sends_nothing(monkeypatch):
    sent = []
    monkeypatch.setattr(tasks, "_send_wake_up", lambda publish=None: sent.append(publish))
    with tasks.one_wake_up():
        with tasks.one_wake_up():
            pass
    assert sent == []
