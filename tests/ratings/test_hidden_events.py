"""A hidden (unpublished) event's results count nowhere public: not in the rating list, a player's rating and
history, the records and head-to-head, until the event is published; then everywhere, at their own place in the
log (a later public result's rating change is computed again after them, as after a correction); hidden again,
they leave again. Read through the API and the pages, the projections run here as the worker runs them."""

import os

from django.core.management import call_command

from players.models import Player
from ratings.models import RatingChange
from tests.games.engine.test_matfile import MATCHES
from tests.properties.events import differing, every_table, settled_here
from tests.ratings.from_log import history, live_ratings, recomputed
from tests.tournaments.test_running_events import cmd, start
from tournaments import services
from tournaments.stream import stream_id_of

from .test_records import won_by


def public(api, player_id: int) -> dict:
    """What anybody sees of a player: the rating list's row, the rating and history, the records."""
    listed = {r["player_id"]: r for r in api().get("/api/ratings/").json()}
    ratings = api().get(f"/api/players/{player_id}/ratings/").json()
    records = api().get(f"/api/players/{player_id}/records/").json()
    return {"listed": listed.get(player_id), "rating": ratings["rating"], "experience": ratings["experience"],
            "history": [h["match"] for h in ratings["history"]], "wins": records["wins"], "losses": records["losses"]}


def agree(what: str) -> None:
    settled_here()
    assert live_ratings() == recomputed(), f"live ratings differ from a recomputation {what}"


def test_a_hidden_events_result_counts_nowhere_public_until_published(postgres, make_user, api):
    director = make_user("dora", player=False)
    official = make_user("olga", official=True, player=False)
    ada, bruno, chloe = (Player.objects.create(display_name=n).pk for n in ("Ada", "Bruno", "Chloé"))
    hidden = start(director, [ada, bruno], lengths={"main": {"default": 3}})
    services.tournament_publish(actor=director, tournament=hidden, published=False)
    settled_here()
    cmd(hidden, director, type="report_result", slot="main:r1:m1", winner=ada, score=[3, 0])
    agree("after a hidden event's result")
    slot_key = f"{stream_id_of(hidden.pk)}:main:r1:m1"

    # the winner is where they were: not on the rating list, 1500 with no experience, no history, no record
    nothing = {"listed": None, "rating": 1500.0, "experience": 0, "history": [], "wins": 0, "losses": 0}
    assert public(api, ada) == nothing and public(api, bruno) == nothing
    assert api(official).get(f"/api/players/{ada}/records/").json()["wins"] == 0  # nor for an official
    h2h = api().get(f"/api/players/{ada}/head-to-head/{bruno}/").json()
    assert (h2h["wins"], h2h["losses"], h2h["results"]) == (0, 0, [])
    assert "Club night" not in api().get(f"/players/{ada}/").content.decode()

    # a later public result: Chloé beats Ada in a casual match, rated from 1500
    later = won_by(chloe, ada, 3)
    agree("after a later public result")
    alone = public(api, ada)
    assert alone["history"] == [later] and alone["listed"]["matches"] == 1 and alone["losses"] == 1
    first_change = RatingChange.objects.get(match_key=later, player_id=ada)
    assert first_change.rating_before == 1500.0

    # published: the hidden result counts at its own place, before the later match, whose change is recomputed
    services.tournament_publish(actor=director, tournament=hidden, published=True)
    agree("after the event was published")
    shown = public(api, ada)
    assert shown["history"] == [slot_key, later]
    assert (shown["listed"]["matches"], shown["wins"], shown["losses"]) == (2, 1, 1)
    won = RatingChange.objects.get(match_key=slot_key, player_id=ada)
    assert won.rating_after > 1500.0
    assert RatingChange.objects.get(match_key=later, player_id=ada).rating_before == won.rating_after
    assert public(api, bruno)["listed"]["rating"] < 1500.0
    h2h = api().get(f"/api/players/{ada}/head-to-head/{bruno}/").json()
    assert (h2h["wins"], h2h["losses"], [r["score"] for r in h2h["results"]]) == (1, 0, [[3, 0]])
    page = api().get(f"/players/{ada}/vs/{bruno}/").content.decode()
    assert "Ada against Bruno" in page and "3–0" in page

    # hidden again: out again, the later match rated from 1500 as before
    services.tournament_publish(actor=director, tournament=hidden, published=False)
    agree("after the event was hidden again")
    assert public(api, ada) == alone and public(api, bruno) == nothing

    live, live_history, tables = live_ratings(), history(), every_table()
    call_command("rebuild_projections", stdout=open(os.devnull, "w"))
    assert live_ratings() == live and history() == live_history
    after = every_table()
    assert after == tables, differing(tables, after)

    # the rule, said where the formula is
    formula = api().get("/ratings/formula/").content.decode()
    assert 'id="hidden-results"' in formula and "counts nowhere public" in formula


def test_a_hidden_events_own_matches_count_as_their_event_is_shown(postgres, make_user, api):
    """A match the director adds to a hidden event by hand (outside its slots), or imports into it, follows the event
    too."""
    from tests.tournaments.test_running_events import play_to_end

    director = make_user("dora", player=False)
    ada, bruno = (Player.objects.create(display_name=n) for n in ("Ada", "Bruno"))
    hidden = services.tournament_create(actor=director, name="Draft night", format="single_elimination")
    services.tournament_publish(actor=director, tournament=hidden, published=False)
    added = api(director).post(f"/api/tournaments/{hidden.pk}/matches/",
                               {"player0": ada.pk, "player1": bruno.pk, "length": 3}, format="json")
    assert added.status_code == 201, added.json()
    assert added.json()["published"] is False
    play_to_end(director, added.json()["id"], winner_seat=0)
    imported = api(director).post(f"/api/tournaments/{hidden.pk}/matches/import/", {
        "text": MATCHES[0].read_text(), "player0": ada.pk, "player1": bruno.pk}, format="json")
    assert imported.status_code == 201, imported.json()
    assert imported.json()["published"] is False
    agree("after a hidden event's own matches")
    assert public(api, ada.pk)["listed"] is None and public(api, bruno.pk)["listed"] is None

    services.tournament_publish(actor=director, tournament=hidden, published=True)
    agree("after the event was published")
    assert public(api, ada.pk)["history"] == [added.json()["id"], imported.json()["id"]]
