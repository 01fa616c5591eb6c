"""A match resumed at length-1 to length-1 has no Crawford game, in the engine and the projection."""

from games.engine.matfile import read_mat

DOUBLE_MATCH_POINT = """ 5 point match

 Game 1
 Alice : 4                      Bob : 4
  1) 31: 8/5 6/5                 
      Wins 1 point
"""


def test_a_match_resumed_at_double_match_point_has_no_crawford_game_in_engine_or_projection():
    # the projection's game rows are the engine's own record of the games (MatchState.games)
    record = read_mat(DOUBLE_MATCH_POINT)
    assert record.state.crawford_games == () and record.state.score == (5, 4)
    assert [(g.game, g.crawford) for g in record.state.games] == [(1, False)]
    at_4_2 = read_mat(DOUBLE_MATCH_POINT.replace("Bob : 4", "Bob : 2"))
    assert at_4_2.state.crawford_games == (1,)
    assert [(g.game, g.crawford, g.score_before) for g in at_4_2.state.games] == [(1, True, (4, 2))]
