"""An analysis in progress shows decisions done / total: the total counted from the match's own events before
gnubg runs, equal to the decisions the finished analysis stores; done advancing game by game."""

from __future__ import annotations

import os
import queue
import random
import threading
from collections import Counter
from pathlib import Path

import pytest
from django.db import connection

from analysis import services
from analysis.models import MatchAnalysis
from eventlog import projections, store
from tests.games.recorder import Recorder
from tests.waiting import WAIT

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "gnubg"
pytestmark = pytest.mark.skipif(not os.path.exists("/usr/games/gnubg"), reason="no gnubg")


def imported(api, make_user, name: str) -> str:
    official = api(make_user("root", official=True, player=False))
    with open(FIXTURES / "matches" / name, "rb") as f:
        response = official.post("/api/matches/import/", {"file": f}, format="multipart")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def recorded(api, make_user) -> str:
    alice, bob = make_user("alice"), make_user("bob")
    client = api(alice)
    # dice from the board, drawn from the seed: the same match every run (the server's dice made it a different
    # one each time, now and then over in a single game, which this test needs more than)
    body = {"player0": alice.player.pk, "player1": bob.player.pk, "length": 5, "dice": "board"}
    m = Recorder(client, client.post("/api/matches/", body, format="json").json())
    m.client = api(make_user("root", official=True, player=False))
    m.play_random(random.Random(7))  # random plays: doubles, takes and drops, dances
    return m.id


@pytest.mark.django_db
@pytest.mark.parametrize("source", ["fixture", "api"])
def test_the_total_counted_from_the_events_is_the_number_of_decisions_stored(source, api, make_user):
    match_id = imported(api, make_user, "match_014_7pt.mat") if source == "fixture" else recorded(api, make_user)
    per_game = services.decisions_per_game(store.read_stream(match_id))  # before gnubg: the events alone
    projections.run("analysis")
    row = MatchAnalysis.objects.get(stream_id=match_id)
    assert services.analysis_run(pk=row.pk) == MatchAnalysis.DONE, row.error
    body = api().get(f"/api/matches/{match_id}/analysis/").json()
    stored = Counter(d["game"] for d in body["decisions"])
    assert len(per_game) > 1 and [stored[g] for g in range(1, len(per_game) + 1)] == per_game  # game by game
    kinds = Counter(d["kind"] for d in body["decisions"])
    assert kinds["move"] and kinds["no double"] and kinds["double"] and (kinds["take"] or kinds["drop"])
    assert body["decisions_total"] == body["decisions_done"] == len(body["decisions"]) == sum(per_game)


@pytest.mark.django_db(transaction=True)
def test_the_api_shows_decisions_done_of_the_total_while_gnubg_runs(api, make_user, monkeypatch, settings,
                                                                    broker_url):
    from tests.conftest import officials_group

    officials_group()
    match_id = imported(api, make_user, "match_005_11pt.mat")  # 11 games: progress in 11 steps
    projections.run("analysis")
    pk = MatchAnalysis.objects.get(stream_id=match_id).pk
    queued = api().get(f"/api/matches/{match_id}/analysis/").json()
    assert (queued["status"], queued["decisions_done"]) == ("queued", 0)

    # the run stops where the pages could look (the total announced, then each game's progress stored) until the
    # API has been read: every step is seen, however the machine shares its time between gnubg and this thread
    steps, looked = queue.Queue(), queue.Queue()

    def stop_for_a_look():
        steps.put(True)
        looked.get(timeout=WAIT)

    analyse_mat = services.gnubg.analyse_mat

    def analysed_in_steps(*args, on_progress, **kwargs):
        stop_for_a_look()  # the total is announced, gnubg not started

        def progress(*games):
            on_progress(*games)
            stop_for_a_look()

        return analyse_mat(*args, on_progress=progress, **kwargs)

    monkeypatch.setattr(services.gnubg, "analyse_mat", analysed_in_steps)

    def run():
        try:
            services.analysis_run(pk=pk)
        finally:
            connection.close()
            steps.put(False)

    worker = threading.Thread(target=run)
    seen = []
    # 2-ply: seconds per game, so that gnubg's progress file (read twice a second) is seen game by game
    MatchAnalysis.objects.filter(pk=pk).update(plies=2)
    settings.ANALYSIS_TIMEOUT_SECONDS = 3600  # gnubg's time limit is the site's concern, not this test's
    worker.start()
    while steps.get(timeout=WAIT * 5):  # the next step, or the run's end (2-ply of 11 games: minutes when busy)
        body = api().get(f"/api/matches/{match_id}/analysis/").json()
        seen.append((body["status"], body["decisions_done"], body["decisions_total"]))
        looked.put(True)
    worker.join()
    final = api().get(f"/api/matches/{match_id}/analysis/").json()
    assert final["status"] == "done", final["error"]
    running = [s for s in seen if s[0] == "running" and s[2]]
    assert running, seen
    assert {t for _, _, t in running} == {len(final["decisions"])}  # announced before: what is stored after
    done = [d for _, d, _ in running]
    # from 0, game by game (the last game's may be seen just before the results are stored)
    assert done == sorted(done) and done[0] == 0 and len(set(done)) > 2 and done[-1] <= len(final["decisions"]), done
    assert final["decisions_done"] == final["decisions_total"] == len(final["decisions"])
