"""A worker's process puts what it holds at its start out of the cyclic collector's reach (deploy/celery.py): a
full collection after a big event's result then goes through what the work made, not every module again."""

import gc

import pytest
from celery.signals import worker_process_init, worker_ready

import deploy.celery  # noqa: F401 - the handlers under test


@pytest.fixture
def unfrozen():
    gc.unfreeze()
    yield
    gc.unfreeze()


@pytest.mark.parametrize("signal", [worker_process_init, worker_ready], ids=["prefork process", "solo pool"])
def test_the_start_of_a_workers_process_freezes_what_it_holds(unfrozen, signal):
    assert gc.get_freeze_count() == 0
    signal.send(sender=None)
    assert gc.get_freeze_count() > 1000  # Django, the apps, their modules
