"""Why the tournament refuses a command: one exception per reason, each with a stable code.

Pure Python. A client tells "not entered" from "check-in closed" by ``code`` (the API's error handler
puts ``exc.code`` in the body), never by parsing the text, which is for people. Every refusal but
:class:`NotPermitted` is a :class:`TournamentError`, a ``ValueError``: HTTP 400. ``NotPermitted`` is the
decider's "you may not" (HTTP 403): the service raises it as Django's ``PermissionDenied``.
"""

from __future__ import annotations

from enum import StrEnum


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


class Refused(Exception):
    """A command the tournament does not take; ``code`` says why, the text says it to a person."""

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
ReentryClosed = _refusal("ReentryClosed", TournamentRefusal.REENTRY_CLOSED, "The director has closed re-entry.")
NotEliminated = _refusal("NotEliminated", TournamentRefusal.NOT_ELIMINATED,
                         "Only a player knocked out of the main bracket re-enters.")
ReentryTooLate = _refusal("ReentryTooLate", TournamentRefusal.REENTRY_TOO_LATE,
                          "The player lost after the last round whose losers may re-enter.")
ReentriesUsed = _refusal("ReentriesUsed", TournamentRefusal.REENTRIES_USED,
                         "The player has re-entered as many times as the director allows.")
NoOpenPlace = _refusal("NoOpenPlace", TournamentRefusal.NO_OPEN_PLACE, "Every place kept for re-entries is taken.")
SettingsFixed = _refusal("SettingsFixed", TournamentRefusal.SETTINGS_FIXED,
                         "The draw is made: the settings that shape it no longer change.")
