"""The platform's refusals of a match command (the engine's own are in :mod:`games.engine.errors`).

Each carries a stable ``code`` that API clients receive as ``"code"``: the exception's name in snake_case, as it
always was, so no client breaks. Each is data, as the engine's are: a :class:`Reason` (whose value is the English
template) and its ``params``; ``str(exc)`` is the English, and the API says it in the reader's language.
No Django here: the tournament's pure decider reads ``games.limits``, which refuses with these.
"""

from __future__ import annotations

from enum import Enum, StrEnum

from games.engine.errors import Refusal, gettext_noop


class PlatformErrorCode(StrEnum):
    """Why the platform (not the rules) refused: what a client can tell apart without reading the text."""

    BAD_COMMAND = "bad_command"
    NOT_FOUND = "not_found"
    NOT_REPRESENTABLE = "not_representable"


class Reason(Enum):
    """Exactly why the platform refuses: the member's name says it, its value is the English template."""

    NO_MATCH = gettext_noop("no match %(match)s")
    # why a match takes no command any more
    VOIDED = gettext_noop("this match was voided")
    VOIDED_BECAUSE = gettext_noop("this match was voided by the director (%(why)s)")
    RESULT_SET = gettext_noop("the director has set this match's result")
    OVER = gettext_noop("this match is over: %(how)s")
    FORFEITED = gettext_noop("%(loser)s forfeited: %(winner)s wins")
    ON_PAPER = gettext_noop("result reported on paper: %(winner)s wins")
    ON_PAPER_SCORE = gettext_noop("result reported on paper: %(winner)s wins %(won)s-%(lost)s")
    NO_EXPORT = gettext_noop("no export %(job)s")
    NO_IMPORT = gettext_noop("no import %(job)s of yours")
    AFTER_VERSION = gettext_noop("'after' is a version number")
    MAT_FILE_FIELD = gettext_noop("send the .mat file as 'file' (multipart) or its content as 'text'")
    COMMAND_OBJECT = gettext_noop("a command is a JSON object with a 'type'")
    UNKNOWN_COMMAND_TYPE = gettext_noop("unknown command type %(type)s; expected one of %(types)s")
    UNKNOWN_COMMAND = gettext_noop("unknown command %(command)s; expected one of %(types)s")
    TWO_DIFFERENT_PLAYERS = gettext_noop("a match needs two different players")
    CONSULTATION_PAIRS = gettext_noop("a consultation match has two players a side: give both partners, four "
                                      "different players")
    CONSULTATION_UNRATED = gettext_noop("a consultation match is not rated: its moves are each pair's together")
    EVENT_MATCHES = gettext_noop("the matches of an event are created by the event (its director's commands), not "
                                 "here; leave out 'tournament' for a casual match")
    EXPECTED_VERSION = gettext_noop("'expected_version' (the version of the match you are looking at) is required")
    DICE_SOURCE = gettext_noop("'dice' is one of %(choices)s")
    ID_OR_NONE = gettext_noop("'%(field)s' is an id or None")
    RATING_RAMP = gettext_noop("'rating_ramp' is the name of a rating ramp, e.g. \"fibs\"")
    WHOLE_NUMBER = gettext_noop("'%(field)s' is a whole number from %(low)s to %(high)s")
    SERVER_DICE = gettext_noop("this match uses server dice: send the roll without 'dice' and the server rolls")
    BOARD_DICE = gettext_noop("this match's dice come from the board: send the numbers rolled as 'dice', e.g. "
                              "[3, 1]")
    NOT_AWAITING_CONFIRMATION = gettext_noop("this match is not an import waiting for confirmation")
    PLAYER_SEAT = gettext_noop("'player' is 0 or 1")
    CLOCK_PRESET = gettext_noop("'preset' is one of %(choices)s")
    CLOCK_FIGURES = gettext_noop("a custom clock gives 'per_point' or 'per_match' (more than 0), and 'per_scored', "
                                 "'delay' and 'overtime', in whole seconds from 0 to %(most)s")
    CLOCK_USE = gettext_noop("'use' is one of %(choices)s")
    NO_CLOCKS = gettext_noop("this round is played without clocks")
    CLOCK_OF_ROUND = gettext_noop("this round's clock is %(preset)s: set it without naming another")
    CALLED_BEFORE_PLAY = gettext_noop("a match is called to its board before its first game begins")
    NOT_CALLED = gettext_noop("lateness counts from the match's call: call the match first")
    RESIGN_KIND = gettext_noop("'kind' is single, gammon or backgammon")
    FIELDS = gettext_noop("%(first)s; %(rest)s")  # a body with more than one field at fault: each said in turn
    MOVE_TOO_LONG = gettext_noop("'move' is a play of at most %(n)s characters, e.g. \"24/18 13/11*\"")
    MOVE_NOTATION = gettext_noop("'move' is the play in gnubg notation, e.g. \"24/18 13/11*\" (\"\" when no play)")
    DICE_FIELD = gettext_noop("'dice' is two numbers from 1 to 6, e.g. [3, 1], or absent for server dice")
    RATED_FLAG = gettext_noop("'rated' is true or false")
    REASON_REQUIRED = gettext_noop("a director's correction or void needs a 'reason'")
    REASON_TOO_LONG = gettext_noop("'reason' is at most %(n)s characters")
    WINNER_SEAT = gettext_noop("'winner' is 0 or 1")
    SCORE_FIELD = gettext_noop("'score' is the final score of both players, e.g. [7, 4]")
    WINNER_POINTS = gettext_noop("in a %(length)s-point match the winner has at least %(length)s points and the "
                                 "loser fewer")
    FINAL_SCORE = gettext_noop("a final score is at most %(most)s points here")
    OFFICIATING_ID = gettext_noop("'officiating_director_id' is a user id or None")
    HOW = gettext_noop("'how' is one of %(choices)s")
    IMPORT_ACTIONS = gettext_noop("a match imported here has at most %(most)s actions; this file has %(actions)s")
    ALREADY_IMPORTED = gettext_noop("this record has already been imported (match %(match)s)")
    IMPORT_GAMES = gettext_noop("a match imported here has at most %(most)s games; this file has %(games)s")
    FILE_TOO_LARGE = gettext_noop("the file is larger than %(mb)s MB; a .mat file is text of a few KB")
    BINARY_FILE = gettext_noop("this is not a .mat text file (it contains binary data)")
    UNKNOWN_PLAYER_ID = gettext_noop("unknown player id")
    IMPORT_UNDER_WAY = gettext_noop("your import %(job)s is still being judged; send the next one once it is done")
    IMPORT_BUDGET = gettext_noop("an import may bring %(n)s games an hour; this record of %(games)s games must wait "
                                 "%(s)s s")
    # a match the read models and the gnubg IDs cannot hold (games/limits.py)
    MATCH_TOO_LONG = gettext_noop("a match is at most %(most)s points long (gnubg's Match ID holds no more)")
    NAME_TOO_LONG = gettext_noop("a player's name is at most %(most)s characters; one has %(length)s")
    CUBE_TOO_HIGH = gettext_noop("the cube cannot go above %(most)s here (gnubg's Match ID holds no more); this one "
                                 "reaches %(cube)s")
    SCORE_TOO_HIGH = gettext_noop("a score above %(most)s points cannot be stored")
    # who may do what: Django's 403
    PLAYERS_SEND = gettext_noop("only the match's players, its official and the federation's officials may send "
                                "commands")
    OFFICIAL_CORRECTS = gettext_noop("only the match's official (its event's director) or a federation official may "
                                     "correct or void a match")
    OTHER_CONFIRMS = gettext_noop("an imported match is confirmed by the other player or an official, not by the "
                                  "one who imported it")
    ONLY_YOURSELF = gettext_noop("you can act only for yourself")
    LOG_IN_TO_CREATE = gettext_noop("log in to create a match")
    BETWEEN_YOURSELF = gettext_noop("you may create matches only between yourself and another player")
    RECORDERS_ONLY = gettext_noop("only the players, the event's director and officials record this match")
    # chouettes (games/chouettes.py)
    NO_CHOUETTE = gettext_noop("no chouette %(chouette)s")
    CHOUETTE_RECORDER_ONLY = gettext_noop("only whoever opened this chouette (or an official) records it")
    LOG_IN_TO_OPEN = gettext_noop("log in to open a chouette")
    CHOUETTE_VERSION = gettext_noop("'expected_version' (the version of the chouette you are looking at) is required")
    NAMES_FIELD = gettext_noop("'%(field)s' is a list of players' names, each at most %(most)s characters")
    NAME_FIELD = gettext_noop("'%(field)s' is a player's name")
    BOARD_DICE_FIELD = gettext_noop("'dice' is the two numbers rolled at the board, e.g. [3, 1]")
    FLAG_FIELD = gettext_noop("'%(field)s' is true or false")
    # online play (games/online.py, games/challenges.py)
    NOT_ONLINE = gettext_noop("this match is not played online")
    ONLINE_OWN_SEAT = gettext_noop("an online match is played by its two players, each for their own side from "
                                   "their own browser")
    ONLINE_PLAYERS_ONLY = gettext_noop("only the match's two players are present in an online match")
    ONLINE_SERVER_DICE = gettext_noop("an online match is played with the server's dice")
    ONLINE_RULE = gettext_noop("'online' gives 'disconnect' (seconds, 1 to %(most)s), and may give 'start_within' "
                               "and 'late' (seconds, 0 to %(most)s)")
    OPPONENT_HERE = gettext_noop("%(name)s is here: a forfeit is claimed only against a player who is away")
    DISCONNECT_RUNNING = gettext_noop("%(name)s has been away %(away)s s: the match may be claimed once the "
                                      "disconnect clock of %(limit)s s has run out (%(left)s s left)")
    CLAIM_BEGUN = gettext_noop("this match has begun: a player who is away now is claimed on the disconnect clock "
                               "(claim_disconnect)")
    CLAIM_NOT_BEGUN = gettext_noop("this match has not begun: a player who never came is claimed once its start "
                                   "deadline has passed (claim_no_show)")
    NO_SHOW_NOT_DUE = gettext_noop("this match is due to start by its deadline, and a player loses after %(late)s s "
                                   "late: %(left)s s left")
    ABSENT_SEAT = gettext_noop("an official names the seat of the player who is away as 'absent' (0 or 1)")
    DISCONNECT_PRESET = gettext_noop("'disconnect' is one of %(choices)s")
    CLOCK_PRESET_OR_NONE = gettext_noop("'clock' is one of %(choices)s, or empty for no clock")
    LOG_IN_TO_CHALLENGE = gettext_noop("log in with a member's account (one with a player) to challenge another "
                                       "member")
    NO_CHALLENGE = gettext_noop("no challenge %(challenge)s of yours")
    CHALLENGE_ANSWERED = gettext_noop("this challenge has been answered already (%(status)s)")
    CHALLENGED_ACCEPTS = gettext_noop("only the member challenged accepts a challenge")
    CHALLENGE_MEMBER = gettext_noop("a member with an account is challenged: %(name)s has none")
    FAIR_PLAY_REVIEWERS = gettext_noop("a player's fair-play figures are for officials and the directors of the "
                                       "events the player entered")


class BadCommand(Refusal, ValueError):
    """A command the API cannot read (missing field, wrong type): HTTP 400."""

    code = PlatformErrorCode.BAD_COMMAND


class MatchNotFound(Refusal, LookupError):
    """No match with that id (or none this user may see): HTTP 404."""

    code = PlatformErrorCode.NOT_FOUND
