"""Players' records: head-to-head, streaks, best results and the nemesis, on hand-built histories.

Each figure is worked out by hand in the test. The histories go through the services and the log; the projections
the records read are run here, as the worker runs them (its own part: tests/games/test_read_model.py and the live
worker's runs in tests/properties), and are the same after ``rebuild_projections``. A merged duplicate
counts as its kept player, a voided match is out, a corrected result counts as corrected."""

import os
import uuid

import pytest
from django.core.management import call_command

from eventlog import projections
from eventlog.models import Event, ProjectionCheckpoint
from games.director import match_set_result, match_void
from players.models import Player
from ratings import records
from ratings.records import Result, Tally, nemesis, streaks
from tests.players.people import registrar
from tests.tournaments.test_running_events import cmd, start
from tournaments import services

from .season import quick_match


class _Singles:
    """quick_match's chance, fixed: an opening 3-1, then the loser resigns a single (one point a game)."""

    def sample(self, population, k):
        return [3, 1]

    def choice(self, options):
        return "single"


def won_by(winner: int, loser: int, length: int = 1) -> str:
    """A casual match ``winner`` wins ``length``–0."""
    return quick_match(winner, loser, length, 0, _Singles())


def caught_up() -> None:
    """Every projection run to the end of the log, here."""
    projections.run_all()
    last = Event.objects.order_by("-global_position").values_list("global_position", flat=True).first()
    names = set(projections.registered())  # every one of them: a checkpoint row is made on a projection's first run
    assert ProjectionCheckpoint.objects.filter(name__in=names, position__gte=last).count() == len(names)


def people(*names: str) -> list[int]:
    return [Player.objects.create(display_name=n).pk for n in names]


def everything(ids: list[int]) -> dict:
    return {p: (records.player_records(p), records.opponents(p),
                {q: records.head_to_head(p, q) for q in ids if q != p}) for p in ids}


@pytest.mark.django_db
def test_a_hand_built_history_with_a_merge_a_void_and_a_correction(api):
    ann, ann_again, bob, cleo, dan = people("Ann", "Ann (again)", "Bob", "Cleo", "Dan")
    won_by(ann, bob)                          # Ann W 1-0 v Bob
    won_by(bob, ann)                          # Ann L 0-1 v Bob
    won_by(cleo, ann, 3)                      # Ann L 0-3 v Cleo
    won_by(cleo, ann)                         # Ann L 0-1 v Cleo
    voided = won_by(ann, dan)                 # voided: out
    won_by(ann_again, bob)                    # the duplicate's: Ann W 1-0 v Bob once merged
    corrected = won_by(dan, ann, 5)           # Dan won 5-0 at the board; the director sets Ann 5-3
    won_by(bob, ann)                          # Ann L 0-1 v Bob: her latest
    match_void(stream_id=voided, reason="wrong players")
    assert match_set_result(stream_id=corrected, winner_player=ann, score=(5, 3), reason="scoresheet")
    from players.services import player_merge

    player_merge(actor=registrar(), kept_id=ann, duplicate_ids=[ann_again], reason="one person")
    caught_up()

    mine = records.player_records(ann)
    # W L L L W W L: 7 results (the void out), the duplicate's win and the correction counted
    assert {k: mine[k] for k in ("matches", "wins", "losses", "points_won", "points_lost")} == {
        "matches": 7, "wins": 3, "losses": 4, "points_won": 1 + 1 + 5, "points_lost": 1 + 3 + 1 + 3 + 1}
    assert mine["streaks"] == {"current": {"kind": "lost", "length": 1}, "longest_winning": 2, "longest_losing": 3}
    # Bob and Cleo both beat Ann twice; Ann beat Bob twice and Cleo never: Cleo is the nemesis
    assert mine["nemesis"] == {"opponent_id": cleo, "opponent": "Cleo", "matches": 2, "wins": 0, "losses": 2,
                               "points_won": 0, "points_lost": 4}
    assert records.player_records(ann_again) == mine  # the duplicate's page shows the person
    assert [(o["opponent_id"], o["matches"], o["wins"], o["losses"]) for o in records.opponents(ann)] == [
        (bob, 4, 2, 2), (cleo, 2, 0, 2), (dan, 1, 1, 0)]
    h2h = records.head_to_head(ann_again, bob)
    assert (h2h["player_id"], h2h["matches"], h2h["wins"], h2h["losses"], h2h["points_won"], h2h["points_lost"]) == (
        ann, 4, 2, 2, 2, 2)
    assert [m["winner_id"] for m in h2h["results"]] == [bob, ann, bob, ann]  # newest first
    dans = records.player_records(dan)
    assert (dans["matches"], dans["wins"], dans["losses"], dans["points_won"], dans["points_lost"]) == (1, 0, 1, 3, 5)
    assert dans["nemesis"]["opponent_id"] == ann
    assert records.head_to_head(ann, ann_again)["matches"] == 0  # one person

    # through the API: the records, the opponents paged, the head-to-head
    answer = api().get(f"/api/players/{ann_again}/records/").json()
    assert answer["person_id"] == ann and answer["nemesis"]["opponent_id"] == cleo and answer["losses"] == 4
    first = api().get(f"/api/players/{ann}/opponents/?limit=1")
    assert [r["opponent_id"] for r in first.json()] == [bob] and 'rel="next"' in first["Link"]
    second = api().get(f"/api/players/{ann}/opponents/?limit=1&offset=1").json()
    assert [r["opponent_id"] for r in second] == [cleo]
    vs = api().get(f"/api/players/{bob}/head-to-head/{ann_again}/").json()
    assert (vs["player_id"], vs["opponent_id"], vs["wins"], vs["losses"], len(vs["results"])) == (bob, ann, 2, 2, 4)
    assert api().get(f"/api/players/{ann}/head-to-head/999999/").status_code == 404
    page = api().get(f"/players/{ann_again}/").content.decode()
    assert 'id="merged-into"' in page and ">Cleo</a>" in page.split('id="nemesis"')[1]

    live = everything([ann, bob, cleo, dan])
    call_command("rebuild_projections", stdout=open(os.devnull, "w"))
    assert everything([ann, bob, cleo, dan]) == live


def settled(t) -> None:
    """What the worker does for an event: the projections, then the matches that became playable."""
    for _ in range(20):
        caught_up()
        if not services.tournament_advance(t):
            caught_up()
            return
    raise AssertionError("the event did not settle")


@pytest.mark.django_db
def test_an_event_gives_best_results_paper_scores_and_corrections_and_hides_a_hidden_event(make_user, api):
    director = make_user("dora", player=False)
    official = make_user("olga", official=True, player=False)
    a, b, c, d = people("Ada", "Bruno", "Chloé", "Dimitri")
    t = start(director, [a, b, c, d], lengths={"main": {"default": 5}})
    t.published = True
    t.save(update_fields=["published"])
    settled(t)
    cmd(t, director, type="report_result", slot="main:r1:m1", winner=a, score=[5, 2])  # Ada–Dimitri
    cmd(t, director, type="report_result", slot="main:r1:m2", winner=c, score=[5, 4])  # Bruno–Chloé
    settled(t)
    assert api().get(f"/api/players/{a}/best-results/").json() == []  # a place in an event still played: not yet
    cmd(t, director, type="report_result", slot="main:r2:m1", winner=c, score=[5, 1])  # the final
    settled(t)
    ada = records.player_records(a)
    assert (ada["matches"], ada["wins"], ada["losses"], ada["points_won"], ada["points_lost"]) == (2, 1, 1, 6, 7)
    assert ada["nemesis"]["opponent_id"] == c and ada["streaks"]["current"] == {"kind": "lost", "length": 1}
    best = api().get(f"/api/players/{c}/best-results/").json()
    assert [(r["tournament_id"], r["place"], r["field"], r["wins"]) for r in best] == [(t.pk, 1, 4, 2)]
    assert api().get(f"/api/players/{a}/best-results/").json()[0]["place"] == 2

    # the director corrects the final: Ada won it 5-4
    cmd(t, director, type="correct_result", slot="main:r2:m1", winner=a, score=[5, 4], reason="scoresheet")
    settled(t)
    ada = records.player_records(a)
    assert (ada["matches"], ada["wins"], ada["losses"], ada["points_won"], ada["points_lost"]) == (2, 2, 0, 10, 6)
    assert ada["nemesis"] is None and ada["streaks"]["longest_winning"] == 2
    assert records.player_records(c)["nemesis"]["opponent_id"] == a
    assert api().get(f"/api/players/{a}/best-results/").json()[0]["place"] == 1
    h2h = api().get(f"/api/players/{c}/head-to-head/{a}/").json()
    assert (h2h["wins"], h2h["losses"], [r["score"] for r in h2h["results"]]) == (0, 1, [[4, 5]])

    # a hidden event's result counts nowhere public, for whoever looks, until the event is published
    hidden = start(director, [a, b], lengths={"main": {"default": 3}})
    services.tournament_publish(actor=director, tournament=hidden, published=False)
    settled(hidden)
    cmd(hidden, director, type="report_result", slot="main:r1:m1", winner=b, score=[3, 0])
    settled(hidden)
    assert api().get(f"/api/players/{a}/records/").json()["losses"] == 0
    assert api(official).get(f"/api/players/{a}/records/").json()["losses"] == 0

    page = api().get(f"/players/{a}/").content.decode()
    assert 'id="nemesis"' in page and "nobody yet" in page and "Club night" in page and "Dimitri" in page
    h2h_page = api().get(f"/players/{a}/vs/{c}/").content.decode()
    assert "Ada against Chloé" in h2h_page and "5–4" in h2h_page

    live = everything([a, b, c, d])
    call_command("rebuild_projections", stdout=open(os.devnull, "w"))
    assert everything([a, b, c, d]) == live


def _r(seq: int, opponent: int, won: bool) -> Result:
    return Result(key=uuid.uuid4().hex, seq=seq, opponent_id=opponent, won=won, length=1, points_for=int(won),
                  points_against=int(not won), match_id=None, tournament_id=None)


def test_streaks_and_the_nemesis_tie_breaks_on_plain_results():
    assert streaks([]).as_dict() == {"current": {"kind": None, "length": 0}, "longest_winning": 0, "longest_losing": 0}
    run = [_r(1, 7, True), _r(2, 7, True), _r(3, 7, True), _r(4, 8, False), _r(5, 9, False), _r(6, 9, True)]
    assert streaks(run).as_dict() == {"current": {"kind": "won", "length": 1}, "longest_winning": 3,
                                      "longest_losing": 2}
    # 8 and 9 each beat the player once; 9 was beaten once, 8 never: 8 is the nemesis
    tallies: dict[int, Tally] = {}
    for r in run:
        tallies.setdefault(r.opponent_id, Tally()).add(r)
    assert nemesis(tallies) == 8
    # the same losses and wins: the one who won most recently
    even = [_r(1, 5, False), _r(2, 6, False), _r(3, 5, True), _r(4, 6, True)]
    tallies = {}
    for r in even:
        tallies.setdefault(r.opponent_id, Tally()).add(r)
    assert nemesis(tallies) == 6
    assert nemesis({}) is None
    assert nemesis({7: Tally(matches=2, wins=2)}) is None  # never lost: no nemesis


@pytest.mark.django_db
def test_the_player_page_shows_the_most_frequent_opponents_and_says_how_many_more(client):
    ann, *others = people("Ann", *(f"Opponent {i}" for i in range(12)))
    for i, other in enumerate(others):
        for _ in range(1 + (i == 11)):  # the last one twice: listed first
            won_by(ann, other)
    projections.run_all()
    page = client.get(f"/players/{ann}/").content.decode()
    table = page.split('id="opponents"')[1].split("</table>")[0]
    # most matches first, then the latest: Opponent 11 (two), then 10 down to 2; 1 and 0 (the oldest) left out
    assert table.count("<tr>") == 1 + 10 and table.index("Opponent 11") < table.index("Opponent 10")
    assert "Opponent 1<" not in table and "Opponent 0<" not in table and "Opponent 2<" in table
    assert "And 2 more opponents" in page
    assert len(client.get(f"/api/players/{ann}/opponents/?limit=100").json()) == 12
