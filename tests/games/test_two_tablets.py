"""Two tablets on one match: the one that was behind is told what the other recorded, in words, with the state
now. The recording screen's side is in tests/site/test_results_in_a_browser.py."""

import pytest

from eventlog.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(api, make_user):
    director = make_user("dora", official=True, player=False)
    ann, bob = make_user("ann"), make_user("bob")
    client = api(director)
    created = client.post("/api/matches/", {"player0": ann.player.pk, "player1": bob.player.pk, "length": 5,
                                            "dice": "board"},
                          format="json").json()
    opening = client.post(f"/api/matches/{created['id']}/commands/", {"type": "roll", "dice": [3, 1],
                          "expected_version": created["version"]}, format="json", HTTP_IDEMPOTENCY_KEY="k0").json()
    client.post(f"/api/matches/{created['id']}/commands/", {"type": "move", "move": "8/5 6/5",
                "expected_version": opening["state"]["version"]}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    return client, created["id"]


def post(client, match_id, key, **command):
    return client.post(f"/api/matches/{match_id}/commands/", command, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_the_second_tablet_entering_the_same_roll_is_told_the_other_already_did(match):
    client, match_id = match
    version = client.get(f"/api/matches/{match_id}/").json()["version"]
    first = post(client, match_id, f"{match_id}-{version}-roll", type="roll", dice=[5, 3], expected_version=version)
    assert first.status_code == 200
    count = Event.objects.count()
    # the other tablet, one press behind, enters the same roll (the other way round: 3-5) under its own key
    for key in (f"{match_id}-{version}-roll", "another-tablet-key"):
        second = post(client, match_id, key, type="roll", dice=[3, 5], expected_version=version)
        body = second.json()
        assert second.status_code == 409, body
        assert "Idempotency-Key" not in body["detail"]
        assert body["detail"] == "The other tablet already entered 5-3 for Bob; the screen is updated."
        assert body["state"]["version"] == first.json()["state"]["version"] and body["state"]["dice"] == [5, 3]
    assert Event.objects.count() == count


def test_a_stale_double_is_refused_with_what_happened_and_the_state_now(match):
    client, match_id = match
    version = client.get(f"/api/matches/{match_id}/").json()["version"]
    assert post(client, match_id, "a1", type="roll", dice=[6, 4], expected_version=version).status_code == 200
    now = client.get(f"/api/matches/{match_id}/").json()
    assert post(client, match_id, "a2", type="move", move="24/14", expected_version=now["version"]).status_code == 200
    stale = post(client, match_id, "b1", type="double", expected_version=version)
    body = stale.json()
    assert stale.status_code == 409
    assert body["detail"] == ("The other tablet already entered 6-4 for Bob, played 24/14 for Bob; "
                              "the screen is updated.")
    assert body["state"]["phase"] == "roll" and body["state"]["turn"] == 0


def test_a_retried_press_answers_as_the_first_time_and_says_the_match_has_moved_on(match):
    client, match_id = match
    version = client.get(f"/api/matches/{match_id}/").json()["version"]
    first = post(client, match_id, "press-1", type="double", expected_version=version)
    post(client, match_id, "press-2", type="take", expected_version=first.json()["state"]["version"])
    again = post(client, match_id, "press-1", type="double", expected_version=version)
    assert again.status_code == 200 and again.json() == first.json()
    assert int(again["X-Match-Version"]) > again.json()["state"]["version"]


@pytest.mark.parametrize("answer, english, french", [
    ("take", "recorded Ann's take", "noté que Ann accepte le videau"),
    ("drop", "recorded Ann's drop", "noté que Ann passe"),
])
def test_the_cubes_answer_is_told_in_the_readers_words_never_the_commands_name(match, answer, english, french):
    """The recording screen shows the 409's sentence as it comes: a French reader reads the federation's words
    (accepter, passer: GLOSSARY.md), not the API's "take" or "drop"; the command names themselves do not change."""
    client, match_id = match
    version = client.get(f"/api/matches/{match_id}/").json()["version"]
    offered = post(client, match_id, "d1", type="double", expected_version=version).json()
    assert post(client, match_id, "a1", type=answer, expected_version=offered["state"]["version"]).status_code == 200
    said = {}
    for language in ("en", "fr"):
        stale = client.post(f"/api/matches/{match_id}/commands/", {"type": "double", "expected_version": version},
                            format="json", HTTP_IDEMPOTENCY_KEY=f"late-{language}", HTTP_ACCEPT_LANGUAGE=language)
        assert stale.status_code == 409
        said[language] = stale.json()["detail"]
    assert said["en"] == f"The other tablet already recorded Bob's double to 2, {english}; the screen is updated."
    assert said["fr"] == f"L'autre tablette a déjà noté le double de Bob à 2, {french} ; l'écran est mis à jour."
