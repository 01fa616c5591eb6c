"""The tournament's decider, alone: every command and every refusal, no database, no Django.

The state is built by folding typed events, as the stream would; the commands carry what the service
would have looked up (the actor, ratings, the ramp, the draw's seed).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from eventlog import upcasting
from published import language
from published import tournaments as published_tournaments
from tournaments import commands as c
from tournaments import decider, derive, refusals
from tournaments import events as ev
from tournaments.refusals import TournamentError, TournamentRefusal

DIRECTOR = c.Actor(official=True)
A, B, C, D = 11, 12, 13, 14


def fold(*events) -> decider.State:
    state = decider.State()
    for e in events:
        state = decider.evolve(state, e)
    return state


def configured(fmt="single_elimination", **config):
    return ev.TournamentConfigured({"format": fmt, **config})


def entered(*players):
    return [ev.PlayerEntered(p, 1) for p in players]


def knockout(*players, **config):
    """A single elimination drawn in this order (seed 1 meets the last seed)."""
    return [configured(**config), *entered(*players), ev.DrawMade(tuple(players), "manual")]


def swiss(*players, rounds=3, **config):
    return [configured("swiss", rounds=rounds, **config), *entered(*players), ev.DrawMade(tuple(players), "manual"),
            ev.RoundPaired(1, tuple((players[i], players[i + 1] if i + 1 < len(players) else None)
                                    for i in range(0, len(players), 2)), False)]


def decide(state, command, by=DIRECTOR):
    return decider.decide(state, c.with_facts(command, by=by))


def refused(state, command, error, by=DIRECTOR):
    with pytest.raises(error) as caught:
        decide(state, command, by)
    assert caught.value.code == error.code and str(caught.value)
    return caught.value


def slot(state, key):
    return next(s for s in derive.derive(state).slots if s.key == key)


# -- the module ---------------------------------------------------------------------------------


def test_the_decider_imports_nothing_of_django():
    code = ("import sys; import tournaments.decider, tournaments.commands, tournaments.events, tournaments.refusals;"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework', 'eventlog', 'players',"
            " 'ratings')]; print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[3], capture_output=True,
                          text=True, env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_refusal_has_its_own_stable_code_and_is_a_400_but_not_permitted():
    classes = [v for v in vars(refusals).values() if isinstance(v, type) and issubclass(v, refusals.Refused)
               and v not in (refusals.Refused, refusals.TournamentError)]
    codes = [cls.code for cls in classes]
    assert len(codes) == len(set(codes)) == len(TournamentRefusal)
    assert all(issubclass(cls, ValueError) for cls in classes if cls is not refusals.NotPermitted)
    assert not issubclass(refusals.NotPermitted, ValueError)


def test_evolve_leaves_the_state_it_was_given_as_it_was():
    before = fold(configured())
    after = decider.evolve(before, ev.PlayerEntered(A, 1))
    assert before.entered == [] and after.entered == [A] and after.version == 2


def test_a_stored_schema_1_correction_reads_as_the_tournaments_own():
    """Read as the log's read path reads it: through the upcaster its type declares (what the tournaments app
    registers when it is loaded)."""
    upcasting.declare(language.upcasters(published_tournaments.FACTS))
    rows = [SimpleNamespace(stream_type=ev.STREAM_TYPE, event_type=e.event_type, payload=e.to_payload(), version=i,
                            schema_version=1)
            for i, e in enumerate(knockout(A, B), 1)]
    old = {"slot": "main:r1:m1", "winner": B, "loser": A, "winner_points": 5, "loser_points": 1, "length": 5,
           "rating_ramp": "fibs", "reason": "scoresheet"}
    rows.append(SimpleNamespace(stream_type=ev.STREAM_TYPE, event_type="ResultCorrected", payload=old,
                                version=len(rows) + 1, schema_version=1))
    rows = [upcasting.read(row) for row in rows]
    state = decider.fold(rows)
    assert state.corrections["main:r1:m1"].winner == B and state.corrected_at == len(rows)
    assert decider.fold(rows[:-1]).corrections == {}


# -- director only ---------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [
    c.CheckIn(player=A), c.Withdraw(player=A), c.Draw(), c.PairRound(), c.Forbid(players=(A, B)),
    c.ReportResult(slot="main:r1:m1", winner=A, score=(5, 0)), c.CorrectResult(slot="s", winner=A, reason="x"),
    c.Forfeit(slot="s", winner=A), c.KeepMatch(slot="s"), c.VoidMatch(slot="s"),
])
def test_director_only_commands_refuse_anybody_else(command):
    state = fold(*knockout(A, B))
    refused(state, command, refusals.NotPermitted, by=c.Actor(official=False, player=A))


def test_an_unknown_command_is_refused():
    class Nonsense(c.TournamentCommand):
        pass

    refused(fold(configured()), Nonsense(), refusals.UnknownCommand)


# -- enter ---------------------------------------------------------------------------------------


def test_enter():
    state = fold(configured())
    assert decide(state, c.Enter(player=A)) == [ev.PlayerEntered(A, 1)]
    assert decide(state, c.Enter(player=A), by=c.Actor(player=A)) == [ev.PlayerEntered(A, 1)]
    refused(state, c.Enter(player=A), refusals.NotPermitted, by=c.Actor(player=B))
    refused(fold(configured(), *entered(A)), c.Enter(player=A), refusals.AlreadyEntered)
    assert decide(fold(configured(), *entered(A), ev.PlayerWithdrew(A, "")), c.Enter(player=A))  # back in


def test_enter_refuses_past_the_casual_limit():
    state = fold(configured(max_players=2), *entered(A, B))
    assert "at most 2 players" in str(refused(state, c.Enter(player=C), refusals.EventFull))


def test_late_entry_only_in_swiss_and_only_until_the_round_set():
    refused(fold(*knockout(A, B)), c.Enter(player=C), refusals.LateEntryClosed)
    assert decide(fold(*swiss(A, B, C, late_entry_until_round=2)), c.Enter(player=D)) == [ev.PlayerEntered(D, 2)]
    closed = refused(fold(*swiss(A, B, C, late_entry_until_round=1)), c.Enter(player=D), refusals.LateEntryClosed)
    # the reason says what holds: the round set has been paired (not "after round 1", read as "once it is over")
    assert str(closed) == "late entry closed: round 1, the last a late entrant may join, has been paired"
    none = refused(fold(*swiss(A, B, C)), c.Enter(player=D), refusals.LateEntryClosed)
    assert "its settings name no round for them" in str(none)


def test_settings_change_whole_before_the_draw_and_only_the_running_ones_after():
    before = fold(configured("swiss", rounds=3, rated=False, max_players=8), *entered(A, B))
    new = {"rounds": 4, "lengths": {"rounds": {"default": 5}}, "late_entry_until_round": 2}
    assert decide(before, c.Configure(settings=new)) == [ev.SettingsChanged(new)]
    after = decider.evolve(before, ev.SettingsChanged(new))
    # the format, the site's limit and rated-or-not are kept: they are not the form's to replace
    assert after.config == {**new, "format": "swiss", "rated": False, "max_players": 8}
    assert decide(after, c.Configure(settings=new)) == []  # nothing changed, nothing appended
    refused(after, c.Configure(settings=new), refusals.NotPermitted, by=c.Actor(official=False, player=A))

    drawn = fold(*swiss(A, B, C, D, rounds=3, late_entry_until_round=1))
    running = {**{k: v for k, v in drawn.config.items() if k != "format"}, "late_entry_until_round": 3, "rounds": 5}
    assert decide(drawn, c.Configure(settings=running)) == [ev.SettingsChanged(running)]
    shaped = refused(drawn, c.Configure(settings={**running, "qualifiers": 2}), refusals.SettingsFixed)
    assert str(shaped) == "the draw is made: qualifiers no longer change"
    fewer = refused(drawn, c.Configure(settings={**running, "rounds": 0}), refusals.SettingsFixed)
    assert "round 1 has been paired" in str(fewer)


# -- check in, withdraw -----------------------------------------------------------------------------


def test_check_in():
    state = fold(configured(), *entered(A))
    assert decide(state, c.CheckIn(player=A)) == [ev.PlayerCheckedIn(A)]
    assert decide(decider.evolve(state, ev.PlayerCheckedIn(A)), c.CheckIn(player=A)) == []  # once is enough
    refused(state, c.CheckIn(player=B), refusals.NotEntered)
    refused(fold(*knockout(A, B)), c.CheckIn(player=A), refusals.CheckInClosed)


def test_withdraw():
    state = fold(configured(), *entered(A))
    assert decide(state, c.Withdraw(player=A, reason="ill")) == [ev.PlayerWithdrew(A, "ill")]
    refused(state, c.Withdraw(player=B), refusals.NotInEvent)
    refused(decider.evolve(state, ev.PlayerWithdrew(A, "")), c.Withdraw(player=A), refusals.NotInEvent)


# -- the draw --------------------------------------------------------------------------------------


def test_draw_by_hand_by_rating_and_at_random():
    state = fold(configured(), *entered(A, B, C, D))
    assert decide(state, c.Draw(method="manual", seeds=(D, C, B, A))) == [ev.DrawMade((D, C, B, A), "manual")]
    by_rating = decide(state, c.Draw(method="rating", ratings=((C, 1700.0), (A, 1600.0))))
    assert by_rating == [ev.DrawMade((C, A, B, D), "rating")]  # the unrated at 1500, in order of entry
    one, again = (decide(state, c.Draw(method="random", entropy=2**100 + 7)) for _ in range(2))
    assert one == again and sorted(one[0].seeds) == [A, B, C, D]  # the service's seed decides, replayably
    seen = {decide(state, c.Draw(method="random", entropy=e))[0].seeds for e in range(40)}
    assert len(seen) > 10


def test_the_draw_places_only_the_checked_in_once_anybody_checked_in():
    state = fold(configured(), *entered(A, B, C), ev.PlayerCheckedIn(A), ev.PlayerCheckedIn(C))
    assert decide(state, c.Draw(method="manual", seeds=(C, A)))[0].seeds == (C, A)
    refused(state, c.Draw(method="manual", seeds=(A, B, C)), refusals.BadSeeds)


def test_draw_refusals():
    refused(fold(*knockout(A, B)), c.Draw(), refusals.AlreadyDrawn)
    refused(fold(configured(), *entered(A)), c.Draw(), refusals.FieldTooSmall)
    refused(fold(configured(), *entered(A, B)), c.Draw(method="manual", seeds=(A, A)), refusals.BadSeeds)
    refused(fold(configured(), *entered(A, B)), c.Draw(method="coin"), refusals.BadDrawMethod)


def test_a_swiss_draw_pairs_round_one():
    events = decide(fold(configured("swiss", rounds=3), *entered(A, B, C)), c.Draw(method="manual", seeds=(A, B, C)))
    assert [type(e) for e in events] == [ev.DrawMade, ev.RoundPaired] and events[1].round == 1


def test_a_swiss_draw_the_forbidden_pairs_leave_no_pairing_for_is_refused():
    state = fold(configured("swiss", rounds=3), *entered(A, B), ev.PairingForbidden((A, B)))
    refused(state, c.Draw(method="manual", seeds=(A, B)), refusals.PairingImpossible)


# -- Swiss rounds ----------------------------------------------------------------------------------


def finish_round(state, round_no):
    for s in derive.derive(state).slots:
        if s.round == round_no and not s.bye and s.result is None:
            state = decider.evolve(state, ev.ResultReported(s.key, s.players[0], s.players[1], s.length, 0, s.length))
    return state


def test_pair_round_by_the_rules_and_by_hand():
    state = finish_round(fold(*swiss(A, B, C, D)), 1)
    paired = decide(state, c.PairRound())
    assert len(paired) == 1 and paired[0].round == 2 and not paired[0].manual
    manual = decide(state, c.PairRound(round=2, pairings=((A, D), (B, C))))
    assert manual == [ev.RoundPaired(2, ((A, D), (B, C)), True)]


def test_pair_round_refusals():
    refused(fold(*knockout(A, B)), c.PairRound(), refusals.NotSwiss)
    refused(fold(configured("swiss", rounds=3), *entered(A, B)), c.PairRound(), refusals.NotDrawn)
    state = fold(*swiss(A, B, C, D))
    refused(state, c.PairRound(), refusals.RoundNotFinished)  # round 1 is being played
    refused(state, c.PairRound(round=4), refusals.BadRound)
    refused(state, c.PairRound(round=0), refusals.BadRound)
    refused(state, c.PairRound(round=3), refusals.BadRound)  # round 1 is the last paired: 2 next
    begun = decider.evolve(state, ev.ResultReported("swiss:r1:t1", A, B, 7, 0, 7))
    refused(begun, c.PairRound(round=1), refusals.RoundBegun)
    assert decide(state, c.PairRound(round=1, pairings=((A, C), (B, D))))  # nothing begun: paired again
    matches = [ev.MatchCreated("swiss:r1:t1", "m1", (A, B), 7), ev.SlotMatchStarted("swiss:r1:t1", "m1", 3)]
    refused(fold(*swiss(A, B, C, D), *matches), c.PairRound(round=1), refusals.RoundBegun)


def test_manual_pairings_keep_the_swiss_rules():
    state = finish_round(fold(*swiss(A, B, C, D), ev.PairingForbidden((A, C))), 1)
    for pairings, says in [
        (((A, B),), "every active player"),
        (((A, None), (B, C), (D, None)), "a bye only"),
        (((A, C), (B, D)), "may not be paired"),
        (((A, B), (C, D)), "met already"),
    ]:
        assert says in str(refused(state, c.PairRound(round=2, pairings=pairings), refusals.BadPairings))
    odd = finish_round(fold(*swiss(A, B, C)), 1)  # C had the bye in round 1
    assert "had a bye" in str(refused(odd, c.PairRound(round=2, pairings=((C, None), (A, B))), refusals.BadPairings))


def test_no_round_is_paired_past_the_last():
    state = fold(*swiss(A, B, rounds=1))
    state = finish_round(state, 1)
    with pytest.raises(refusals.AllRoundsPaired):
        decider.next_swiss_round(state, derive.derive(state))


# -- forbid -------------------------------------------------------------------------------------------


def test_forbid():
    assert decide(fold(configured("swiss")), c.Forbid(players=(B, A))) == [ev.PairingForbidden((A, B))]


# -- results -------------------------------------------------------------------------------------------

KEY = "main:r1:m1"


def test_report_result():
    state = fold(*knockout(A, B), configured(lengths={"main": {"default": 5}}))
    state = fold(*knockout(A, B, lengths={"main": {"default": 5}}))
    got = decide(state, c.ReportResult(slot=KEY, winner=B, score=(5, 3), rating_ramp="ramp2"))
    assert got == [ev.ResultReported(KEY, B, A, 5, 3, 5, "ramp2", "director")]


def test_result_refusals():
    state = fold(*knockout(A, B, lengths={"main": {"default": 5}}))
    refused(state, c.ReportResult(slot="main:r9:m9", winner=A, score=(5, 0)), refusals.UnknownSlot)
    refused(state, c.ReportResult(slot=KEY, winner=C, score=(5, 0)), refusals.BadWinner)
    refused(state, c.ReportResult(slot=KEY, winner=A), refusals.BadScore)  # nothing assumed
    refused(state, c.ReportResult(slot=KEY, winner=A, score=(4, 0)), refusals.BadScore)
    refused(state, c.ReportResult(slot=KEY, winner=A, score=(5, 5)), refusals.BadScore)
    refused(state, c.ReportResult(slot=KEY, winner=A, score=(10**9, 0)), refusals.BadScore)
    done = decider.evolve(state, ev.ResultReported(KEY, A, B, 5, 0, 5))
    refused(done, c.ReportResult(slot=KEY, winner=A, score=(5, 0)), refusals.SlotNotReady)


def test_both_players_confirming_the_same_result_records_it():
    state = fold(*knockout(A, B, lengths={"main": {"default": 5}}))
    first = decide(state, c.ConfirmResult(slot=KEY, winner=B, score=(5, 2)), by=c.Actor(player=A))
    assert [type(e) for e in first] == [ev.ResultConfirmed]
    state = decider.evolve(state, first[0])
    other = decide(state, c.ConfirmResult(slot=KEY, winner=B, score=(5, 1)), by=c.Actor(player=B))
    assert [type(e) for e in other] == [ev.ResultConfirmed]  # they disagree: nothing recorded
    both = decide(state, c.ConfirmResult(slot=KEY, winner=B, score=(5, 2)), by=c.Actor(player=B))
    assert [type(e) for e in both] == [ev.ResultConfirmed, ev.ResultReported] and both[1].reported_by == "players"
    refused(state, c.ConfirmResult(slot=KEY, winner=B, score=(5, 2)), refusals.NotPermitted, by=c.Actor(player=C))


def test_correct_result():
    state = fold(*knockout(A, B, lengths={"main": {"default": 5}}))
    refused(state, c.CorrectResult(slot=KEY, winner=A, score=(5, 0), reason="x"), refusals.NoResult)
    state = decider.evolve(state, ev.ResultReported(KEY, A, B, 5, 0, 5))
    refused(state, c.CorrectResult(slot=KEY, winner=B, score=(5, 0), reason="  "), refusals.ReasonRequired)
    got = decide(state, c.CorrectResult(slot=KEY, winner=B, score=(5, 4), reason="scoresheet"))
    assert got == [ev.SlotResultCorrected(KEY, B, A, 5, 4, 5, "fibs", "scoresheet")]
    assert got[0].event_type == "SlotResultCorrected" and got[0].schema_version == 2


def test_forfeit():
    state = fold(*knockout(A, B))
    got = decide(state, c.Forfeit(slot=KEY, winner=A))
    assert got == [ev.MatchForfeited(KEY, A, B, 0, 0, slot(state, KEY).length, "no-show")]
    refused(state, c.Forfeit(slot=KEY, winner=C), refusals.BadWinner)
    refused(state, c.Forfeit(slot="main:r9:m9", winner=A), refusals.SlotNotReady)
    refused(decider.evolve(state, got[0]), c.Forfeit(slot=KEY, winner=A), refusals.SlotNotReady)


# -- the slots' matches, as the stream records them ------------------------------------------------


def test_a_slots_match_result_comes_from_the_streams_own_facts():
    state = fold(*knockout(A, B, C, D), ev.MatchCreated(KEY, "m1", (A, D), 7))
    assert slot(state, KEY).result is None and [s.key for s in derive.derive(state).to_create] == ["main:r1:m2"]
    state = decider.evolve(state, ev.SlotFinished(KEY, "m1", 40, D, A, 7, 3))
    result = slot(state, KEY).result
    assert (result.winner, result.loser, result.winner_points, result.loser_points) == (D, A, 7, 3)
    state = decider.evolve(state, ev.SlotMatchResultCorrected(KEY, "m1", 41, A, D, 7, 5, "dice"))
    assert slot(state, KEY).result.winner == A


def test_a_voided_match_leaves_its_slot_to_a_new_one():
    state = fold(*knockout(A, B), ev.MatchCreated(KEY, "m1", (A, B), 7))
    assert derive.derive(state).to_create == []
    refused(fold(*knockout(A, B)), c.VoidMatch(slot=KEY), refusals.NoMatch)
    assert decide(state, c.VoidMatch(slot=KEY, reason="wrong dice")) == []  # the service voids the match itself
    state = decider.evolve(state, ev.SlotMatchVoided(KEY, "m1", 9, "wrong dice"))
    assert [s.key for s in derive.derive(state).to_create] == [KEY]


def test_keep_match():
    # A beat D on paper, then a correction gives the slot to D while A's next match is under way
    state = fold(*knockout(A, B, C, D), ev.ResultReported(KEY, A, D, 7, 0, 7),
                 ev.ResultReported("main:r1:m2", B, C, 7, 0, 7), ev.MatchCreated("main:r2:m1", "m9", (A, B), 7),
                 ev.SlotMatchStarted("main:r2:m1", "m9", 4),
                 ev.SlotResultCorrected(KEY, D, A, 7, 5, 7, "fibs", "scoresheet"))
    assert [f["slot"] for f in derive.derive(state).flagged] == ["main:r2:m1"]
    assert decide(state, c.KeepMatch(slot="main:r2:m1")) == [ev.MatchKept("main:r2:m1", "m9")]
    refused(state, c.KeepMatch(slot=KEY), refusals.NotFlagged)


def test_needs_advance_follows_the_streams_facts():
    state = fold(*knockout(A, B))
    assert decider.needs_advance(state, derive.derive(state))
    state = decider.evolve(state, ev.MatchCreated(KEY, "m1", (A, B), 7))
    assert not decider.needs_advance(state, derive.derive(state))


# -- commands from a plain dict ------------------------------------------------------------------------


def test_parse_builds_typed_commands():
    assert c.parse({"type": "enter", "player": A}) == c.Enter(player=A)
    assert c.parse({"type": "report_result", "slot": KEY, "winner": A, "score": [5, 2]}) == \
        c.ReportResult(slot=KEY, winner=A, score=(5, 2))
    assert c.parse({"type": "pair_round", "pairings": [[A, B], [C, None]]}).pairings == ((A, B), (C, None))
    assert c.parse({"type": "draw"}) == c.Draw(method="random")


@pytest.mark.parametrize("data, error", [
    ("enter", refusals.BadCommand),
    ({"type": "shout"}, refusals.UnknownCommand),
    ({"type": "enter", "player": "11"}, refusals.BadCommand),
    ({"type": "enter", "player": True}, refusals.BadCommand),
    ({"type": "draw", "method": "coin"}, refusals.BadDrawMethod),
    ({"type": "draw", "method": "manual", "seeds": [1, "2"]}, refusals.BadCommand),
    ({"type": "pair_round", "round": "2"}, refusals.BadRound),
    ({"type": "pair_round", "round": None}, refusals.BadRound),
    ({"type": "pair_round", "pairings": [[None, A]]}, refusals.BadPairings),
    ({"type": "pair_round", "pairings": "A-B"}, refusals.BadCommand),
    ({"type": "forbid", "players": [A, A]}, refusals.BadCommand),
    ({"type": "report_result", "slot": 3, "winner": A}, refusals.BadCommand),
    ({"type": "report_result", "slot": KEY, "winner": A, "score": [5]}, refusals.BadCommand),
    ({"type": "withdraw", "player": A, "reason": "x" * 501}, refusals.BadCommand),
])
def test_parse_refuses_malformed_commands(data, error):
    with pytest.raises(error) as caught:
        c.parse(data)
    assert isinstance(caught.value, TournamentError) and caught.value.code == error.code


def test_every_command_type_has_a_handler():
    # Configure and Publish are judged here too, but sent by their services (tournament_configure, tournament_publish),
    # not as command types
    # a command judged by its own ``decide``, beside its declaration, has no entry in the decider's table
    own = {cls for cls in c.COMMANDS.values() if "decide" in vars(cls)}
    assert not own & set(decider._HANDLERS)
    assert set(decider._HANDLERS) | own == set(c.COMMANDS.values()) | {c.Configure, c.Publish}
