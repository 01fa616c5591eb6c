"""Exceptions the engine raises when a command breaks a rule: each a stable code, a reason and its parameters.

A refusal is data: ``exc.code`` (an :class:`ErrorCode`, the kind of refusal a program tells apart, as API
clients have always received it), ``exc.reason`` (a :class:`Reason`: exactly which rule) and ``exc.params`` (the
names, points and dice it is about; a nested reason is itself a refusal). ``str(exc)`` is the reason written in
English for a person at the board, so the engine reads well without any translation machinery:

>>> str(IllegalMove(Reason.NOT_LEGAL, move="8/5", why=IllegalMove(Reason.POINT_CLOSED, point=5)))
'8/5 is not legal: the 5 point is closed'
>>> NotYourTurn(Reason.OWN_DOUBLE).code
<ErrorCode.NOT_YOUR_TURN: 'not_your_turn'>

A reason's value is its English template; an application shows it in another language by translating the
template and filling in the same parameters (Crawford's API does, deploy/refusals.py).
"""

from enum import Enum, StrEnum


def gettext_noop(message: str) -> str:
    """``message`` as it is: the call marks it for the translators' catalogue (gettext's tools extract it)."""
    return message


class ErrorCode(StrEnum):
    """Why the engine refused a command; one value per exception class below."""

    ENGINE_ERROR = "engine_error"
    ILLEGAL_MOVE = "illegal_move"
    NOT_YOUR_TURN = "not_your_turn"
    CUBE_NOT_AVAILABLE = "cube_not_available"
    INVALID_ACTION = "invalid_action"
    MATCH_OVER = "match_over"
    INVALID_POSITION = "invalid_position"
    NOTATION_ERROR = "notation_error"
    INVALID_MAT_FILE = "invalid_mat_file"


class Reason(Enum):
    """Exactly which rule refused: the member's name says it, its value is the English template."""

    # a move (games/engine/moves.py); NOT_LEGAL names the play and nests the fault (``why``)
    NOT_LEGAL = gettext_noop("%(move)s is not legal: %(why)s")
    DICE_OUT_OF_RANGE = gettext_noop("dice must be 1 to 6, got %(d1)s-%(d2)s")
    MUST_PLAY = gettext_noop("the roll %(d1)s-%(d2)s can be played (e.g. %(move)s); the turn cannot be passed")
    HIGHER_TO_LOWER = gettext_noop("checkers move from higher to lower points")
    NO_CHECKER_ON_BAR = gettext_noop("you have no checker on the bar")
    NO_CHECKER_ON_POINT = gettext_noop("you have no checker on the %(point)s point")
    POINT_CLOSED = gettext_noop("the %(point)s point is closed")
    NO_BLOT_TO_HIT = gettext_noop("there is no blot to hit on the %(point)s point")
    BAR_FIRST = gettext_noop("a checker on the bar must enter first")
    BEAR_OFF_FROM_HIGHEST = gettext_noop("a %(die)s bears off from a lower point only when no checker stands on a "
                                         "higher point (one is on the %(point)s point)")
    NO_DIE_MOVES_ONE_PIP = gettext_noop("no die of the roll %(d1)s-%(d2)s moves 1 pip")
    NO_DIE_MOVES_PIPS = gettext_noop("no die of the roll %(d1)s-%(d2)s moves %(pips)s pips")
    HOME_BOARD_FIRST = gettext_noop("bearing off needs all fifteen checkers in the home board "
                                    "(one is on the %(point)s point)")
    NO_LEGAL_PLAY = gettext_noop("the roll %(d1)s-%(d2)s has no legal play; the turn passes")
    WHOLE_ROLL = gettext_noop("all of the roll must be played (%(dice)s dice can be played)")
    AS_MANY_DICE = gettext_noop("%(dice)s dice can be played, so %(dice)s must be")
    HIGHER_DIE = gettext_noop("only one die can be played, and the higher (%(die)s) must be played when possible")
    NO_SUCH_PLAY = gettext_noop("it does not match any legal play for this roll")
    # what the game waits for (games/engine/match.py)
    WAITING_FOR_TAKE = gettext_noop("waiting for %(name)s to answer the double")
    WAITING_FOR_ANSWER = gettext_noop("waiting for %(name)s to answer the resignation")
    WAITING_FOR_MOVE = gettext_noop("waiting for %(name)s to move")
    WAITING_FOR_ROLL = gettext_noop("waiting for %(name)s to roll")
    OPENING_ROLL = gettext_noop("game %(game)s starts with the opening roll")
    # whose turn
    NOT_YOUR_ROLL = gettext_noop("it is %(name)s's turn, %(other)s cannot roll")
    NOT_YOUR_MOVE = gettext_noop("it is %(name)s's turn, %(other)s cannot move")
    NOT_YOUR_DOUBLE = gettext_noop("it is %(name)s's turn, %(other)s cannot double")
    MUST_ANSWER_DOUBLE = gettext_noop("%(name)s must answer the double")
    OWN_DOUBLE = gettext_noop("you cannot answer your own double")
    OWN_RESIGNATION = gettext_noop("you cannot answer your own resignation")
    NO_SUCH_PLAYER = gettext_noop("player must be 0 or 1, not %(player)s")
    # the cube
    DOUBLE_BEFORE_ROLLING = gettext_noop("you can double only before rolling")
    CRAWFORD_GAME = gettext_noop("no doubling in the Crawford game")
    CUBE_OWNED = gettext_noop("%(name)s owns the cube")
    DEAD_CUBE_ONE_POINT = gettext_noop("the cube is dead: you need 1 point and the cube already gives %(cube)s")
    DEAD_CUBE = gettext_noop("the cube is dead: you need %(need)s points and the cube already gives %(cube)s")
    CUBE_LIMIT = gettext_noop("the cube cannot go above %(limit)s")
    NO_BEAVERS = gettext_noop("beavers are not allowed in this match")
    BEAVER_ANSWERS_DOUBLE = gettext_noop("a beaver answers a double; a raccoon answers a beaver")
    RACCOON_ANSWERS_BEAVER = gettext_noop("a raccoon answers a beaver")
    NO_RACCOONS = gettext_noop("raccoons are not allowed in this session")
    REDOUBLES_USED = gettext_noop("only %(allowed)s redoubles may follow a double in this session")
    # the state of the game
    UNKNOWN_COMMAND = gettext_noop("unknown command %(command)s")
    MATCH_IS_OVER = gettext_noop("the match is over: %(name)s won %(a)s-%(b)s")
    NOT_STARTED = gettext_noop("the match has not started")
    ALREADY_STARTED = gettext_noop("the match has already started")
    TWO_PLAYERS = gettext_noop("a match needs two different, named players")
    NEGATIVE_LENGTH = gettext_noop("the match length cannot be negative")
    EVEN_LENGTH = gettext_noop("a match is played to an odd number of points; %(length)s is even")
    MONEY_OPTIONS = gettext_noop("Jacoby, beavers, raccoons and automatic doubles are for money sessions only")
    RACCOONS_NEED_BEAVERS = gettext_noop("raccoons need beavers to be allowed")
    REDOUBLES_NEED_BEAVERS = gettext_noop("redoubles after a double need beavers allowed (and raccoons from 2 on)")
    CUBE_LIMIT_POWER_OF_TWO = gettext_noop("the cube limit must be a power of two, 2 or more")
    INITIAL_SCORE = gettext_noop("the initial score must be below the match length")
    BAD_DICE = gettext_noop("dice are two numbers from 1 to 6, not %(dice)s")
    DICE_ROLLED = gettext_noop("the dice are already rolled: play them")
    ROLL_FIRST = gettext_noop("roll the dice before moving")
    NO_DOUBLE_OFFERED = gettext_noop("no double has been offered")
    NO_RESIGNATION_OFFERED = gettext_noop("no resignation has been offered")
    BAD_RESIGNATION = gettext_noop("resign a single, gammon or backgammon, not %(kind)s")
    NO_RESIGNATION_NOW = gettext_noop("a resignation cannot be offered now: %(why)s")
    DECLINED_SINGLE = gettext_noop("%(name)s has already declined your offer of a single game; offer more, or "
                                   "play on")
    DECLINED_GAMMON = gettext_noop("%(name)s has already declined your offer of a gammon; offer more, or play on")
    DECLINED_BACKGAMMON = gettext_noop("%(name)s has already declined your offer of a backgammon; offer more, or "
                                       "play on")
    # positions and the notations (games/engine/board.py, notation.py, gnubgid.py, xgid.py): the text read is quoted
    MOVER_SIDE = gettext_noop("the mover's side must be 26 counts, none negative")
    OPPONENT_SIDE = gettext_noop("the opponent's side must be 26 counts, none negative")
    MOVER_CHECKERS = gettext_noop("the mover has %(count)s checkers, not %(checkers)s")
    OPPONENT_CHECKERS = gettext_noop("the opponent has %(count)s checkers, not %(checkers)s")
    BOTH_ON_POINT = gettext_noop("both players have checkers on the %(point)s point")
    OFF_THE_BOARD = gettext_noop("point %(point)s is not on the board (1-24, 25 = bar)")
    NOT_A_POINT = gettext_noop("%(text)s is not a point (1-24, bar/25, off/0)")
    UNREADABLE_MOVE = gettext_noop("cannot read %(text)s as a move (expected e.g. 24/18, bar/22, 6/off, 8/5(2))")
    MOVE_UPWARDS = gettext_noop("%(text)s: checkers move from higher to lower points")
    BASE64_LENGTH = gettext_noop("a %(what)s is %(length)s base64 characters (A-Z a-z 0-9 + /), not %(text)s")
    NOT_BASE64 = gettext_noop("%(text)s is not base64: %(error)s")
    STRAY_BITS = gettext_noop("%(text)s is not a %(what)s: its last character has stray bits")
    POSITION_ID = gettext_noop("Position ID %(text)s: %(why)s")
    PAST_LAST_POINT = gettext_noop("Position ID %(text)s has checkers past the last point")
    ROLLER_TOO_MANY = gettext_noop("Position ID %(text)s gives the player on roll more than %(checkers)s checkers")
    OPPONENT_TOO_MANY = gettext_noop("Position ID %(text)s gives the opponent more than %(checkers)s checkers")
    BOTH_ON_BAR = gettext_noop("both players are on the bar against closed boards")
    CUBE_VALUE = gettext_noop("cube value %(cube)s is not a power of 2 from 1 to 32768")
    CUBE_OWNER = gettext_noop("cube owner %(owner)s is not 0, 1 or None (centred)")
    PLAYER_FIELD = gettext_noop("%(field)s must be player 0 or 1, not %(value)s")
    ID_DICE = gettext_noop("dice %(dice)s are neither (0, 0) (not rolled) nor two dice 1-6")
    LENGTH_BITS = gettext_noop("match length %(length)s does not fit in 15 bits")
    SCORE_FIT = gettext_noop("score %(score)s does not fit a %(length)s-point match")
    MONEY_CRAWFORD = gettext_noop("a money game (match length 0) has no Crawford game")
    MATCH_ID = gettext_noop("Match ID %(text)s: %(why)s")
    PAST_BIT_66 = gettext_noop("Match ID %(text)s has bits set past bit 66")
    OWNER_BITS = gettext_noop("cube owner bits 10 mean nothing (0, 1 or 11 = centred)")
    GAME_STATE = gettext_noop("game state %(state)s is unknown (0-4)")
    CUBE_POWER = gettext_noop("cube value %(value)s is not a power of 2")
    MAX_CUBE_POWER = gettext_noop("maximum cube %(value)s is not a power of 2")
    XGID_TURN = gettext_noop("turn must be 1 (bottom player) or -1 (top player), not %(turn)s")
    XGID_CUBE_POSITION = gettext_noop("cube position must be 1, 0 or -1, not %(position)s")
    DICE_DURING_CUBE = gettext_noop("the dice are not rolled while a cube decision is pending")
    NEGATIVE_SCORES = gettext_noop("match length and scores cannot be negative")
    SCORE_BELOW_LENGTH = gettext_noop("score %(bottom)s-%(top)s is not below the match length %(length)s")
    MONEY_RULES = gettext_noop("the Jacoby and beaver rules belong to money play (match length 0)")
    XGID_FIELDS = gettext_noop("an XGID has 10 fields separated by ':', %(text)s has %(count)s")
    XGID = gettext_noop("XGID %(text)s: %(why)s")
    WHOLE_FIELDS = gettext_noop("fields 2-4 and 6-10 must be whole numbers")
    XGID_BOARD = gettext_noop("the board must be 26 characters: '-' or a-o for the top player's bar, '-', A-O "
                              "(bottom player) or a-o (top player) for points 1-24, '-' or A-O for the bottom "
                              "player's bar")
    BOTTOM_TOO_MANY = gettext_noop("the bottom player has more than %(checkers)s checkers")
    TOP_TOO_MANY = gettext_noop("the top player has more than %(checkers)s checkers")
    XGID_DICE = gettext_noop("dice field %(dice)s is not 00, two dice 1-6, D, B or R")
    CUBE_FIELDS = gettext_noop("cube fields are log2 of the cube value (0-15)")
    RULES_FIELD = gettext_noop("Crawford/Jacoby field %(rules)s does not fit this kind of game")
    # the chouette (games/engine/chouette.py)
    CHOUETTE_NOT_STARTED = gettext_noop("the chouette has not started")
    CHOUETTE_ALREADY_STARTED = gettext_noop("the chouette has already started")
    CHOUETTE_PLAYERS = gettext_noop("a chouette needs 3 to %(most)s different, named players")
    PARTNER_FROM_SIX = gettext_noop("the box takes a partner only with %(least)s players or more, not %(count)s")
    PARTNER_REQUIRED = gettext_noop("with %(count)s players the box must take a partner")
    UNKNOWN_VARIATION = gettext_noop("the rule for several doubles at once is one of %(variations)s, not "
                                     "%(variation)s")
    NAME_A_CUBE = gettext_noop("name at least one team member's cube")
    NAMED_TWICE = gettext_noop("%(name)s is named twice")
    NOT_IN_TEAM = gettext_noop("%(name)s is not in the team against the box")
    CUBE_SETTLED = gettext_noop("%(name)s's cube is settled for this game")
    MEMBER_OWNS_CUBE = gettext_noop("%(name)s owns their cube: the box cannot double it")
    BOX_OWNS_CUBE = gettext_noop("the box owns %(name)s's cube: %(name)s cannot double")
    NOTHING_TO_ANSWER = gettext_noop("%(name)s has no double to answer")
    ANSWER_EVERY_DOUBLE = gettext_noop("the box answers every double offered, and only those: %(names)s")
    BOX_TAKES_HALF = gettext_noop("facing %(count)s first doubles at once, the box takes at least %(need)s of them "
                                  "or drops them all")
    BOX_TAKES_CAPTAIN = gettext_noop("taking first doubles offered at once, the box takes the captain's (%(name)s)")
    # the clock (games/engine/clock.py)
    CLOCK_MATCHES_ONLY = gettext_noop("a clock is for a match to a number of points, not a money session")
    CLOCK_AT_GAME_START = gettext_noop("a clock is set only at the start of a game, before its opening roll")
    CLOCK_ALREADY_SET = gettext_noop("the match has its clock already")
    NO_CLOCK = gettext_noop("the match has no clock")
    CLOCK_PAUSED = gettext_noop("the clocks are paused: the director resumes them")
    CLOCK_NOT_PAUSED = gettext_noop("the clocks are not paused")
    CLOCK_STANDING = gettext_noop("no clock is running")
    READING_BEFORE = gettext_noop("a reading of the clock cannot come before the last one")
    NOT_YOUR_CLOCK = gettext_noop("%(name)s's clock is not running: %(other)s presses")
    FLAG_NOT_FALLEN = gettext_noop("%(name)s still has %(seconds)s seconds")
    GIVEN_FOR = gettext_noop("a match is given on %(reasons)s")
    LATE_MATCHES_ONLY = gettext_noop("lateness penalties are for a match to a number of points")
    LATE_ONLY_BEFORE_PLAY = gettext_noop("lateness is counted before the match's first game begins")
    NO_PENALTY_DUE = gettext_noop("no penalty point is due yet: one each full 5 minutes after the match is called")
    # Jellyfish .mat files (games/engine/matfile.py): where in the file, then what is wrong there
    MAT_GIVEN_TO_WHOM = gettext_noop("the file's match ends on %(reason)s, given to '%(name)s', who is not one of its "
                                     "players")
    MAT_AT_MOVE = gettext_noop("game %(game)s, move %(move)s: %(why)s")
    MAT_AT_GAME = gettext_noop("game %(game)s: %(why)s")
    MAT_LINE_BEFORE_GAME = gettext_noop("unexpected line before the first game: '%(line)s'")
    MAT_UNREADABLE_LINE = gettext_noop("cannot read the line '%(line)s'")
    MAT_NO_LENGTH = gettext_noop("no 'N point match' line")
    MAT_NO_GAME = gettext_noop("the file holds no game")
    MAT_ILLEGAL_PLAY_RECORDED = gettext_noop("the file records an illegal play (a position set by hand in Snowie); "
                                             "it cannot be replayed")
    MAT_NEEDS_POINTS = gettext_noop("'%(word)s' needs a number of points")
    MAT_NEEDS_CUBE = gettext_noop("'%(word)s' needs a cube value (e.g. Doubles => 2)")
    MAT_UNREADABLE_WORD = gettext_noop("cannot read '%(word)s'")
    MAT_ALREADY_OVER = gettext_noop("the match was already over")
    MAT_GAME_UNFINISHED = gettext_noop("the previous game did not finish")
    MAT_SCORE_DIFFERS = gettext_noop("the file gives the score %(written)s, the games before give %(played)s")
    MAT_OPENS_WITH_DOUBLE = gettext_noop("a game cannot open with a double")
    MAT_ROLL_HAS_NO_PLAY = gettext_noop("%(move)s is not legal: %(roll)s has no legal play")
    MAT_CUBE_VALUE = gettext_noop("the cube is doubled to %(cube)s, not %(written)s")
    MAT_DROPPED_ROLL = gettext_noop("cannot read '%(move)s': gnubg drops that roll, and %(name)s's opponent cannot "
                                    "play twice")
    MAT_PLAY_NOT_RECORDED = gettext_noop("the play of %(roll)s is not recorded (%(move)s), but %(roll)s can be played "
                                         "(e.g. %(play)s)")
    MAT_NO_MOVE_WRITTEN = gettext_noop("no move is written, but %(roll)s can be played (e.g. %(play)s)")
    MAT_NOT_TURN_ROLL = gettext_noop("%(name)s cannot roll now: it is %(other)s's turn")
    MAT_NOT_TURN_DOUBLE = gettext_noop("%(name)s cannot double now: it is %(other)s's turn")
    MAT_NOT_TURN_TAKE = gettext_noop("%(name)s cannot take now: it is %(other)s's turn")
    MAT_NOT_TURN_DROP = gettext_noop("%(name)s cannot drop now: it is %(other)s's turn")
    MAT_NOT_TURN_BEAVER = gettext_noop("%(name)s cannot beaver now: it is %(other)s's turn")
    MAT_RESIGN_UNDER_OWN_DOUBLE = gettext_noop("a game cannot be resigned by the player who doubled while the double "
                                               "is pending")
    MAT_RESIGN_NOW = gettext_noop("a game cannot be resigned now")
    MAT_WINNER_DIFFERS = gettext_noop("the file says %(name)s wins %(points)s, the play gives %(winner)s %(won)s")


class Refusal(Exception):
    """A refusal as data: ``Refusal(reason, **params)``, its text the reason's template filled in (English).

    A text instead of a reason enum's member is kept as it is (``reason`` is then None): the notation readers'
    messages quote the text they could not read. The tournament's refusals are refusals the same way.
    """

    def __init__(self, reason: "Enum | str", /, **params):
        self.reason = reason if isinstance(reason, Enum) else None
        self.params = params
        super().__init__(reason.value % params if isinstance(reason, Enum) else reason)


class EngineError(Refusal):
    """Base class: the command was refused and the state is unchanged."""

    code: ErrorCode = ErrorCode.ENGINE_ERROR


class IllegalMove(EngineError):
    """The checker play breaks a rule of movement."""

    code = ErrorCode.ILLEGAL_MOVE


class NotYourTurn(EngineError):
    """The player acted out of turn."""

    code = ErrorCode.NOT_YOUR_TURN


class CubeNotAvailable(EngineError):
    """Doubling is not allowed now (Crawford game, opponent owns the cube...)."""

    code = ErrorCode.CUBE_NOT_AVAILABLE


class InvalidAction(EngineError):
    """The action does not fit the state of the game (e.g. move before rolling)."""

    code = ErrorCode.INVALID_ACTION


class MatchOver(EngineError):
    """The match is finished; nothing more can be played."""

    code = ErrorCode.MATCH_OVER


class InvalidPosition(EngineError):
    """A position that cannot occur in backgammon (wrong checker count...)."""

    code = ErrorCode.INVALID_POSITION


class NotationError(EngineError):
    """Text that cannot be read as a move, ID or file."""

    code = ErrorCode.NOTATION_ERROR
