"""``manage.py rebuild_projections`` gives identical tables after a season that includes a
merge of duplicate players, corrections, a void and a late Swiss entry, run on PostgreSQL by the live worker.

The season goes through the public services only (tournament and match commands, the players' merge), so it
stays a season whatever the events are called inside; every table of the project is compared around the
rebuild (``events.every_table``: ratings and their history, rated matches and slots, match summaries, events'
state, slots and standings, the players' merged view, and the log itself, which a rebuild must not touch)."""

import pytest

from games.command_handler import match_command
from games.commands import CorrectResult, RollDice
from games.creation import match_create
from games.loading import match_load
from players.models import Player
from players.services import player_merge
from ratings.models import PlayerRating
from tests.players.people import registrar
from tests.tournaments.test_running_events import cmd, play_to_end, slot, start
from tournaments import services
from tournaments.selectors import tournament_data

from .events import check_read_models, settled_by_the_worker

pytestmark = [pytest.mark.worker]


def correct(official, match_id: str, winner_seat: int, reason: str) -> None:
    record = match_load(match_id)
    score = [0, 0]
    score[winner_seat] = record.state.length
    match_command(actor=official, stream_id=match_id, command=CorrectResult(winner_seat, tuple(score), reason),
                  expected_version=record.version)


def test_rebuild_projections_after_a_season_with_a_merge_a_correction_a_void_and_a_late_swiss_entry(
        postgres, live_worker, make_user):
    director = make_user("dora", player=False)
    official = make_user("olga", official=True, player=False)
    ann, ann_again, bob, cy, dee, eve, fay, gus, hal = (
        Player.objects.create(display_name=n) for n in ("Ann", "Ann (again)", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"))
    log: list[str] = []

    def step(what: str) -> None:
        log.append(what)
        settled_by_the_worker()

    # casual matches, one of them corrected by an official
    casual = match_create(actor=official, player0=ann_again, player1=hal, length=3).stream_id
    play_to_end(official, casual, winner_seat=0)
    other = match_create(actor=official, player0=ann, player1=gus, length=3).stream_id
    play_to_end(official, other, winner_seat=1)
    correct(official, other, winner_seat=0, reason="scoresheet")
    step("casual matches, one corrected")

    # a knock-out: one match at the board, one on paper, the board result corrected, the final's match voided
    knockout = start(director, [ann.pk, bob.pk, cy.pk, dee.pk], lengths={"main": {"default": 3}})
    step("knock-out drawn")
    data = tournament_data(knockout)
    first, second = slot(data, "main:r1:m1"), slot(data, "main:r1:m2")
    play_to_end(director, first["match_id"], winner_seat=0)
    cmd(knockout, director, type="report_result", slot=second["key"], winner=second["players"][1], score=[3, 1])
    step("knock-out round one")
    winner_at_the_board = slot(tournament_data(knockout), first["key"])["winner"]
    corrected_winner = next(p for p in first["players"] if p != winner_at_the_board)
    cmd(knockout, director, type="correct_result", slot=first["key"], winner=corrected_winner, score=[3, 2],
        reason="the scoresheet says otherwise")
    step("knock-out round one corrected")
    final = slot(tournament_data(knockout), "main:r2:m1")
    assert corrected_winner in final["players"]
    voided = final["match_id"]
    record = match_load(voided)
    match_command(actor=director, stream_id=voided, command=RollDice(), expected_version=record.version)
    cmd(knockout, director, type="void_match", slot=final["key"], reason="played with the wrong dice")
    step("the final's match voided")
    replay = slot(tournament_data(knockout), "main:r2:m1")["match_id"]
    assert replay and replay != voided
    play_to_end(director, replay, winner_seat=1)
    step("the final replayed")

    # a Swiss event with a late entry for round two; the duplicate entry plays in it
    swiss = services.tournament_create(actor=director, name="Swiss", format="swiss",
                                       settings={"rounds": 2, "late_entry_until_round": 2,
                                                 "lengths": {"rounds": {"default": 1}}})
    field = [ann_again.pk, eve.pk, fay.pk, gus.pk, hal.pk]
    for p in field:
        cmd(swiss, director, type="enter", player=p)
    cmd(swiss, director, type="draw", method="manual", seeds=field)
    step("Swiss drawn")
    cmd(swiss, director, type="enter", player=bob.pk)  # late, for round two
    for s in tournament_data(swiss)["slots"]:
        if None not in s["players"] and s["status"] == "ready":
            cmd(swiss, director, type="report_result", slot=s["key"], winner=min(s["players"]), score=[1, 0])
    step("Swiss round one, a late entry")

    # the two entries of Ann are one person: merged mid-season
    player_merge(actor=registrar(), kept_id=ann.pk, duplicate_ids=[ann_again.pk], reason="entered twice")
    step("Ann's entries merged")

    round_two = [s for s in tournament_data(swiss)["slots"] if s["round"] == 2 and None not in s["players"]]
    assert any(bob.pk in s["players"] for s in round_two), "the late entrant plays round two"
    board, *paper = round_two
    play_to_end(director, board["match_id"], winner_seat=0)
    for s in paper:
        cmd(swiss, director, type="report_result", slot=s["key"], winner=max(s["players"]), score=[1, 0])
    step("Swiss round two")

    # what the season did is there to see: the merge, the correction, the void
    ann_again.refresh_from_db()
    assert ann_again.merged_into_id == ann.pk and not PlayerRating.objects.filter(player_id=ann_again.pk).exists()
    assert slot(tournament_data(knockout), first["key"])["winner"] == corrected_winner
    assert match_load(voided).voided is not None
    # live = a straight recomputation, and rebuild_projections gives every table again, row for row
    check_read_models(log)
