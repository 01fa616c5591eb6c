"""Reading the .mat files players actually have, and writing files that read back.

Crafted files live in tests/fixtures/mat_quirks/ (refused ones in refused/); each is also read by
GNU Backgammon 1.07 (one process for all) and compared with the engine's reading, and every file
(gnubg's own and the crafted ones) reads, exports and reads back with identical events, and the
exports open in gnubg with the same games, moves and points.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import commands as c
from games.engine import events as ev
from games.engine.match import MOVE, ROLL, MatchState, decide, evolve
from games.engine.errors import Reason
from games.engine.matfile import MatFileError, read_mat, write_mat

from .test_matfile import GNUBG, _games_as_gnubg_sees_them, refusal_of

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
QUIRKS = FIXTURES / "mat_quirks"
CRAFTED = sorted(QUIRKS.glob("*.mat"))
REFUSED = sorted((QUIRKS / "refused").glob("*.mat"))
GNUBG_FILES = sorted((FIXTURES / "gnubg" / "matches").glob("*.mat")) + sorted((FIXTURES / "gnubg" / "samples").glob("*.mat"))
MATCH_001 = (FIXTURES / "gnubg" / "matches" / "match_001_1pt.mat").read_text()  # ends by a resigned gammon
MATCH_037 = (FIXTURES / "gnubg" / "matches" / "match_037_3pt.mat").read_text()  # ends by a gammon borne off, cube 2


def crafted(name: str):
    return read_mat((QUIRKS / name).read_text())


def reasons(record) -> list[str]:
    return [w.reason for w in record.warnings]


def won(record) -> list[ev.GameWon]:
    return [e for e in record.events if isinstance(e, ev.GameWon)]


# -- 1. ??? / ???? after a roll ---------------------------------------------------------------------


def test_unrecorded_play_before_wins_is_the_roll_then_a_resignation():
    record = crafted("xg_unrecorded_then_resign.mat")
    assert record.events[-5:-3] == [ev.DiceRolled(0, (5, 2), "imported"), ev.ResignationOffered(0, "single")]
    assert won(record)[-1] == ev.GameWon(1, 1, "single", 1, 1, "resignation", (0, 1))
    assert record.warnings[0].line == 12
    assert reasons(record) == ["the play of 52 is not recorded (???): read as a resignation before moving"]


def test_unrecorded_play_at_the_end_of_the_file_leaves_the_mover_to_move():
    record = crafted("bgstudio_unrecorded_at_end.mat")
    assert (record.state.phase, record.state.turn, record.state.dice) == (MOVE, 0, (5, 2))
    assert reasons(record) == ["the play of 52 is not recorded (????): the match stops with Alice to move"]


def test_unrecorded_play_before_more_play_is_its_only_legal_play():
    record = crafted("unrecorded_single_play.mat")
    assert record.events == read_mat(MATCH_001).events
    assert reasons(record) == ["the play of 61 is not recorded (???); its only legal play bar/24 7/1 is played"]


def test_five_question_marks_at_the_end_drop_the_roll_as_gnubg():
    record = crafted("five_question_marks_at_end.mat")
    assert (record.state.phase, record.state.turn, record.state.dice) == (ROLL, 0, None)
    assert isinstance(record.events[-1], ev.CheckersMoved) and record.events[-1].player == 1
    assert [w.line for w in record.warnings] == [12]
    assert reasons(record) == ["the roll 52 is written with a play of ?????, which gnubg cannot read: the roll is "
                               "dropped, the match stops with Alice to roll"]


def test_five_question_marks_before_wins_are_a_resignation_before_rolling():
    record = crafted("five_question_marks_then_resign.mat")
    assert [type(e).__name__ for e in record.events[-5:-1]] == [
        "CheckersMoved", "ResignationOffered", "ResignationAccepted", "GameWon"]
    assert won(record)[-1] == ev.GameWon(1, 1, "single", 1, 1, "resignation", (0, 1))
    assert "resigns before rolling" in reasons(record)[0]


def test_five_question_marks_before_more_play_are_refused():
    with pytest.raises(MatFileError) as refused:
        read_mat((QUIRKS / "refused" / "five_question_marks_before_more_play.mat").read_text())
    game, move, reason, params = refusal_of(refused.value)
    assert (game, move, reason, params["move"]) == (1, 6, Reason.MAT_DROPPED_ROLL, "?????")


def test_unrecorded_roll_with_no_legal_play_is_forfeited_before_the_resignation():
    closed = MATCH_001.replace(" 12) 32:                         54: 19/14 11/7 \n", " 12) 32: ???\n      Losses 1 point\n"
                               "                                  Wins 1 point\n")
    cut = closed[: closed.index(" 13) ")]
    record = read_mat(cut)
    assert [type(e).__name__ for e in record.events[-7:-1]] == [
        "CheckersMoved", "DiceRolled", "CannotMove", "ResignationOffered", "ResignationAccepted", "GameWon"]


# -- 2. Wins N that is not the cube times 1, 2 or 3 -------------------------------------------------


def test_wins_not_a_multiple_of_the_cube_reads_as_gnubg():
    record = crafted("wins_not_cube_multiple.mat")
    assert won(record)[-1] == ev.GameWon(1, 0, "backgammon", 2, 6, "resignation", (6, 0))
    assert reasons(record) == ["the file says 5 points; read as a backgammon at cube 2 = 6"]


@pytest.mark.parametrize("n, kind", [(1, "single"), (3, "gammon"), (4, "gammon"), (5, "backgammon"), (4016, "backgammon")])
def test_wins_n_kind_thresholds_are_gnubgs(n, kind):
    base = (QUIRKS / "wins_not_cube_multiple.mat").read_text().replace(" 5 point match", " 9 point match")
    record = read_mat(base.replace("Wins 5 points", f"Wins {n} points"))
    assert won(record)[-1].kind == kind
    assert bool(record.warnings) == (n not in (2, 4, 6))


# -- 3. a roll with no move written ------------------------------------------------------------------


def test_roll_without_move_at_the_end_is_unfinished_with_the_mover_to_move():
    cut = MATCH_001[: MATCH_001.index("  6) 52: 18/16* 6/1")] + "  6) 52: \n"
    record = read_mat(cut)
    assert (record.state.phase, record.state.turn, record.state.dice) == (MOVE, 0, (5, 2))
    assert record.warnings == []


def test_roll_without_move_with_one_legal_play_is_played():
    record = crafted("no_move_single_play.mat")
    assert record.events == read_mat(MATCH_001).events
    assert reasons(record) == ["no play is written for 65; its only legal play 7/2 7/1 is played"]


def test_roll_without_move_with_several_plays_is_refused():
    with pytest.raises(MatFileError) as refused:
        read_mat((QUIRKS / "refused" / "no_move_several_plays.mat").read_text())
    game, move, reason, params = refusal_of(refused.value)
    assert (game, move, reason, params["roll"]) == (1, 1, Reason.MAT_NO_MOVE_WRITTEN, "42")


# -- 4. Wins N after the game ended ------------------------------------------------------------------


def test_wins_capped_at_what_the_match_needed_is_silent_and_the_play_decides():
    record = crafted("galaxy_capped_wins.mat")  # 3-point match, 0-0: a gammon on cube 2 written "Wins 3 points"
    assert won(record)[-1] == ev.GameWon(1, 0, "gammon", 2, 4, "bearoff", (4, 0))
    assert record.warnings == []


def test_wins_with_other_points_after_the_end_is_a_warning():
    record = read_mat(MATCH_037.replace("      Wins 4 points", "      Wins 2 points"))
    assert won(record)[-1].points == 4
    assert reasons(record) == ["the file says Alice wins 2 points; the play gives 4 (read as played)"]


def test_wins_in_the_losers_column_after_the_end_is_an_error():
    with pytest.raises(MatFileError) as refused:
        read_mat(MATCH_037.replace("      Wins 4 points", "                                  Wins 4 points"))
    assert refusal_of(refused.value) == (1, None, Reason.MAT_WINNER_DIFFERS,
                                         {"name": "Bob", "points": 4, "winner": "Alice", "won": 4})


# -- 5. Snowie's illegal play ----------------------------------------------------------------------------


def test_snowie_illegal_play_is_refused_with_a_clear_message():
    with pytest.raises(MatFileError) as refused:
        read_mat((QUIRKS / "refused" / "snowie_illegal_play.mat").read_text())
    assert str(refused.value) == (
        "game 1, move 7: the file records an illegal play (a position set by hand in Snowie); it cannot be replayed")


# -- 6. empty player names -------------------------------------------------------------------------------


def test_empty_player_name_reads_as_a_placeholder():
    assert crafted("empty_names.mat").players == ("Player 1", "Bob")
    assert reasons(crafted("empty_names.mat")) == ["a player's name is empty: read as 'Player 1' and 'Bob'"]


def test_empty_player_name_takes_the_headers_name():
    assert crafted("empty_names_with_headers.mat").players == ("Alice", "Bob")


# -- 7. a row number written twice on one line -------------------------------------------------------------


def test_row_number_written_twice_on_one_line_is_read_as_two_rows():
    record = crafted("galaxy_glued_row.mat")
    assert record.events == read_mat(MATCH_001).events
    assert reasons(record) == ["row 24 is written twice on one line: read as two rows"]
    assert record.warnings[0].line == 30


# -- 8. Losses lines ---------------------------------------------------------------------------------------


def test_losses_lines_stay_ignored():
    plain = read_mat(MATCH_001)
    with_losses = MATCH_001.replace("                                  Wins 2 points",
                                    "      Losses 2 points             Wins 2 points")
    assert read_mat(with_losses).events == plain.events


# -- dead cube in a file from elsewhere ---------------------------------------------------------------------


def test_dead_cube_double_in_a_file_is_read_with_a_warning():
    record = crafted("dead_cube_double.mat")
    assert ev.DoubleOffered(0, 2) in record.events and record.state.score == (0, 4)
    assert reasons(record) == ["a dead cube is doubled: Alice needs 1 point and the cube already gives 1 "
                               "(gnubg refuses it at the table); read as written"]


# -- writing files that read back -----------------------------------------------------------------------------


def test_export_while_a_player_has_rolled_and_not_moved_reads_back_identically():
    state, events = MatchState(), []
    commands = (c.StartMatch(("Ann", "Ben"), 5, imported=True), c.Roll(None, (3, 1), "imported"), c.Move(0, "8/5 6/5"),
                c.Roll(1, (6, 2), "imported"))
    for command in commands:
        for event in decide(state, command):
            state = evolve(state, event)
            events.append(event)
    assert state.phase == MOVE
    again = read_mat(write_mat(events))
    assert again.events == events and again.warnings == []
    assert read_mat(write_mat(events[:2])).events == events[:2]  # rolled the opening, not moved


def _played(*commands) -> list:
    state, events = MatchState(), []
    for command in commands:
        for event in decide(state, command):
            state = evolve(state, event)
            events.append(event)
    return events


RESIGNED_UNDER_A_DOUBLE = {  # the player doubled resigns instead of answering, at the cube before the double
    "single": (1, "Wins 1 point"), "gammon": (2, "Wins 2 points"), "backgammon": (3, "Wins 3 points")}


@pytest.mark.parametrize("kind", list(RESIGNED_UNDER_A_DOUBLE))
def test_resignation_while_a_double_is_pending_reads_back_as_a_resignation(kind):
    events = _played(c.StartMatch(("Ann", "Ben"), 5, imported=True), c.Roll(None, (3, 1), "imported"),
                     c.Move(0, "8/5 6/5"), c.Double(1), c.Resign(0, kind), c.AcceptResignation(1))
    points, wins = RESIGNED_UNDER_A_DOUBLE[kind]
    assert events[-1] == ev.GameWon(1, 1, kind, 1, points, "resignation", (0, points))
    written = write_mat(events)
    assert " Doubles => 2" in written and wins in written and "Drops" not in written
    again = read_mat(written)
    assert again.events == events and again.warnings == []


def test_a_written_drop_stays_a_drop():
    events = _played(c.StartMatch(("Ann", "Ben"), 5, imported=True), c.Roll(None, (3, 1), "imported"),
                     c.Move(0, "8/5 6/5"), c.Double(1), c.Drop(0))
    assert read_mat(write_mat(events)).events == events


@pytest.mark.skipif(not os.path.exists(GNUBG), reason="GNU Backgammon is not installed")
def test_gnubg_reads_a_resignation_under_a_pending_double_as_a_resignation(tmp_path):
    files = tmp_path / "resigned"
    files.mkdir()
    for kind in RESIGNED_UNDER_A_DOUBLE:
        events = _played(c.StartMatch(("Ann", "Ben"), 5, imported=True), c.Roll(None, (3, 1), "imported"),
                         c.Move(0, "8/5 6/5"), c.Double(1), c.Resign(0, kind), c.AcceptResignation(1))
        (files / f"{kind}.mat").write_text(write_mat(events))
    seen = _gnubg_reads(files, tmp_path)
    for kind, (points, _) in RESIGNED_UNDER_A_DOUBLE.items():
        assert seen[f"{kind}.mat"]["resigned"] == [True], kind
        assert [(g["winner"], g["points"]) for g in seen[f"{kind}.mat"]["games"]] == [("Ben", points)], kind


def test_crawford_off_is_written_and_honoured():
    record = crafted("crawford_off.mat")
    assert record.events[0].crawford is False and record.state.crawford_games == ()
    written = write_mat(record.events)
    assert '; [Crawford "Off"]' in written
    assert read_mat(written).events == record.events
    with pytest.raises(MatFileError) as refused:
        read_mat((QUIRKS / "crawford_off.mat").read_text().replace('; [Crawford "Off"]', ""))
    assert refused.value.fault.reason == Reason.CRAWFORD_GAME
    assert '; [Crawford "On"]' in write_mat(read_mat(MATCH_001).events)


def test_xg_option_headers_are_read_into_the_sessions_options():
    record = crafted("xg_money_options.mat")
    start = record.events[0]
    assert (start.length, start.jacoby, start.beavers, start.cube_limit) == (0, True, True, 64)
    assert ev.Beavered(0, 4) in record.events and record.state.score == (4, 1)
    assert read_mat(write_mat(record.events)).events == record.events


@pytest.mark.parametrize("names", [("Ann: the best", "Ben"), ("  Ann", " Ben: 2"), ("A:1", "B : 2")])
def test_mat_export_round_trips_names_with_colons_or_leading_spaces(names):
    record = read_mat(MATCH_001)
    renamed = [ev.MatchStarted(**{**record.events[0].__dict__, "players": names})] + record.events[1:]
    again = read_mat(write_mat(renamed))
    assert again.players == names
    assert again.events == renamed


# -- every file: read, export, read back; gnubg opens the exports -------------------------------------------------


@pytest.mark.parametrize("path", GNUBG_FILES + CRAFTED, ids=lambda p: p.name)
def test_every_file_reads_exports_and_reads_back_identically(path):
    record = read_mat(path.read_text())
    again = read_mat(write_mat(record.events))
    assert again.events == record.events
    # what we write is never a quirk; a dead cube played elsewhere stays one
    assert {w.reason for w in again.warnings} <= {w.reason for w in record.warnings if "dead cube" in w.reason}


def test_replay_mat_json_prints_warnings_with_file_line_and_reason():
    run = subprocess.run([sys.executable, "-m", "games.engine", "replay-mat", "--json",
                          str(QUIRKS / "galaxy_glued_row.mat"), str(QUIRKS / "galaxy_capped_wins.mat")],
                         capture_output=True, text=True, check=True)
    glued, capped = map(json.loads, run.stdout.splitlines())
    assert glued["warnings"] == [{"line": 30, "reason": "row 24 is written twice on one line: read as two rows"}]
    assert "warnings" not in capped  # without warnings the output is unchanged


def _gnubg_reads(directory: Path, tmp_path: Path) -> dict[str, dict]:
    out = tmp_path / f"{directory.name}.json"
    env = dict(os.environ, MAT_DIR=str(directory), OUT_FILE=str(out))
    subprocess.run([GNUBG, "-t", "-q", "-r", "-p", str(Path(__file__).with_name("gnubg_read_mat.py"))], env=env,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=True, timeout=600)
    return {d["file"]: d for d in map(json.loads, out.read_text().splitlines())}


# Where the engine reads a crafted file differently from gnubg 1.07, on purpose:
GNUBG_GIVES_UP = {
    "empty_names.mat": "gnubg crashes on an empty name",
    "empty_names_with_headers.mat": "gnubg crashes on an empty name",
    "galaxy_glued_row.mat": "gnubg stops at the glued row and leaves the game unfinished",
}


@pytest.mark.skipif(not os.path.exists(GNUBG), reason="GNU Backgammon is not installed")
def test_gnubg_reads_the_crafted_files_with_the_same_games_and_points(tmp_path):
    files = tmp_path / "crafted"
    files.mkdir()
    for path in CRAFTED:
        if path.name not in GNUBG_GIVES_UP:
            (files / path.name).write_text(path.read_text())
    seen = _gnubg_reads(files, tmp_path)
    assert len(seen) == len(CRAFTED) - len(GNUBG_GIVES_UP)
    for name, gnubg_read in seen.items():
        record = crafted(name)
        ours = [(g["winner"], g["points"]) for g in _games_as_gnubg_sees_them(record)]
        theirs = [(g["winner"], g["points"]) for g in gnubg_read["games"]]
        assert theirs == ours, name


@pytest.mark.skipif(not os.path.exists(GNUBG), reason="GNU Backgammon is not installed")
def test_gnubg_opens_every_export_with_the_same_games_moves_and_points(tmp_path):
    exports = tmp_path / "exports"
    exports.mkdir()
    records = {}
    for path in GNUBG_FILES + CRAFTED:
        record = read_mat(path.read_text())
        name = f"{path.parent.name}__{path.name}"
        records[name] = record
        (exports / name).write_text(write_mat(record.events))
    seen = _gnubg_reads(exports, tmp_path)
    assert set(seen) == set(records)
    for name, gnubg_read in seen.items():
        record = records[name]
        expected = _games_as_gnubg_sees_them(record)
        assert gnubg_read["length"] == record.length, name
        assert gnubg_read["games"] == expected, name


# -- a match lost on time or by lateness ------------------------------------------------------------------------


def _lost_on_time() -> list:
    """Ann (3-1 up in a 5-point match) doubles; Ben's flag falls while he thinks about his answer."""
    from games.engine.clock import PRESETS

    return _played(c.StartMatch(("Ann", "Ben"), 5, initial_score=(3, 1)), c.SetClock(PRESETS["uk"], 0),
                   c.Roll(None, (3, 1)), c.PressClock(1, 0), c.Move(0, "8/5 6/5"), c.PressClock(0, 1_000),
                   c.Roll(1, (6, 4)), c.Move(1, "24/14"), c.PressClock(1, 2_000), c.Double(0), c.PressClock(0, 3_000),
                   c.ClaimTime(10 * 60_000 + 15_000 + 3_000))


def _lost_by_lateness() -> list:
    return _played(c.StartMatch(("Ann", "Ben"), 5), c.RecordLateness(1, 0, 15 * 60_000))


@pytest.mark.parametrize("played, reason", [(_lost_on_time, "time"), (_lost_by_lateness, "late")])
def test_a_match_given_on_time_or_by_lateness_is_written_with_its_play_and_read_back_given(played, reason):
    events = played()
    assert events[-2].reason == reason and events[-1] == ev.MatchWon(0, (5, events[-1].score[1]))
    written = write_mat(events)
    assert f'; [Termination "{reason}"]\n; [Winner "Ann"]' in written and "Wins" not in written
    again = read_mat(written)
    assert again.state.phase == "over" and again.state.winner == 0 and again.state.score == events[-1].score
    assert again.events[-2].reason == reason
    assert write_mat(again.events) == written
    refused = written.replace('; [Winner "Ann"]', '; [Winner "Cid"]')
    with pytest.raises(MatFileError) as whom:
        read_mat(refused)
    assert whom.value.fault.reason == Reason.MAT_GIVEN_TO_WHOM


@pytest.mark.skipif(not os.path.exists(GNUBG), reason="GNU Backgammon is not installed")
def test_gnubg_reads_a_match_lost_on_time_with_every_move_played(tmp_path):
    files = tmp_path / "on_time"
    files.mkdir()
    events = _lost_on_time()
    (files / "time.mat").write_text(write_mat(events))
    seen = _gnubg_reads(files, tmp_path)["time.mat"]
    assert seen["names"] == ["Ann", "Ben"] and seen["length"] == 5
    assert seen["scores"] == [[3, 1]]  # the game as far as it was played: gnubg knows no clock
    assert [m[0] for m in seen["games"][0]["moves"]] == ["Ann", "Ben"]
