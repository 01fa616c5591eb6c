"""The seasons API: open a season, add and remove events, set a rule from a date, read the table; refusals
with their codes change nothing; retries under one Idempotency-Key append once; all in the OpenAPI schema."""

import random

import pytest

from eventlog import projections
from eventlog.models import Event
from players.models import Club, Player
from seasons.decider import stream_id_of
from tests.tournaments.test_running_events import settle

from .play import RULE_V1, RULE_V2, new_event, play_on_paper

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_director(make_user):
    user = make_user("dora", player=False)
    club = Club.objects.create(name="Riverside")
    club.directors.add(user)
    return user, club


def appended(season_id: int) -> int:
    return Event.objects.filter(stream_id=stream_id_of(season_id)).count()


def test_a_club_director_runs_a_season_through_the_api(api, club_director, make_user):
    user, club = club_director
    client = api(user)
    players = [Player.objects.create(display_name=f"P{i}").pk for i in range(8)]
    events = []
    for i in range(2):
        t = new_event(user, f"Night {i + 1}", "single_elimination", players)
        t.club = club
        t.save(update_fields=["club"])
        play_on_paper(user, t, lambda t=t: settle(t), random.Random(i))
        events.append(t)

    answer = client.post("/api/seasons/", {"name": "Riverside 2026", "club": club.pk, "rule": RULE_V1,
                                           "effective_from": "2026-01-01"}, format="json")
    assert answer.status_code == 201, answer.json()
    season = answer.json()
    assert season["name"] == "Riverside 2026" and season["club"] == club.pk
    projections.run_all()
    season = api().get(f"/api/seasons/{season['id']}/").json()
    assert season["rules"][0]["version"] == 1 and season["version"] == 2
    for i, t in enumerate(events):
        sent = client.post(f"/api/seasons/{season['id']}/commands/",
                           {"type": "add_event", "tournament": t.pk, "on": f"2026-0{i + 1}-15"}, format="json")
        assert sent.status_code == 200, sent.json()
    assert sent.json() == {"version": 4}
    ruled = client.post(f"/api/seasons/{season['id']}/commands/", {
        "type": "set_rule", "rule": RULE_V2, "effective_from": "2026-02-01", "expected_version": 4}, format="json")
    assert ruled.status_code == 200 and ruled.json() == {"version": 5}
    projections.run_all()

    detail = api().get(f"/api/seasons/{season['id']}/").json()
    assert [e["rule_version"] for e in detail["events"]] == [1, 2]
    assert len(detail["table"]) == 8 and detail["table"][0]["rank"] == 1
    assert all(len(row["scores"]) == 2 for row in detail["table"])
    assert [r["id"] for r in api().get("/api/seasons/").json()] == [season["id"]]
    page = api().get(f"/seasons/{season['id']}/")
    assert page.status_code == 200 and "Night 1" in page.content.decode()
    assert api().get("/seasons/rules/").status_code == 200

    removed = client.post(f"/api/seasons/{season['id']}/commands/", {"type": "remove_event", "tournament": events[0].pk},
                          format="json")
    assert removed.status_code == 200
    projections.run_all()
    assert [e["tournament_id"] for e in api().get(f"/api/seasons/{season['id']}/").json()["events"]] == [events[1].pk]


def test_refusals_answer_their_code_and_append_nothing(api, club_director, make_user):
    user, club = club_director
    client = api(user)
    t = new_event(user, "Night", "single_elimination", [Player.objects.create(display_name=f"P{i}").pk for i in range(4)])
    season = client.post("/api/seasons/", {"name": "S", "club": club.pk}, format="json").json()
    url = f"/api/seasons/{season['id']}/commands/"
    assert client.post(url, {"type": "add_event", "tournament": t.pk}, format="json").status_code == 200
    before = appended(season["id"])

    def refused(client, body, status, code, headers=None):
        answer = client.post(url, body, format="json", headers=headers or {})
        assert (answer.status_code, answer.json().get("code")) == (status, code), answer.json()

    refused(client, {"type": "add_event", "tournament": t.pk}, 400, "already_in_season")
    refused(client, {"type": "remove_event", "tournament": t.pk + 99}, 400, "not_in_season")
    refused(client, {"type": "set_rule", "rule": {"components": []}, "effective_from": "2026-01-01"}, 400, "bad_rule")
    rounds_in_superscript = {"components": [{"kind": "match_wins", "rounds": {"²": 2}}]}
    refused(client, {"type": "set_rule", "rule": rounds_in_superscript, "effective_from": "2026-01-01"}, 400,
            "bad_rule")
    other = new_event(user, "Night 2", "single_elimination",
                      [Player.objects.create(display_name=f"Q{i}").pk for i in range(4)])
    for day in ("0001-01-01", "9999-12-31"):
        refused(client, {"type": "set_rule", "rule": RULE_V1, "effective_from": day}, 400, "bad_date")
        refused(client, {"type": "add_event", "tournament": other.pk, "on": day}, 400, "bad_date")
    refused(client, {"type": "set_rule", "rule": RULE_V1, "effective_from": "2026-01-01", "expected_version": 1},
            409, "stale_version")
    missing = client.post(url, {"type": "set_rule", "rule": RULE_V1}, format="json")
    assert missing.status_code == 400 and "effective_from" in missing.json()  # a field error, by field
    refused(api(make_user("sam")), {"type": "remove_event", "tournament": t.pk}, 403, "permission_denied")
    refused(api(), {"type": "remove_event", "tournament": t.pk}, 403, "not_authenticated")  # the session auth: 403
    assert appended(season["id"]) == before
    stranger = api(make_user("stan")).post("/api/seasons/", {"name": "Not mine", "club": club.pk}, format="json")
    assert (stranger.status_code, stranger.json()["code"]) == (403, "permission_denied")

    # a retry under the same key returns the first answer and appends nothing more
    body = {"type": "set_rule", "rule": RULE_V1, "effective_from": "2026-01-01"}
    first = client.post(url, body, format="json", headers={"Idempotency-Key": "rule-1"})
    again = client.post(url, body, format="json", headers={"Idempotency-Key": "rule-1"})
    assert first.status_code == again.status_code == 200 and first.json() == again.json()
    assert appended(season["id"]) == before + 1


def test_the_seasons_api_is_in_the_schema(api):
    paths = api().get("/api/schema/", HTTP_ACCEPT="application/json").json()["paths"]
    assert {"/api/seasons/", "/api/seasons/{id}/", "/api/seasons/{id}/commands/"} <= set(paths)
