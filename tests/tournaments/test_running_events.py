"""Running events through the services: draw, automatic advancement, results, corrections, rebuilds."""

import pytest
from django.core.management import call_command
from django.forms.models import model_to_dict

from eventlog import projections
from games.command_handler import match_command
from games.commands import RollDice
from games.engine import commands as match_commands
from games.loading import match_load
from players.models import Player
from tournaments import refusals, services
from tournaments.models import Tournament, TournamentSlot, TournamentStanding, TournamentState
from tournaments.refusals import Reason
from tournaments.selectors import tournament_data

from tests.refusals import refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(make_user):
    return make_user("dora", player=False)


@pytest.fixture
def field8():
    return [Player.objects.create(display_name=f"Seed {i}").pk for i in range(1, 9)]


def settle(t: Tournament) -> dict:
    """Let projections and the process manager run until nothing is left to do (what the worker does)."""
    for _ in range(20):
        projections.run_all()
        if not services.tournament_advance(t):
            projections.run_all()
            return tournament_data(t)
    raise AssertionError("the event did not settle")


def cmd(t: Tournament, actor, **command):
    return services.tournament_command(actor=actor, tournament=t, command=command)


def start(director, players, fmt="single_elimination", **settings) -> Tournament:
    t = services.tournament_create(actor=director, name="Club night", format=fmt, settings=settings)
    for p in players:
        cmd(t, director, type="enter", player=p)
        cmd(t, director, type="check_in", player=p)
    cmd(t, director, type="draw", method="manual", seeds=list(players))
    return t


def slot(data: dict, key: str) -> dict:
    return next(s for s in data["slots"] if s["key"] == key)


def report(t, director, data, key, winner, length=None):
    s = slot(data, key)
    cmd(t, director, type="report_result", slot=key, winner=winner, score=[s["length"], 0])


def play_to_end(director, match_id: str, winner_seat: int) -> None:
    """The loser resigns backgammons until the match is over: a real match stream to its end."""
    for _ in range(40):
        record = match_load(match_id)
        if record.finished:
            return
        state = record.state
        for command in (
            # the match's own dice source: the server's, or (an event set to "board") numbers from the board
            (RollDice(dice=(3, 1) if record.dice_source == "board" else None) if state.phase == "opening" else None),
            match_commands.Resign(1 - winner_seat, "backgammon"),
            match_commands.AcceptResignation(winner_seat),
        ):
            if command:
                record = match_load(match_id)
                match_command(actor=director, stream_id=match_id, command=command,
                              expected_version=record.version)
    raise AssertionError("the match did not end")


def test_single_elimination_creates_round_one_then_advances_winners_automatically(director, field8):
    t = start(director, field8, lengths={"main": {"default": 5, "final": 7}})
    data = settle(t)
    first = [s for s in data["slots"] if s["round"] == 1]
    assert len(first) == 4 and all(s["match_id"] for s in first)
    assert {frozenset(s["players"]) for s in first} == {
        frozenset((field8[0], field8[7])), frozenset((field8[3], field8[4])),
        frozenset((field8[1], field8[6])), frozenset((field8[2], field8[5])),
    }
    # the first match is played on the board to its end, the others reported on paper
    m1 = slot(data, "main:r1:m1")
    play_to_end(director, m1["match_id"], winner_seat=0)
    for s in first[1:]:
        report(t, director, data, s["key"], s["players"][0])
    data = settle(t)
    second = [s for s in data["slots"] if s["round"] == 2]
    assert all(s["status"] == "ready" and s["match_id"] for s in second)
    assert slot(data, "main:r2:m1")["players"][0] == m1["players"][0]
    for s in second:
        report(t, director, data, s["key"], s["players"][0])
    data = settle(t)
    final = slot(data, "main:r3:m1")
    assert final["length"] == 7
    report(t, director, data, "main:r3:m1", final["players"][1])
    data = settle(t)
    assert data["winner"] == final["players"][1]
    assert data["standings"][0]["player_id"] == final["players"][1] and data["standings"][0]["wins"] == 3


def test_correcting_a_round_one_result_after_round_two_was_paired(director, field8):
    t = start(director, field8)
    data = settle(t)
    for s in [s for s in data["slots"] if s["round"] == 1]:
        report(t, director, data, s["key"], s["players"][0])
    data = settle(t)
    r2m1, r2m2 = slot(data, "main:r2:m1"), slot(data, "main:r2:m2")
    seed1, seed8, seed4 = field8[0], field8[7], field8[3]
    assert set(r2m1["players"]) == {seed1, seed4}
    # round 2, match 1 has begun at the board (the opening roll); match 2 has not
    started = r2m1["match_id"]
    match_command(actor=director, stream_id=started, command=RollDice(), expected_version=2)
    # the director corrects round 1: seed 8 beat seed 1 after all
    cmd(t, director, type="correct_result", slot="main:r1:m1", winner=seed8, score=[7, 5], reason="scoresheet")
    data = settle(t)
    # the bracket: seed 8 now plays in round 2 and seed 1 is out
    assert set(slot(data, "main:r2:m1")["players"]) == {seed8, seed4}
    assert slot(data, "main:r1:m1")["winner"] == seed8
    # standings: seed 8 has the win, seed 1 the loss
    rows = {r["player_id"]: r for r in data["standings"]}
    assert (rows[seed8]["wins"], rows[seed1]["losses"]) == (1, 1) and rows[seed1]["wins"] == 0
    # the started match on the now-wrong pairing is flagged to the director, not touched
    assert data["flagged"] == [{"slot": "main:r2:m1", "match_id": started, "match_players": [seed1, seed4],
                                "slot_players": [seed8, seed4], "started": True, "finished": False}]
    assert match_load(started).voided is None
    # the untouched slot keeps its match
    assert slot(data, "main:r2:m2")["match_id"] == r2m2["match_id"]
    # the director voids the flagged match: a new one is made for the right players
    cmd(t, director, type="void_match", slot="main:r2:m1", reason="wrong pairing")
    data = settle(t)
    assert data["flagged"] == []
    fresh = slot(data, "main:r2:m1")["match_id"]
    assert fresh != started and set(match_load(fresh).player_ids) == {seed8, seed4}


def test_a_correction_before_the_next_match_started_simply_replaces_it(director, field8):
    t = start(director, field8)
    data = settle(t)
    for s in [s for s in data["slots"] if s["round"] == 1]:
        report(t, director, data, s["key"], s["players"][0])
    data = settle(t)
    before = slot(data, "main:r2:m1")["match_id"]
    cmd(t, director, type="correct_result", slot="main:r1:m1", winner=field8[7], score=[7, 0], reason="typo")
    data = settle(t)
    after = slot(data, "main:r2:m1")
    assert data["flagged"] == [] and after["match_id"] != before
    assert match_load(before).voided and set(after["players"]) == {field8[7], field8[3]}


def test_keeping_a_flagged_match_lets_it_stand(director, field8):
    t = start(director, field8)
    data = settle(t)
    for s in [s for s in data["slots"] if s["round"] == 1]:
        report(t, director, data, s["key"], s["players"][0])
    data = settle(t)
    started = slot(data, "main:r2:m1")["match_id"]
    match_command(actor=director, stream_id=started, command=RollDice(), expected_version=2)
    cmd(t, director, type="correct_result", slot="main:r1:m1", winner=field8[7], score=[7, 5], reason="late")
    data = settle(t)
    assert data["flagged"]
    cmd(t, director, type="keep_match", slot="main:r2:m1")
    data = settle(t)
    assert data["flagged"] == [] and slot(data, "main:r2:m1")["match_id"] == started
    assert set(slot(data, "main:r2:m1")["players"]) == {field8[0], field8[3]}


def test_swiss_pairs_rounds_automatically_without_rematches(director):
    players = [Player.objects.create(display_name=f"S{i}").pk for i in range(7)]
    t = start(director, players, fmt="swiss", rounds=3, tiebreaks=["buchholz", "sonneborn_berger"])
    met = set()
    for round_no in (1, 2, 3):
        data = settle(t)
        pairs = [s for s in data["slots"] if s["round"] == round_no]
        assert len(pairs) == 4 and sum(1 for s in pairs if None in s["players"]) == 1  # one bye, 7 players
        for s in pairs:
            if None in s["players"]:
                continue
            assert frozenset(s["players"]) not in met
            met.add(frozenset(s["players"]))
            report(t, director, data, s["key"], min(s["players"]))
    data = settle(t)
    assert len(data["slots"]) == 12
    assert [r["rank"] for r in data["standings"]] == list(range(1, 8))
    assert set(data["standings"][0]["tiebreaks"]) == {"buchholz", "sonneborn_berger"}
    assert data["winner"] == data["standings"][0]["player_id"]


def test_a_swiss_correction_while_an_earlier_round_is_reopened_repairs_the_last_round_once_it_is_played_again(
        director):
    p = [Player.objects.create(display_name=f"S{i}").pk for i in range(4)]
    t = start(director, p, fmt="swiss", rounds=3)
    for round_no in (1, 2):  # the lower id wins every match: r1 p0-p2, p1-p3; r2 p0-p1, p2-p3
        settle(t)
        data = settle(t)
        for s in [s for s in data["slots"] if s["round"] == round_no]:
            report(t, director, data, s["key"], min(s["players"]))
    settle(t)
    data = settle(t)
    third = {s["key"]: s["match_id"] for s in data["slots"] if s["round"] == 3}
    assert len(third) == 2 and all(third.values())
    cmd(t, director, type="void_match", slot="swiss:r2:t1", reason="wrong dice")  # round 2 reopened
    settle(t)
    cmd(t, director, type="correct_result", slot="swiss:r1:t1", winner=p[2], score=[7, 0], reason="scoresheet")
    data = settle(t)  # round 3 cannot be paired again before round 2 is: it stands meanwhile
    assert {s["key"]: s["match_id"] for s in data["slots"] if s["round"] == 3} == third
    assert not TournamentState.objects.get(tournament_id=t.pk).needs_advance  # nor does the sweep keep trying
    report(t, director, data, "swiss:r2:t1", p[0])
    settle(t)
    data = settle(t)  # now repaired from the corrected table: p2 two wins, p0 and p1 one, p3 none
    repaired = [s for s in data["slots"] if s["round"] == 3]
    assert {frozenset(s["players"]) for s in repaired} == {frozenset((p[2], p[1])), frozenset((p[0], p[3]))}
    assert all(s["match_id"] and s["match_id"] not in third.values() for s in repaired)
    match_command(actor=director, stream_id=repaired[0]["match_id"], command=RollDice(), expected_version=2)
    cmd(t, director, type="correct_result", slot="swiss:r1:t2", winner=p[3], score=[7, 0], reason="scoresheet")
    settle(t)  # a correction once the last round has begun: nothing to repair, and nothing left for the sweep
    assert not TournamentState.objects.get(tournament_id=t.pk).needs_advance


def test_round_robin_with_a_withdrawal_forfeits_the_rest(director):
    players = [Player.objects.create(display_name=f"R{i}").pk for i in range(5)]
    t = start(director, players, fmt="round_robin", tiebreaks=["points_diff"])
    data = settle(t)
    assert len(data["slots"]) == 15  # 5 rounds of 3 slots (one bye a round)
    cmd(t, director, type="withdraw", player=players[4])
    data = settle(t)
    for s in data["slots"]:
        if s["status"] == "ready":
            report(t, director, data, s["key"], min(s["players"]))
    data = settle(t)
    rows = {r["player_id"]: r for r in data["standings"]}
    assert rows[players[4]]["wins"] == 0 and data["winner"] is not None
    assert all(s["status"] in ("done", "bye") for s in data["slots"])


def test_double_elimination_runs_to_a_champion(director):
    players = [Player.objects.create(display_name=f"D{i}").pk for i in range(4)]
    t = start(director, players, fmt="double_elimination", reset=True)
    for _ in range(10):
        data = settle(t)
        ready = [s for s in data["slots"] if s["status"] == "ready"]
        if not ready:
            break
        for s in ready:
            report(t, director, data, s["key"], min(s["players"]))
    assert data["winner"] == min(players)


def test_refusals(director, field8, make_user):
    t = services.tournament_create(actor=director, name="Night", format="single_elimination")
    with refused(refusals.FieldTooSmall, Reason.TWO_PLAYERS):
        cmd(t, director, type="draw")
    outsider = make_user("olga")
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        cmd(t, outsider, type="draw")
    for p in field8[:4]:
        cmd(t, director, type="enter", player=p)
    cmd(t, director, type="draw")
    with refused(refusals.AlreadyDrawn, Reason.ALREADY_DRAWN):
        cmd(t, director, type="draw")
    data = settle(t)
    key = data["slots"][0]["key"]
    with refused(refusals.BadWinner, Reason.WINNER_OF_SLOT):
        cmd(t, director, type="report_result", slot=key, winner=field8[7], score=[7, 0])


def test_players_confirm_a_paper_result_together(director, make_user):
    ann, ben = make_user("ann"), make_user("ben")
    t = start(director, [ann.player.pk, ben.player.pk])
    data = settle(t)
    key = data["slots"][0]["key"]
    length = data["slots"][0]["length"]
    assert [e.event_type for e in cmd(t, ann, type="confirm_result", slot=key, winner=ben.player.pk, score=[length, 2])] == ["ResultConfirmed"]
    both = cmd(t, ben, type="confirm_result", slot=key, winner=ben.player.pk, score=[length, 2])
    assert [e.event_type for e in both] == ["ResultConfirmed", "ResultReported"]
    assert settle(t)["winner"] == ben.player.pk


def test_rebuild_gives_the_same_tournament_tables(director, field8):
    t = start(director, field8)
    data = settle(t)
    for s in [s for s in data["slots"] if s["round"] == 1]:
        report(t, director, data, s["key"], s["players"][1])
    cmd(t, director, type="correct_result", slot="main:r1:m2", winner=slot(data, "main:r1:m2")["players"][0],
        score=[7, 1], reason="check")
    settle(t)

    def tables():
        return [
            [model_to_dict(r) for r in model.objects.order_by(*order)]
            for model, order in ((TournamentState, ["tournament_id"]), (TournamentSlot, ["tournament_id", "key"]),
                                 (TournamentStanding, ["tournament_id", "rank"]))
        ]

    def strip(rows):
        return [[{k: v for k, v in r.items() if k != "id"} for r in table] for table in rows]

    before = strip(tables())
    call_command("rebuild_projections", stdout=open("/dev/null", "w"))
    assert strip(tables()) == before


@pytest.mark.worker
def test_a_live_worker_advances_the_bracket_on_its_own(live_worker, make_user):
    director = make_user("dora", player=False)
    players = [Player.objects.create(display_name=f"W{i}").pk for i in range(4)]
    t = start(director, players)
    from tests.waiting import wait_for

    def slots_with_matches(round_no):
        return [s for s in tournament_data(t)["slots"] if s["round"] == round_no and s["match_id"]]

    first = wait_for(lambda: len(slots_with_matches(1)) == 2 and slots_with_matches(1), what="round 1 matches")
    play_to_end(director, first[0]["match_id"], winner_seat=1)
    report(t, director, tournament_data(t), first[1]["key"], first[1]["players"][0])
    final = wait_for(lambda: slots_with_matches(2), what="the final to be created by the worker")[0]
    assert set(final["players"]) == {first[0]["players"][1], first[1]["players"][0]}


def test_paper_results_and_their_corrections_are_rated(director, field8):
    from ratings.models import PlayerRating
    from tests.ratings.season import recompute

    t = start(director, field8[:4])
    data = settle(t)
    first = [s for s in data["slots"] if s["round"] == 1]
    for s in first:
        report(t, director, data, s["key"], s["players"][0])
    settle(t)
    a, b = first[0]["players"]
    cmd(t, director, type="correct_result", slot=first[0]["key"], winner=b, score=[7, 3], reason="scoresheet")
    settle(t)
    c, d = first[1]["players"]
    expected = recompute([(b, a, first[0]["length"]), (c, d, first[1]["length"])])
    stored = {r.player_id: (r.rating, r.experience) for r in PlayerRating.objects.all()}
    assert stored == {p: (r.rating, r.experience) for p, r in expected.items()}


def test_swiss_late_entry_forbidden_pairing_and_manual_override(director):
    players = [Player.objects.create(display_name=f"L{i}").pk for i in range(6)]
    t = services.tournament_create(actor=director, name="Swiss", format="swiss",
                                   settings={"rounds": 3, "late_entry_until_round": 2, "auto_pair": False})
    for p in players[:5]:
        cmd(t, director, type="enter", player=p)
    cmd(t, director, type="forbid", players=[players[0], players[1]])
    cmd(t, director, type="draw", method="manual", seeds=players[:5])
    data = settle(t)
    assert all(set(s["players"]) != {players[0], players[1]} for s in data["slots"])
    cmd(t, director, type="enter", player=players[5])  # late entry for round 2
    for s in data["slots"]:
        if None not in s["players"]:
            report(t, director, data, s["key"], min(s["players"]))
    data = settle(t)
    with refused(refusals.BadPairings, Reason.FORBIDDEN_PAIR):
        cmd(t, director, type="pair_round", pairings=[[players[0], players[1]], [players[2], players[3]], [players[4], players[5]]])
    cmd(t, director, type="pair_round", pairings=[[players[5], players[0]], [players[1], players[2]], [players[3], players[4]]])
    data = settle(t)
    assert {frozenset(s["players"]) for s in data["slots"] if s["round"] == 2} == {
        frozenset((players[5], players[0])), frozenset((players[1], players[2])), frozenset((players[3], players[4]))}
    with refused(refusals.LateEntryClosed, Reason.LATE_ENTRY_CLOSED, round=2):
        cmd(t, director, type="enter", player=Player.objects.create(display_name="Too late").pk)


def test_forfeit_and_withdrawal_mid_event(director, field8):
    t = start(director, field8[:4])
    data = settle(t)
    first = [s for s in data["slots"] if s["round"] == 1]
    cmd(t, director, type="forfeit", slot=first[0]["key"], winner=first[0]["players"][1], reason="no-show")
    report(t, director, data, first[1]["key"], first[1]["players"][0])
    data = settle(t)
    final = slot(data, "main:r2:m1")
    assert set(final["players"]) == {first[0]["players"][1], first[1]["players"][0]}
    assert slot(data, first[0]["key"])["forfeit"]
    cmd(t, director, type="withdraw", player=first[1]["players"][0])
    data = settle(t)
    assert data["winner"] == first[0]["players"][1]


def test_seeding_by_rating(director, field8):
    from ratings.models import PlayerRating

    for i, p in enumerate(field8):
        PlayerRating.objects.create(player_id=p, rating=1500 + 10 * i, experience=500)
    t = services.tournament_create(actor=director, name="Rated", format="single_elimination")
    for p in field8:
        cmd(t, director, type="enter", player=p)
    events = cmd(t, director, type="draw", method="rating")
    assert events[0].payload["seeds"] == list(reversed(field8))
