"""Fair play for officials and the directors of the player's events: a player's figures online beside theirs at the
board and the field's, and a flag for a person to review, raised only over enough decisions on both sides, with the
data it was judged on and its limits."""

from __future__ import annotations

import itertools

import pytest
from django.conf import settings
from django.utils import timezone

from analysis.models import MatchAnalysis, PlayerFigures
from eventlog import projections
from games.models import MatchSummary

pytestmark = pytest.mark.django_db
_ids = itertools.count(1)


def _analysed(player_id: int, *, online: bool, moves: int, error: float, other=None) -> None:
    """A public match's analysis, done: the player's figures (``error`` in EMG over ``moves`` unforced moves)."""
    stream = f"m{next(_ids)}"
    MatchSummary.objects.create(stream_id=stream, player0_id=player_id, player1_id=other, player0_name="P",
                                player1_name="Q", length=7, phase="over", created_at=timezone.now())
    analysis = MatchAnalysis.objects.create(stream_id=stream, plies=settings.ANALYSIS_PLIES,
                                            status=MatchAnalysis.DONE, online=online, player0_id=player_id)
    for side, pid, err in ((0, player_id, error), (1, other, 2 * error)):
        PlayerFigures.objects.create(analysis=analysis, side=side, player_id=pid, name="P", unforced_moves=moves,
                                     chequer_error=err, chequer_rate=1000 * err / moves, close_cube=0,
                                     cube_error=0, cube_rate=0, overall_rate=1000 * err / moves,
                                     performance_rating=500 * err / moves, luck=0)


def test_a_player_much_better_online_over_enough_decisions_is_flagged_for_review(api, make_user):
    official, member = make_user("olga", official=True, player=False), make_user("max")
    suspect, steady = make_user("sam").player.pk, make_user("tia").player.pk
    for _ in range(2):
        _analysed(suspect, online=False, moves=200, error=2.0)  # 10 mEMG a move at the board
        _analysed(suspect, online=True, moves=200, error=0.6)  # 3 online
        _analysed(steady, online=False, moves=200, error=1.6)
        _analysed(steady, online=True, moves=200, error=1.4)
    seen = api(official).get(f"/api/players/{suspect}/fair-play/").json()
    assert seen["board"]["overall_rate"] == pytest.approx(10.0) and seen["online"]["overall_rate"] == pytest.approx(3.0)
    assert seen["flag"] == {"raised": True, "decisions": {"online": 400, "board": 400}, "share": pytest.approx(0.3),
                            "min_decisions": 300, "max_share": 0.6}
    assert seen["field"]["online"]["matches"] == 4 and seen["field"]["board"]["matches"] == 4
    assert "never proof" in seen["limits"]
    assert api(official).get(f"/api/players/{steady}/fair-play/").json()["flag"]["raised"] is False

    # too few decisions online: no flag, however good
    few = make_user("fay").player.pk
    _analysed(few, online=False, moves=400, error=4.0)
    _analysed(few, online=True, moves=100, error=0.1)
    judged = api(official).get(f"/api/players/{few}/fair-play/").json()["flag"]
    assert judged["raised"] is False and judged["decisions"] == {"online": 100, "board": 400}

    # a player's own figures are public; their fair-play review is for officials only
    refused = api(member).get(f"/api/players/{suspect}/fair-play/")
    assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"
    assert api(None).get(f"/api/players/{suspect}/fair-play/").status_code in (401, 403)


def test_the_fair_play_page_shows_officials_the_figures_the_flag_and_its_limits(client, make_user):
    official, member = make_user("olga", official=True, player=False), make_user("max")
    suspect = make_user("sam").player.pk
    for _ in range(2):
        _analysed(suspect, online=False, moves=200, error=2.0)
        _analysed(suspect, online=True, moves=200, error=0.6)
    client.force_login(official)
    page = client.get(f"/players/{suspect}/fair-play/").content.decode()
    assert "Flagged for review" in page and "never proof" in page and "10.0" in page and "3.0" in page
    assert 'id="fair-play-link"' in client.get(f"/players/{suspect}/").content.decode()
    client.force_login(member)
    assert client.get(f"/players/{suspect}/fair-play/").status_code == 403
    assert 'id="fair-play-link"' not in client.get(f"/players/{suspect}/").content.decode()


def _event_of(director, *players, online: bool = True):
    """An event ``director`` runs, with these players entered (some of its rounds online, unless ``online`` False)."""
    from tournaments import services

    event = services.tournament_create(actor=director, name="Online night", format="single_elimination",
                                       settings={"lengths": {"main": {"default": 3}}})
    if online:
        services.tournament_command(actor=director, tournament=event, command={"type": "set_round_online",
                                                                               "online": True})
    for player in players:
        services.tournament_command(actor=director, tournament=event, command={"type": "enter", "player": player})
    return event


def test_an_events_director_reviews_its_players_and_nobody_elses(api, client, make_user):
    dora, other = make_user("dora", player=False), make_user("otto", player=False)
    member = make_user("max")
    sam, tia = make_user("sam").player.pk, make_user("tia").player.pk
    for pid in (sam, tia, sam, tia):
        _analysed(pid, online=False, moves=200, error=2.0)
        _analysed(pid, online=True, moves=200, error=0.6)
    _event_of(dora, sam)
    _event_of(other, tia)

    seen = api(dora).get(f"/api/players/{sam}/fair-play/")
    assert seen.status_code == 200 and seen.json()["flag"]["raised"] is True
    for who, whom in ((dora, tia), (other, sam), (member, sam)):  # another director's player; a plain member
        refused = api(who).get(f"/api/players/{whom}/fair-play/")
        assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"
        assert "directors of the events the player entered" in refused.json()["detail"]

    client.force_login(dora)
    assert "Flagged for review" in client.get(f"/players/{sam}/fair-play/").content.decode()
    assert client.get(f"/players/{tia}/fair-play/").status_code == 403
    client.force_login(other)
    assert client.get(f"/players/{sam}/fair-play/").status_code == 403


def test_the_console_of_an_online_event_links_each_players_review(client, make_user):
    dora = make_user("dora", player=False)
    sam = make_user("sam").player.pk
    online, at_the_board = _event_of(dora, sam), _event_of(dora, sam, online=False)
    projections.run_all()  # the console lists the entries of the event's read model
    client.force_login(dora)
    console = client.get(f"/events/{online.pk}/run/").content.decode()
    assert f'href="/players/{sam}/fair-play/"' in console
    assert "fair-play-link" not in client.get(f"/events/{at_the_board.pk}/run/").content.decode()
