"""A big match's .mat file asked for from its page in a real browser while the worker has not written it: a page
says it is being written and how far, reloads itself, and the file downloads once the worker is done
(games/exports.py). Headless Debian Chromium driven by Playwright against the live server."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from eventlog import store
from games import exports, tasks
from games.mat_io import export_cache_key, match_export_mat, match_import_mat
from games.engine.random_play import random_money_session
from games.models import ExportJob
from players.models import Player

from .test_club_night_in_a_browser import browser_page  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_match_pages_download_link_waits_for_the_worker_then_downloads(live_server, browser_page,  # noqa: F811
                                                                           make_user, monkeypatch):
    official = make_user("root", official=True, player=False)
    hammer, anvil = (Player.objects.create(display_name=n) for n in ("Hammer", "Anvil"))
    text = random_money_session(30, 8_000, 19)[0]
    record = match_import_mat(actor=official, text=text, player0=hammer, player1=anvil)
    cache.delete(export_cache_key(record.stream_id, record.version))  # its first export is to come
    sent = []
    monkeypatch.setattr(tasks.run_export, "apply_async", lambda args, **kwargs: sent.append(args))  # no worker yet
    page = browser_page
    page.goto(f"{live_server.url}/matches/{record.stream_id}/")
    page.get_by_role("link", name="Download .mat").click()
    expect(page.get_by_text("This match's file is being written")).to_be_visible()
    expect(page.get_by_text("0 of 30 games written (0%).")).to_be_visible()
    assert len(sent) == 1 and ExportJob.objects.count() == 1

    # the worker writes it; the page's next reload downloads the file
    with page.expect_download() as downloading:
        exports.export_run(pk=ExportJob.objects.get().pk)
    download = downloading.value
    assert download.suggested_filename == f"match-{record.stream_id}.mat"
    with open(download.path(), encoding="utf-8") as written:
        assert written.read() == match_export_mat(record, store.read_stream(record.stream_id))
    assert page.console_errors == [] and page.foreign_hosts == set()
