"""Why the tournament refuses a command: one exception per reason, each with a stable code.

Pure Python. A client tells "not entered" from "check-in closed" by ``code`` (the API's error handler
puts ``exc.code`` in the body), never by parsing the text, which is for people. A refusal is data: its
``reason`` (a :class:`Reason`, whose value is the English template) and ``params``; ``str(exc)`` is the
reason in English, and the API says it in the reader's language from the same data. Every refusal but
:class:`NotPermitted` is a :class:`TournamentError`, a ``ValueError``: HTTP 400. ``NotPermitted`` is the
decider's "you may not" (HTTP 403): the service raises it as Django's ``PermissionDenied``.
"""

from __future__ import annotations

from enum import Enum, StrEnum

from games.engine.errors import Refusal, gettext_noop


class TournamentRefusal(StrEnum):
    UNKNOWN_COMMAND = "unknown_command"
    BAD_COMMAND = "bad_command"
    NOT_PERMITTED = "not_permitted"
    UNKNOWN_PLAYER = "unknown_player"
    ALREADY_ENTERED = "already_entered"
    EVENT_FULL = "event_full"
    LATE_ENTRY_CLOSED = "late_entry_closed"
    NOT_ENTERED = "not_entered"
    CHECK_IN_CLOSED = "check_in_closed"
    NOT_IN_EVENT = "not_in_event"
    ALREADY_DRAWN = "already_drawn"
    FIELD_TOO_SMALL = "field_too_small"
    BAD_SEEDS = "bad_seeds"
    BAD_DRAW_METHOD = "bad_draw_method"
    NOT_SWISS = "not_swiss"
    NOT_DRAWN = "not_drawn"
    BAD_ROUND = "bad_round"
    ROUND_NOT_FINISHED = "round_not_finished"
    ROUND_BEGUN = "round_begun"
    ALL_ROUNDS_PAIRED = "all_rounds_paired"
    BAD_PAIRINGS = "bad_pairings"
    PAIRING_IMPOSSIBLE = "pairing_impossible"
    UNKNOWN_SLOT = "unknown_slot"
    BAD_WINNER = "bad_winner"
    BAD_SCORE = "bad_score"
    SLOT_NOT_READY = "slot_not_ready"
    REASON_REQUIRED = "reason_required"
    NO_RESULT = "no_result"
    NOT_FLAGGED = "not_flagged"
    NO_MATCH = "no_match"
    TABLE_TAKEN = "table_taken"
    TABLE_OUT_OF_SERVICE = "table_out_of_service"
    NOT_STAGED = "not_staged"
    STAGE_NOT_FINISHED = "stage_not_finished"
    STAGE_CLOSED = "stage_closed"
    NO_REENTRY = "no_reentry"
    REENTRY_CLOSED = "reentry_closed"
    NOT_ELIMINATED = "not_eliminated"
    REENTRY_TOO_LATE = "reentry_too_late"
    REENTRIES_USED = "reentries_used"
    NO_OPEN_PLACE = "no_open_place"
    BAD_EVENT = "bad_event"  # creating an event: its name, format or settings
    NOT_LADDER = "not_ladder"
    NOT_LEAGUE = "not_league"
    CHALLENGE_REFUSED = "challenge_refused"
    UNKNOWN_CHALLENGE = "unknown_challenge"
    CHALLENGE_BEGUN = "challenge_begun"
    NO_PREVIOUS_SEASON = "no_previous_season"
    SETTINGS_FIXED = "settings_fixed"
    BAD_MONEY = "bad_money"  # the event's money: a lot, a sale, a buy-back, a payee
    BAD_TEAM = "bad_team"  # a team event: a team, its line-up, its draw
    BAD_PROOF = "bad_proof"  # a match played on another server, reported for a slot with its match file


class Reason(Enum):
    """Exactly why the tournament refuses: the member's name says it, its value is the English template."""

    UNKNOWN_COMMAND = gettext_noop("unknown command %(command)s")
    DIRECTOR_ONLY = gettext_noop("only the event's director or an official may do this")
    ONLY_YOURSELF = gettext_noop("you may enter only yourself")
    ALREADY_ENTERED = gettext_noop("already entered")
    CASUAL_EVENT_FULL = gettext_noop("a member's casual event takes at most %(limit)s players")
    STAGE_ONE_CLOSED = gettext_noop("stage one is closed: its knockout is drawn")
    SWISS_TAKES_LATE_ENTRIES = gettext_noop("the draw is made: only a Swiss event takes late entries")
    NO_LATE_ENTRY_ROUND = gettext_noop("this Swiss event takes no late entries: its settings name no round for them")
    LATE_ENTRY_CLOSED = gettext_noop("late entry closed: round %(round)s, the last a late entrant may join, has "
                                     "been paired")
    NOT_ENTERED = gettext_noop("the player has not entered")
    CHECK_IN_CLOSED = gettext_noop("check-in closes with the draw")
    NOT_IN_EVENT = gettext_noop("the player is not in the event")
    WITHDRAWN = gettext_noop("the player has withdrawn")
    ALREADY_DRAWN = gettext_noop("the draw has been made")
    TWO_PLAYERS = gettext_noop("the draw needs at least two checked-in players")
    GROUPS_FIELD = gettext_noop("%(groups)s groups need at least %(players)s players")
    BAD_SEEDS = gettext_noop("'seeds' must list every checked-in player exactly once")
    PREVIOUS_SEASON = gettext_noop("a next season is drawn in a league, from a league event with divisions")
    BAD_DRAW_METHOD = gettext_noop("method is random, rating, manual or previous")
    NOT_SWISS = gettext_noop("only Swiss rounds are paired; brackets and round robins follow their draw")
    DRAW_FIRST = gettext_noop("make the draw first: it pairs round 1")
    NO_SUCH_ROUND = gettext_noop("'round' is a round number of this event, from 1 to %(rounds)s")
    PAIR_ONCE_FINISHED = gettext_noop("round %(round)s is not finished: pair round %(next)s once it is")
    ROUND_BEGUN = gettext_noop("round %(round)s has begun: it can no longer be paired again")
    LAST_PAIRED = gettext_noop("round %(round)s is the last one paired: pair round %(next)s next")
    PAIR_EVERY_PLAYER = gettext_noop("a manual pairing must place every active player exactly once")
    ONE_BYE = gettext_noop("a bye only when the number of players is odd, and one at most")
    SECOND_BYE = gettext_noop("player %(player)s has had a bye already")
    FORBIDDEN_PAIR = gettext_noop("players %(a)s and %(b)s may not be paired")
    REMATCH = gettext_noop("players %(a)s and %(b)s have met already: no rematch in a Swiss event")
    ALL_ROUNDS_PAIRED = gettext_noop("all rounds have been paired")
    ROUND_NOT_FINISHED = gettext_noop("round %(round)s is not finished")
    UNKNOWN_SLOT = gettext_noop("no slot %(slot)s in this event")
    WINNER_OF_SLOT = gettext_noop("the winner must be one of the slot's players %(players)s")
    SCORE_REQUIRED = gettext_noop("'score' is required: [winner's points, loser's points]")
    WINNER_POINTS = gettext_noop("in a %(length)s-point match the winner has %(length)s points or more, the loser "
                                 "fewer")
    FINAL_SCORE = gettext_noop("a %(length)s-point match ends with at most %(most)s points")
    NOT_BEING_PLAYED_WAITING = gettext_noop("%(slot)s is waiting: report a result only for a match being played")
    NOT_BEING_PLAYED_BYE = gettext_noop("%(slot)s is bye: report a result only for a match being played")
    NOT_BEING_PLAYED_DONE = gettext_noop("%(slot)s is done: report a result only for a match being played")
    NOT_BEING_PLAYED_VOID = gettext_noop("%(slot)s is void: report a result only for a match being played")
    PLAYERS_CONFIRM = gettext_noop("only the two players of the match confirm its result")
    CORRECTION_REASON = gettext_noop("a correction needs a 'reason'")
    NO_RESULT = gettext_noop("correct a slot that has a result")
    FORFEIT_NOT_DUE = gettext_noop("a forfeit is for a match that is due and not decided")
    NAME_THE_WINNER = gettext_noop("name the winner or the player who forfeits ('loser'), one of the two")
    LOSER_OF_SLOT = gettext_noop("the player who forfeits must be one of the slot's players %(players)s")
    NOT_FLAGGED = gettext_noop("only a flagged match can be kept")
    NO_MATCH = gettext_noop("no match was created for that slot")
    TABLE_OUT_OF_SERVICE = gettext_noop("table %(table)s is out of service")
    TABLE_TAKEN = gettext_noop("table %(table)s is taken by the match %(slot)s")
    NOT_LADDER = gettext_noop("challenges are issued on a ladder")
    NOT_A_LADDER = gettext_noop("this event is not a ladder")
    NOT_A_LEAGUE = gettext_noop("this event is not a league")
    EVENT_GONE = gettext_noop("event %(event)s no longer exists")
    DRAW_LADDER_FIRST = gettext_noop("make the draw first: it sets the ladder's first order")
    CHALLENGER_ONLY = gettext_noop("you may issue a challenge only as the challenger")
    UNKNOWN_CHALLENGE = gettext_noop("no open challenge number %(number)s")
    CHALLENGED_DECLINES = gettext_noop("only the challenged player (or the director) declines a challenge")
    CHALLENGE_BEGUN = gettext_noop("the challenge's match has begun: it is played out")
    NOT_STAGED = gettext_noop("this event has no knockout stage: set 'qualifiers' when creating it")
    STAGE_CLOSED = gettext_noop("stage one is closed already: its knockout is drawn")
    STAGE_NOT_BEGUN = gettext_noop("make the draw first: stage one has not begun")
    STAGE_ROUNDS = gettext_noop("round %(round)s of %(rounds)s is the last paired")
    STAGE_UNDECIDED = gettext_noop("%(count)s match(es) of stage one undecided, e.g. %(slot)s")
    TWO_QUALIFIERS = gettext_noop("a knockout needs two qualifiers still in the event")
    NO_REENTRY = gettext_noop("this event's knockout offers no re-entry, or it is not drawn yet")
    REENTRY_CLOSED = gettext_noop("the director has closed re-entry")
    NOT_ELIMINATED = gettext_noop("only a player knocked out of the main bracket re-enters")
    REENTRY_TOO_LATE = gettext_noop("re-entry is for the losers of round %(until)s or earlier; the player lost in "
                                    "round %(round)s")
    REENTRIES_USED = gettext_noop("a player may re-enter %(times)s time(s)")
    NO_OPEN_PLACE = gettext_noop("every place kept for re-entries is taken")
    SETTINGS_FIXED = gettext_noop("the draw is made: %(settings)s no longer change")
    STAGE_ROUNDS_FIXED = gettext_noop("stage one is closed: its number of rounds no longer changes")
    FEWER_ROUNDS = gettext_noop("round %(round)s has been paired: the event has at least %(round)s rounds")

    # the services': who may create, name and show an event, and what the command sends
    LOG_IN_TO_CREATE = gettext_noop("log in to create an event")
    OFFICIALS_CREATE = gettext_noop("only officials, and a club's directors under its name, may create events")
    CLUB_DIRECTORS_CREATE = gettext_noop("only the directors of %(club)s and officials may create events under its "
                                         "name")
    DIRECTOR_RENAMES = gettext_noop("only the event's director or an official may rename it")
    DIRECTOR_PUBLISHES = gettext_noop("only the event's director or an official may publish or hide it")
    DIRECTOR_ADDS_MATCHES = gettext_noop("only the event's director or an official may add matches to it")
    FORMAT_IS_ONE_OF = gettext_noop("format is one of %(formats)s")
    EVENT_NAME = gettext_noop("an event's name is 1 to %(most)s characters")
    SETTINGS = gettext_noop("settings: %(why)s")
    EXPECTED_VERSION = gettext_noop("'expected_version' is the event's version number")
    PLAYER_ID = gettext_noop("'player' is the id of a player")
    PREVIOUS_VISIBLE = gettext_noop("'previous' is a league event you can see")
    PREVIOUS_DIVIDED = gettext_noop("'previous' is a league event that has made its divisions")
    # a command's fields, as tournaments/commands.py reads them
    COMMAND_OBJECT = gettext_noop("a command is a JSON object with a 'type'")
    UNKNOWN_COMMAND_TYPE = gettext_noop("unknown command type %(type)s; expected one of %(types)s")
    FIELD_PLAYER_ID = gettext_noop("'%(field)s' is the id of a player")
    FIELD_SLOT = gettext_noop("'%(field)s' is a slot's key, e.g. \"main:r1:m1\"")
    FIELD_TOO_LONG = gettext_noop("'%(field)s' is at most %(most)s characters")
    FIELD_NUL = gettext_noop("'%(field)s' cannot contain a NUL character")
    FIELD_SCORE = gettext_noop("'%(field)s' is [winner's points, loser's points]")
    FIELD_WHOLE = gettext_noop("'%(field)s' is a whole number from %(low)s to %(high)s")
    FIELD_FLAG = gettext_noop("'%(field)s' is true or false")
    FIELD_CHOICE = gettext_noop("'%(field)s' is one of %(choices)s")
    FIELD_ROUND = gettext_noop("'%(field)s' is a round number of this event")
    FIELD_IDS = gettext_noop("'%(field)s' is a list of player ids")
    FIELD_NAMES = gettext_noop("'%(field)s' is a list of names")
    METHOD_CHOICE = gettext_noop("method is random, rating or manual")
    PREVIOUS_ID = gettext_noop("'previous' is the id of the league event the new season follows")
    TWO_PLAYERS_APART = gettext_noop("'players' are the two players who must not meet")
    TABLE_NUMBER = gettext_noop("'table' is a table number from 1 to %(high)s")
    IN_SERVICE = gettext_noop("'in_service' is true (the table is back) or false (out of service)")
    CHALLENGE_NUMBER = gettext_noop("'number' is a challenge's number")
    SLOT_OR_EVENT = gettext_noop("'slot' is a slot's key, e.g. \"main:r1:m1\" (none: the whole event)")
    PAIRINGS_LIST = gettext_noop("'pairings' is a list of [player, player] (or [player, null] for a bye)")
    EACH_PAIRING = gettext_noop("each pairing is [player, player] or [player, null] for a bye")
    CLOCK_PRESET_NEEDED = gettext_noop("'preset' names the clock of a round with clocks (required or "
                                       "allowed), and a round without clocks has none")
    CLOCK_FIGURES_CUSTOM = gettext_noop("a custom clock gives 'per_point' or 'per_match' (more than 0); a "
                                        "federation's preset has its own figures")
    CLOCK_BRACKET = gettext_noop("'bracket' is a bracket's name, e.g. \"main\" (none: every bracket)")
    LOT_NAME = gettext_noop("a lot is named (1 to %(most)s characters)")
    LOT_NAME_TAKEN = gettext_noop("there is a lot named %(lot)s already")
    LOT_PLAYERS = gettext_noop("a lot is one player or a pair, or the field (and then names no player)")
    ONE_FIELD_LOT = gettext_noop("the Calcutta has its field lot already")
    LOT_PLAYER_TAKEN = gettext_noop("player %(player)s is in lot %(lot)s already")
    UNKNOWN_LOT = gettext_noop("no lot is named %(lot)s")
    OWNER_NEEDED = gettext_noop("a sale names its owner: the bidder (a syndicate's one bidder)")
    LOT_BOUGHT_BACK = gettext_noop("lot %(lot)s was bought back: its sale stands")
    FIELD_LOT_NO_BUY_BACK = gettext_noop("the players of the field lot cannot buy back")
    LOT_NOT_SOLD = gettext_noop("lot %(lot)s is not sold: there is nothing to buy back")
    PAYEE_ONE = gettext_noop("a payout names its payee: a player or an owner, not both")
    UNKNOWN_PAYEE = gettext_noop("%(payee)s has no share in this event's money: not an entrant, nor a lot's owner")
    NO_MONEY = gettext_noop("the event's money is not set: set its fees first")
    SYNDICATE_MEMBERS = gettext_noop("a syndicate is named with its members, its bidder %(owner)s among them "
                                     "(at most %(most)s)")
    JACKPOT_NAME = gettext_noop("a jackpot is named (1 to %(most)s characters)")
    JACKPOT_NAME_TAKEN = gettext_noop("there is a jackpot named %(jackpot)s already")
    JACKPOT_LENGTH = gettext_noop("a jackpot's matches are played to an odd number of points, 1 to %(most)s")
    UNKNOWN_JACKPOT = gettext_noop("no jackpot is named %(jackpot)s")
    JACKPOT_FULL = gettext_noop("jackpot %(jackpot)s is full: its %(size)s seats are bought")
    JACKPOT_BOUGHT_ALREADY = gettext_noop("player %(player)s has bought a seat of jackpot %(jackpot)s already")
    NOT_IN_JACKPOT = gettext_noop("player %(player)s has no seat in jackpot %(jackpot)s")
    JACKPOT_STARTED = gettext_noop("jackpot %(jackpot)s has started: its seats are final and its buy-ins kept")
    JACKPOT_NOT_FULL = gettext_noop("jackpot %(jackpot)s starts full: %(buyers)s of its %(size)s seats are bought")
    JACKPOT_EVENT = gettext_noop("a jackpot is started by its own event, which the console or the API makes")
    # a team event
    NOT_TEAM_EVENT = gettext_noop("teams play in a team event (format team_round_robin)")
    TEAM_NAME = gettext_noop("a team is named (1 to %(most)s characters)")
    TEAM_NAME_TAKEN = gettext_noop("there is a team named %(team)s already")
    TEAM_PLAYERS = gettext_noop("a team lists %(boards)s different players in board order, and at most "
                                "%(reserves)s reserve(s)")
    TEAM_PLAYER_TAKEN = gettext_noop("player %(player)s is in team %(team)s already")
    ENTER_WITH_TEAM = gettext_noop("in a team event a player enters with their team (register_team)")
    TEAMS_DRAW = gettext_noop("the draw of a team event needs at least two teams")
    TEAM_SEEDS = gettext_noop("'seeds' lists every team's number exactly once")
    UNKNOWN_TEAM = gettext_noop("no team number %(team)s in this event")
    NO_TEAM_MATCH = gettext_noop("team %(team)s plays no team match in round %(round)s")
    LINEUP_BEGUN = gettext_noop("the team match of team %(team)s in round %(round)s has begun: its line-up stands")
    TEAMS_GROUPS_FIELD = gettext_noop("%(groups)s groups need at least %(teams)s teams")
    PROOF_NOT_ONLINE = gettext_noop("%(slot)s is played at the board: a match file reports the match of a round "
                                    "played online")
    PROOF_PLAYED_HERE = gettext_noop("the match of %(slot)s has begun here: its result is the one played here, not "
                                     "another server's")
    PROOF_LENGTH = gettext_noop("the file is a %(length)s-point match; %(slot)s is played to %(slot_length)s points")
    PROOF_UNFINISHED = gettext_noop("the file's match is not finished: report a match once it is won")
    PROOF_FROM_START = gettext_noop("the file's match begins at %(score)s: report the whole match, from 0-0")
    PROOF_PLAYERS = gettext_noop("the file's players are %(names)s, not the players of %(slot)s (%(players)s), by "
                                 "their name here or their account's")
    PROOF_NONE = gettext_noop("no match file waits for consent in %(slot)s")
    PROOF_WHO_FILES = gettext_noop("only the slot's two players and the event's director report its match with a "
                                   "match file")
    PROOF_OTHER_CONSENTS = gettext_noop("the other player of the slot, or the event's director, consents to a match "
                                        "file: not the player who sent it")
    PROOF_OTHER_DECLINES = gettext_noop("the other player of the slot, or the event's director, declines a match "
                                        "file: not the player who sent it")
    PROOF_DECLINE_REASON = gettext_noop("say why the match file is declined (a 'reason')")


class Refused(Refusal):
    """A command the tournament does not take: ``Refused(reason, **params)``; ``code`` says what kind of refusal
    (a program tells them apart), the reason says exactly why and the text says it to a person."""

    code: TournamentRefusal = TournamentRefusal.BAD_COMMAND


class TournamentError(Refused, ValueError):
    """A command that breaks the event's rules or does not fit its state: HTTP 400."""


class NotPermitted(Refused):
    """The actor may not do this (only the director, only the player themself…): HTTP 403."""

    code = TournamentRefusal.NOT_PERMITTED


def _refusal(name: str, code: TournamentRefusal, doc: str) -> type[TournamentError]:
    return type(name, (TournamentError,), {"code": code, "__doc__": doc, "__module__": __name__})


UnknownCommand = _refusal("UnknownCommand", TournamentRefusal.UNKNOWN_COMMAND, "No such command type.")
BadCommand = _refusal("BadCommand", TournamentRefusal.BAD_COMMAND, "A field of the command is missing or malformed.")
UnknownPlayer = _refusal("UnknownPlayer", TournamentRefusal.UNKNOWN_PLAYER, "No player has that id.")
AlreadyEntered = _refusal("AlreadyEntered", TournamentRefusal.ALREADY_ENTERED, "The player is in the event already.")
EventFull = _refusal("EventFull", TournamentRefusal.EVENT_FULL, "The event has its largest field.")
LateEntryClosed = _refusal("LateEntryClosed", TournamentRefusal.LATE_ENTRY_CLOSED,
                           "The draw is made and the event takes no (more) late entries.")
NotEntered = _refusal("NotEntered", TournamentRefusal.NOT_ENTERED, "The player has not entered.")
CheckInClosed = _refusal("CheckInClosed", TournamentRefusal.CHECK_IN_CLOSED, "Check-in closes with the draw.")
NotInEvent = _refusal("NotInEvent", TournamentRefusal.NOT_IN_EVENT, "The player is not (or no longer) in the event.")
AlreadyDrawn = _refusal("AlreadyDrawn", TournamentRefusal.ALREADY_DRAWN, "The draw has been made.")
FieldTooSmall = _refusal("FieldTooSmall", TournamentRefusal.FIELD_TOO_SMALL, "A draw needs two players.")
BadSeeds = _refusal("BadSeeds", TournamentRefusal.BAD_SEEDS, "Manual seeds must list the field exactly once.")
BadDrawMethod = _refusal("BadDrawMethod", TournamentRefusal.BAD_DRAW_METHOD, "A draw is random, by rating or manual.")
NotSwiss = _refusal("NotSwiss", TournamentRefusal.NOT_SWISS, "Only Swiss rounds are paired by command.")
NotDrawn = _refusal("NotDrawn", TournamentRefusal.NOT_DRAWN, "The draw has not been made.")
BadRound = _refusal("BadRound", TournamentRefusal.BAD_ROUND, "No such round, or not the one to pair.")
RoundNotFinished = _refusal("RoundNotFinished", TournamentRefusal.ROUND_NOT_FINISHED,
                            "A round is paired once the rounds before it are decided.")
RoundBegun = _refusal("RoundBegun", TournamentRefusal.ROUND_BEGUN, "A round that has begun is not paired again.")
AllRoundsPaired = _refusal("AllRoundsPaired", TournamentRefusal.ALL_ROUNDS_PAIRED, "Every round has been paired.")
BadPairings = _refusal("BadPairings", TournamentRefusal.BAD_PAIRINGS, "Manual pairings that break the Swiss rules.")
PairingImpossible = _refusal("PairingImpossible", TournamentRefusal.PAIRING_IMPOSSIBLE,
                             "The rules leave no pairing (forbidden pairs, rematches).")
UnknownSlot = _refusal("UnknownSlot", TournamentRefusal.UNKNOWN_SLOT, "No slot of that key in this event.")
BadWinner = _refusal("BadWinner", TournamentRefusal.BAD_WINNER, "The winner is not a player of the slot.")
BadScore = _refusal("BadScore", TournamentRefusal.BAD_SCORE, "A score no match of that length ends with.")
SlotNotReady = _refusal("SlotNotReady", TournamentRefusal.SLOT_NOT_READY,
                        "The slot is not being played (waiting, a bye, or decided).")
ReasonRequired = _refusal("ReasonRequired", TournamentRefusal.REASON_REQUIRED, "This decision needs a reason.")
NoResult = _refusal("NoResult", TournamentRefusal.NO_RESULT, "Only a slot with a result can be corrected.")
NotFlagged = _refusal("NotFlagged", TournamentRefusal.NOT_FLAGGED, "Only a flagged match can be kept.")
NoMatch = _refusal("NoMatch", TournamentRefusal.NO_MATCH, "The slot has no match.")
BadEvent = _refusal("BadEvent", TournamentRefusal.BAD_EVENT, "An event's name, format or settings are refused.")
TableTaken = _refusal("TableTaken", TournamentRefusal.TABLE_TAKEN, "Another match in play is at that table.")
TableOutOfService = _refusal("TableOutOfService", TournamentRefusal.TABLE_OUT_OF_SERVICE,
                             "The table is out of service.")
NotLadder = _refusal("NotLadder", TournamentRefusal.NOT_LADDER, "Challenges are a ladder's.")
ChallengeRefused = _refusal("ChallengeRefused", TournamentRefusal.CHALLENGE_REFUSED,
                            "The ladder's rules forbid this challenge (reach, one open challenge each).")
UnknownChallenge = _refusal("UnknownChallenge", TournamentRefusal.UNKNOWN_CHALLENGE,
                            "No open challenge of that number.")
ChallengeBegun = _refusal("ChallengeBegun", TournamentRefusal.CHALLENGE_BEGUN,
                          "A challenge whose match has begun is played out, not declined.")
NoPreviousSeason = _refusal("NoPreviousSeason", TournamentRefusal.NO_PREVIOUS_SEASON,
                            "A next season is drawn from a league event that has divisions.")
NotLeague = _refusal("NotLeague", TournamentRefusal.NOT_LEAGUE, "Divisions are a league's.")
NotStaged = _refusal("NotStaged", TournamentRefusal.NOT_STAGED, "The event has no knockout stage after this one.")
StageNotFinished = _refusal("StageNotFinished", TournamentRefusal.STAGE_NOT_FINISHED,
                            "Stage one closes once all its rounds are paired and decided.")
StageClosed = _refusal("StageClosed", TournamentRefusal.STAGE_CLOSED, "Stage one is closed: its knockout is drawn.")
NoReentry = _refusal("NoReentry", TournamentRefusal.NO_REENTRY,
                     "The event's knockout offers no re-entry, or its draw is not made yet.")
BadMoney = _refusal("BadMoney", TournamentRefusal.BAD_MONEY,
                    "The event's money does not allow this (a lot, a sale, a buy-back, a payee).")
ReentryClosed = _refusal("ReentryClosed", TournamentRefusal.REENTRY_CLOSED, "The director has closed re-entry.")
NotEliminated = _refusal("NotEliminated", TournamentRefusal.NOT_ELIMINATED,
                         "Only a player knocked out of the main bracket re-enters.")
ReentryTooLate = _refusal("ReentryTooLate", TournamentRefusal.REENTRY_TOO_LATE,
                          "The player lost after the last round whose losers may re-enter.")
ReentriesUsed = _refusal("ReentriesUsed", TournamentRefusal.REENTRIES_USED,
                         "The player has re-entered as many times as the director allows.")
NoOpenPlace = _refusal("NoOpenPlace", TournamentRefusal.NO_OPEN_PLACE, "Every place kept for re-entries is taken.")
BadTeam = _refusal("BadTeam", TournamentRefusal.BAD_TEAM,
                   "The team event does not allow this (a team, its players, its line-up, the draw of teams).")
BadProof = _refusal("BadProof", TournamentRefusal.BAD_PROOF,
                    "A match file reported for a slot does not fit it (not online, begun here, other players, "
                    "another length, unfinished, none waiting).")
SettingsFixed = _refusal("SettingsFixed", TournamentRefusal.SETTINGS_FIXED,
                         "The draw is made: the settings that shape it no longer change.")
