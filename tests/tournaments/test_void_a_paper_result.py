"""Voiding the match of a result reported on paper voids that result: the slot is open again, and the event, its
standings, the next round, the ratings and the season tables all read it so (derived here as the worker does); the
director reports it again. Through the API, as a director does."""

from games.loading import match_load
from players.models import Player
from seasons import services as seasons
from tests.properties.events import settled_here
from tests.ratings.from_log import live_ratings, recomputed
from tests.seasons.play import START, new_event
from tests.tournaments.test_running_events import slot

RULE = {"components": [{"kind": "placement", "table": [{"min_field": 4, "points": [3, 2]}]}], "best": None}


def test_a_void_of_a_paper_result_reopens_the_slot_and_every_table_follows(postgres, make_user, api):
    director = make_user("dora", official=True, player=False)
    ann, bob, cid, dan = (Player.objects.create(display_name=n).pk for n in ("Ann", "Bob", "Cid", "Dan"))
    t = new_event(director, "Club night", "single_elimination", [ann, bob, cid, dan], lengths={"main": {"default": 5}})
    season = seasons.season_open(actor=director, name="Season", rule=RULE, effective_from=START)
    seasons.season_add_event(actor=director, season=season, tournament=t, on=START)
    client = api(director)

    def send(**command):
        answer = client.post(f"/api/tournaments/{t.pk}/commands/", command, format="json")
        assert answer.status_code == 200, answer.json()

    def event() -> dict:
        settled_here()
        return client.get(f"/api/tournaments/{t.pk}/").json()

    def rated(player: int) -> list[str]:
        return [h["match"] for h in client.get(f"/api/players/{player}/ratings/").json()["history"]]

    def season_points() -> dict:
        table = client.get(f"/api/seasons/{season.pk}/").json()["table"]
        return {row["player_id"]: row["total"] for row in table}

    first = slot(event(), "main:r1:m1")
    assert first["players"] == [ann, dan] and first["match_id"]
    send(type="report_result", slot="main:r1:m1", winner=ann, score=[5, 1])
    send(type="report_result", slot="main:r1:m2", winner=bob, score=[5, 3])
    final = slot(event(), "main:r2:m1")
    assert final["players"] == [ann, bob] and final["match_id"]

    # round one's paper result voided before the final began: the slot is open, the final waits again
    send(type="void_match", slot="main:r1:m1", reason="the scoresheet of another table")
    data = event()
    reopened, final_now = slot(data, "main:r1:m1"), slot(data, "main:r2:m1")
    assert (reopened["status"], reopened["winner"]) == ("ready", None)
    assert reopened["match_id"] not in (None, first["match_id"])  # a new match for it, as for a void at the board
    assert final_now["status"] == "waiting" and ann not in final_now["players"]
    assert match_load(final["match_id"]).voided is not None  # nobody had begun it: replaced
    assert not [m for m in rated(ann) if m.endswith(":main:r1:m1")] and not rated(dan)
    send(type="report_result", slot="main:r1:m1", winner=dan, score=[5, 2])  # reported again, as it was
    assert slot(event(), "main:r2:m1")["players"] == [dan, bob]

    send(type="report_result", slot="main:r2:m1", winner=dan, score=[5, 0])
    data = event()
    assert data["winner"] == dan and len(rated(dan)) == 2
    assert season_points()[dan] == 3 and season_points()[bob] == 2

    # the final's paper result voided: no winner any more, nor its rating, nor the season's points
    send(type="void_match", slot="main:r2:m1", reason="played with the wrong dice")
    data = event()
    final = slot(data, "main:r2:m1")
    assert (final["status"], final["winner"], data["winner"]) == ("ready", None, None)
    assert not any(r["player_id"] == dan and r["flight"] == "main" and r["wins"] == 2 for r in data["standings"])
    assert len(rated(dan)) == 1 and len(rated(bob)) == 1
    assert season_points() == {}
    detail = client.get(f"/api/seasons/{season.pk}/").json()
    assert [e["finished"] for e in detail["events"]] == [False]

    send(type="report_result", slot="main:r2:m1", winner=bob, score=[5, 4])  # the director reports it again
    data = event()
    assert data["winner"] == bob and len(rated(bob)) == 2 and len(rated(dan)) == 2
    assert season_points()[bob] == 3 and season_points()[dan] == 2
    assert live_ratings() == recomputed()
