"""The API's refusals in the reader's language: the engine's, the tournament's and the platform's reasons translated
by their stable code, at the API layer.

The engine (``games.engine.errors``) and the tournament's decider (``tournaments.refusals``) are pure Python: they
raise their reasons in English, with the player's names, points and dice in the text. Here each reason is read back
against the patterns of its code; a match gives the translated sentence with the same names and numbers (a nested
reason, such as why a move is not legal, is translated the same way). A reason no pattern reads gets its code's
general sentence, so a French reader never gets English. In English, nothing changes: the text clients always got.
The code itself never changes: programs read it, people read the text.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from django.utils.functional import Promise
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Pattern(NamedTuple):
    regex: re.Pattern
    text: Promise | str  # a translatable sentence with %(group)s for each group of the regex


# a reason that is only a nested part (what the game waits for): the part's own sentence
PART_ONLY = "%(part)s"


def _p(regex: str, text: Promise | str) -> Pattern:
    return Pattern(re.compile(regex, re.DOTALL), text)


NAME = r"(?P<name>.+?)"
OTHER = r"(?P<other>.+?)"

# what a player cannot do out of turn (games/engine/match.py's _check_turn)
ACTIONS = {"roll": pgettext_lazy("cannot …", "roll"), "move": pgettext_lazy("cannot …", "move"),
           "double": pgettext_lazy("cannot …", "double")}
KINDS = {"single game": _("single game"), "gammon": _("gammon"), "backgammon": _("backgammon")}
# where a slot of an event stands (tournaments/formats/core.py's SlotStatus)
STATUSES = {"waiting": pgettext_lazy("slot", "waiting for its players"), "ready": pgettext_lazy("slot", "ready"),
            "bye": pgettext_lazy("slot", "a bye"), "done": pgettext_lazy("slot", "decided")}

# the part of a reason that other reasons embed: why a move is not legal, what the game is waiting for
PARTS: list[Pattern] = [
    _p(r"waiting for (?P<name>.+?) to answer the double", _("waiting for %(name)s to answer the double")),
    _p(r"waiting for (?P<name>.+?) to answer the resignation", _("waiting for %(name)s to answer the resignation")),
    _p(r"waiting for (?P<name>.+?) to move", _("waiting for %(name)s to move")),
    _p(r"waiting for (?P<name>.+?) to roll", _("waiting for %(name)s to roll")),
    _p(r"game (?P<n>\d+) starts with the opening roll", _("game %(n)s starts with the opening roll")),
    _p(r"checkers move from higher to lower points", _("checkers move from higher to lower points")),
    _p(r"you have no checker on the bar", _("you have no checker on the bar")),
    _p(r"you have no checker on the (?P<n>\d+) point", _("you have no checker on the %(n)s point")),
    _p(r"the (?P<n>\d+) point is closed", _("the %(n)s point is closed")),
    _p(r"there is no blot to hit on the (?P<n>\d+) point", _("there is no blot to hit on the %(n)s point")),
    _p(r"a checker on the bar must enter first", _("a checker on the bar must enter first")),
    _p(r"a (?P<die>\d) bears off from a lower point only when no checker stands on a higher point "
       r"\(one is on the (?P<n>\d+) point\)",
       _("a %(die)s bears off from a lower point only when no checker stands on a higher point "
         "(one is on the %(n)s point)")),
    _p(r"no die of the roll (?P<d1>\d)-(?P<d2>\d) moves 1 pip", _("no die of the roll %(d1)s-%(d2)s moves 1 pip")),
    _p(r"no die of the roll (?P<d1>\d)-(?P<d2>\d) moves (?P<n>\d+) pips",
       _("no die of the roll %(d1)s-%(d2)s moves %(n)s pips")),
    _p(r"bearing off needs all fifteen checkers in the home board \(one is on the (?P<n>\d+) point\)",
       _("bearing off needs all fifteen checkers in the home board (one is on the %(n)s point)")),
    _p(r"the roll (?P<d1>\d)-(?P<d2>\d) has no legal play; the turn passes",
       _("the roll %(d1)s-%(d2)s has no legal play; the turn passes")),
    _p(r"all of the roll must be played \((?P<n>\d) dice can be played\)",
       _("all of the roll must be played (%(n)s dice can be played)")),
    _p(r"(?P<n>\d) dice can be played, so (?P=n) must be", _("%(n)s dice can be played, so %(n)s must be")),
    _p(r"only one die can be played, and the higher \((?P<die>\d)\) must be played when possible",
       _("only one die can be played, and the higher (%(die)s) must be played when possible")),
    _p(r"it does not match any legal play for this roll", _("it does not match any legal play for this roll")),
]

PATTERNS: dict[str, list[Pattern]] = {
    # the engine (games/engine/moves.py, match.py)
    "illegal_move": [
        _p(r"(?P<move>.+?) is not legal: (?P<part>.+)", _("%(move)s is not legal: %(part)s")),
        _p(r"the roll (?P<d1>\d)-(?P<d2>\d) can be played \(e\.g\. (?P<move>.+)\); the turn cannot be passed",
           _("the roll %(d1)s-%(d2)s can be played (e.g. %(move)s); the turn cannot be passed")),
        _p(r"dice must be 1 to 6, got (?P<d1>-?\d+)-(?P<d2>-?\d+)", _("dice must be 1 to 6, got %(d1)s-%(d2)s")),
    ],
    "not_your_turn": [
        _p(rf"it is {NAME}'s turn, {OTHER} cannot (?P<action>roll|move|double)",
           _("it is %(name)s's turn, %(other)s cannot %(action)s")),
        _p(rf"{NAME} must answer the double", _("%(name)s must answer the double")),
        _p(r"you cannot answer your own double", _("you cannot answer your own double")),
        _p(r"you cannot answer your own resignation", _("you cannot answer your own resignation")),
        _p(r"player must be 0 or 1, not (?P<value>.+)", _("player must be 0 or 1, not %(value)s")),
    ],
    "cube_not_available": [
        _p(r"you can double only before rolling", _("you can double only before rolling")),
        _p(r"no doubling in the Crawford game", _("no doubling in the Crawford game")),
        _p(rf"{NAME} owns the cube", _("%(name)s owns the cube")),
        _p(r"the cube is dead: you need 1 point and the cube already gives (?P<cube>\d+)",
           _("the cube is dead: you need 1 point and the cube already gives %(cube)s")),
        _p(r"the cube is dead: you need (?P<need>\d+) points and the cube already gives (?P<cube>\d+)",
           _("the cube is dead: you need %(need)s points and the cube already gives %(cube)s")),
        _p(r"the cube cannot go above (?P<limit>\d+)", _("the cube cannot go above %(limit)s")),
        _p(r"beavers are not allowed in this match", _("beavers are not allowed in this match")),
        _p(r"a beaver answers a double; a raccoon answers a beaver",
           _("a beaver answers a double; a raccoon answers a beaver")),
        _p(r"a raccoon answers a beaver", _("a raccoon answers a beaver")),
        _p(r"raccoons are not allowed in this session", _("raccoons are not allowed in this session")),
        _p(r"only (?P<n>\d+) redoubles may follow a double in this session",
           _("only %(n)s redoubles may follow a double in this session")),
        _p(r"(?P<part>waiting for .+|game \d+ starts with the opening roll)", PART_ONLY),
    ],
    "invalid_action": [
        _p(r"the match has not started", _("the match has not started")),
        _p(r"the match has already started", _("the match has already started")),
        _p(r"a match needs two different, named players", _("a match needs two different, named players")),
        _p(r"the match length cannot be negative", _("the match length cannot be negative")),
        _p(r"a match is played to an odd number of points; (?P<n>\d+) is even",
           _("a match is played to an odd number of points; %(n)s is even")),
        _p(r"Jacoby, beavers, raccoons and automatic doubles are for money sessions only",
           _("Jacoby, beavers, raccoons and automatic doubles are for money sessions only")),
        _p(r"raccoons need beavers to be allowed", _("raccoons need beavers to be allowed")),
        _p(r"the cube limit must be a power of two, 2 or more", _("the cube limit must be a power of two, 2 or more")),
        _p(r"the initial score must be below the match length", _("the initial score must be below the match length")),
        _p(r"dice are two numbers from 1 to 6, not (?P<value>.+)", _("dice are two numbers from 1 to 6, not %(value)s")),
        _p(r"the dice are already rolled: play them", _("the dice are already rolled: play them")),
        _p(r"roll the dice before moving", _("roll the dice before moving")),
        _p(r"no double has been offered", _("no double has been offered")),
        _p(r"no resignation has been offered", _("no resignation has been offered")),
        _p(r"resign a single, gammon or backgammon, not (?P<value>.+)",
           _("resign a single, gammon or backgammon, not %(value)s")),
        _p(r"a resignation cannot be offered now: (?P<part>.+)", _("a resignation cannot be offered now: %(part)s")),
        _p(rf"{NAME} has already declined your offer of a (?P<kind>single game|gammon|backgammon); "
           r"offer more, or play on",
           _("%(name)s has already declined your offer of a %(kind)s; offer more, or play on")),
        _p(r"(?P<part>waiting for .+|game \d+ starts with the opening roll)", PART_ONLY),
    ],
    # a stale version sent with an event's command (tournaments/services.py): the version sent, the event's now
    "stale_version": [
        _p(r"the event has changed: you sent version (?P<sent>\d+) but it is at version (?P<now>\d+); "
           r"reload and try again",
           _("the event has changed: you sent version %(sent)s but it is at version %(now)s; reload and try again")),
        _p(r"the event has changed: it is at version (?P<now>\d+); reload and try again",
           _("the event has changed: it is at version %(now)s; reload and try again")),
    ],
    "match_over": [
        _p(rf"the match is over: {NAME} won (?P<a>\d+)-(?P<b>\d+)", _("the match is over: %(name)s won %(a)s-%(b)s")),
    ],
    # the platform (games/services.py)
    "bad_command": [
        _p(r"'expected_version' \(the version of the match you are looking at\) is required",
           _("'expected_version' (the version of the match you are looking at) is required")),
        _p(r"this match uses server dice: send the roll without 'dice' and the server rolls",
           _("this match uses server dice: send the roll without 'dice' and the server rolls")),
        _p(r"this match's dice come from the board: send the numbers rolled as 'dice', e\.g\. \[3, 1\]",
           _("this match's dice come from the board: send the numbers rolled as 'dice', e.g. [3, 1]")),
        _p(r"a director's correction or void needs a 'reason'", _("a director's correction or void needs a 'reason'")),
        _p(r"this match is not an import waiting for confirmation",
           _("this match is not an import waiting for confirmation")),
        _p(r"'player' is 0 or 1", _("'player' is 0 or 1")),
        _p(r"'winner' is 0 or 1", _("'winner' is 0 or 1")),
        _p(r"'move' is a play of at most (?P<n>\d+) characters, e\.g\. \"24/18 13/11\*\"",
           _("'move' is a play of at most %(n)s characters, e.g. \"24/18 13/11*\"")),
        _p(r"'move' is the play in gnubg notation, e\.g\. \"24/18 13/11\*\" \(\"\" when no play\)",
           _("'move' is the play in gnubg notation, e.g. \"24/18 13/11*\" (\"\" when no play)")),
        _p(r"'dice' is two numbers from 1 to 6, e\.g\. \[3, 1\], or absent for server dice",
           _("'dice' is two numbers from 1 to 6, e.g. [3, 1], or absent for server dice")),
        _p(r"'reason' is at most (?P<n>\d+) characters", _("'reason' is at most %(n)s characters")),
        _p(r"'score' is the final score of both players, e\.g\. \[7, 4\]",
           _("'score' is the final score of both players, e.g. [7, 4]")),
        _p(r"in a (?P<n>\d+)-point match the winner has at least (?P=n) points and the loser fewer",
           _("in a %(n)s-point match the winner has at least %(n)s points and the loser fewer")),
        _p(r"a final score is at most (?P<m>\d+) points here", _("a final score is at most %(m)s points here")),
        _p(r"this record has already been imported \(match (?P<match>.+)\)",
           _("this record has already been imported (match %(match)s)")),
        _p(r"this is not a \.mat text file \(it contains binary data\)",
           _("this is not a .mat text file (it contains binary data)")),
        _p(r"unknown player id", _("unknown player id")),
        _p(r"a command is a JSON object with a 'type'", _("a command is a JSON object with a 'type'")),
        # the tournament's decider (tournaments/decider.py): refusals without a code of their own
        _p(r"'expected_version' is the event's version number", _("'expected_version' is the event's version number")),
    ],
    # the address handlers (deploy/urls.py)
    "not_found": [_p(r"no such address: (?P<path>.+)", _("no such address: %(path)s"))],
    "too_large": [_p(r"the request body is larger than (?P<n>[\d.]+) MB", _("the request body is larger than %(n)s MB"))],
    # a big match record's import (games/imports.py)
    "import_under_way": [
        _p(r"your import (?P<job>\d+) is still being judged; send the next one once it is done",
           _("your import %(job)s is still being judged; send the next one once it is done"))],
    "import_budget_spent": [
        _p(r"an import may bring (?P<n>\d+) games an hour; this record of (?P<games>\d+) games must wait "
           r"(?P<s>\d+) s",
           _("an import may bring %(n)s games an hour; this record of %(games)s games must wait %(s)s s"))],
    # the tournament (tournaments/decider.py)
    "unknown_command": [_p(r"unknown command (?P<value>\w+)", _("unknown command %(value)s"))],
    "unknown_player": [_p(r"'player' is the id of a player", _("'player' is the id of a player"))],
    "already_entered": [_p(r"already entered", _("already entered"))],
    "event_full": [_p(r"a member's casual event takes at most (?P<n>\d+) players",
                      _("a member's casual event takes at most %(n)s players"))],
    "late_entry_closed": [
        _p(r"the draw is made: only a Swiss event takes late entries",
           _("the draw is made: only a Swiss event takes late entries")),
        _p(r"this Swiss event takes no late entries: its settings name no round for them",
           _("this Swiss event takes no late entries: its settings name no round for them")),
        _p(r"late entry closed: round (?P<n>\d+), the last a late entrant may join, has been paired",
           _("late entry closed: round %(n)s, the last a late entrant may join, has been paired")),
        _p(r"stage one is closed: its knockout is drawn", _("stage one is closed: its knockout is drawn")),
    ],
    "settings_fixed": [
        _p(r"stage one is closed: its number of rounds no longer changes",
           _("stage one is closed: its number of rounds no longer changes")),
        _p(r"round (?P<n>\d+) has been paired: the event has at least (?P<m>\d+) rounds",
           _("round %(n)s has been paired: the event has at least %(m)s rounds")),
    ],
    "not_entered": [_p(r"the player has not entered", _("the player has not entered"))],
    "check_in_closed": [_p(r"check-in closes with the draw", _("check-in closes with the draw"))],
    "not_in_event": [_p(r"the player is not in the event", _("the player is not in the event"))],
    "already_drawn": [_p(r"the draw has been made", _("the draw has been made"))],
    "field_too_small": [_p(r"the draw needs at least two checked-in players",
                           _("the draw needs at least two checked-in players"))],
    "not_drawn": [_p(r"make the draw first: it pairs round 1", _("make the draw first: it pairs round 1"))],
    "round_not_finished": [
        _p(r"round (?P<n>\d+) is not finished: pair round (?P<m>\d+) once it is",
           _("round %(n)s is not finished: pair round %(m)s once it is")),
        _p(r"round (?P<n>\d+) is not finished", _("round %(n)s is not finished")),
    ],
    "round_begun": [_p(r"round (?P<n>\d+) has begun: it can no longer be paired again",
                       _("round %(n)s has begun: it can no longer be paired again"))],
    "bad_seeds": [_p(r"'seeds' must list every checked-in player exactly once",
                     _("'seeds' must list every checked-in player exactly once"))],
    "bad_draw_method": [_p(r"method is random, rating or manual", _("method is random, rating or manual"))],
    "not_swiss": [_p(r"only Swiss rounds are paired; brackets and round robins follow their draw",
                     _("only Swiss rounds are paired; brackets and round robins follow their draw"))],
    "bad_round": [
        _p(r"'round' is a round number of this event, from 1 to (?P<n>\d+)",
           _("'round' is a round number of this event, from 1 to %(n)s")),
        _p(r"round (?P<n>\d+) is the last one paired: pair round (?P<m>\d+) next",
           _("round %(n)s is the last one paired: pair round %(m)s next")),
    ],
    "bad_pairings": [
        _p(r"a manual pairing must place every active player exactly once",
           _("a manual pairing must place every active player exactly once")),
        _p(r"a bye only when the number of players is odd, and one at most",
           _("a bye only when the number of players is odd, and one at most")),
        _p(r"player (?P<a>\d+) has had a bye already", _("player %(a)s has had a bye already")),
        _p(r"players (?P<a>\d+) and (?P<b>\d+) may not be paired", _("players %(a)s and %(b)s may not be paired")),
        _p(r"players (?P<a>\d+) and (?P<b>\d+) have met already: no rematch in a Swiss event",
           _("players %(a)s and %(b)s have met already: no rematch in a Swiss event")),
    ],
    "pairing_impossible": [
        _p(r"round (?P<n>\d+): no pairing of (?P<m>\d+) players avoids the forbidden pairings",
           _("round %(n)s: no pairing of %(m)s players avoids the forbidden pairings")),
    ],
    "unknown_slot": [_p(r"no slot (?P<value>.+) in this event", _("no match %(value)s in this event"))],
    "slot_not_ready": [
        _p(r"(?P<value>\S+) is (?P<status>waiting|ready|bye|done): report a result only for a match being played",
           _("%(value)s is %(status)s: report a result only for a match being played")),
        _p(r"a forfeit is for a match that is due and not decided",
           _("a forfeit is for a match that is due and not decided")),
    ],
    "not_flagged": [_p(r"only a flagged match can be kept", _("only a flagged match can be kept"))],
    "no_match": [_p(r"no match was created for that slot", _("no match was created for that slot"))],
    "bad_event": [
        _p(r"format is one of (?P<value>.+)", _("format is one of %(value)s")),
        _p(r"an event's name is 1 to (?P<n>\d+) characters", _("an event's name is 1 to %(n)s characters")),
    ],
    # events in stages and re-entry (tournaments/decider.py)
    "not_staged": [_p(r"this event has no knockout stage: set 'qualifiers' when creating it",
                      _("this event has no knockout stage: set 'qualifiers' when creating it"))],
    "stage_closed": [_p(r"stage one is closed already: its knockout is drawn",
                        _("stage one is closed already: its knockout is drawn"))],
    "stage_not_finished": [
        _p(r"round (?P<n>\d+) of (?P<m>\d+) is the last paired", _("round %(n)s of %(m)s is the last paired")),
        _p(r"(?P<n>\d+) match\(es\) of stage one undecided, e\.g\. (?P<value>.+)",
           _("%(n)s match(es) of stage one undecided, e.g. %(value)s")),
    ],
    "no_reentry": [_p(r"this event's knockout offers no re-entry, or it is not drawn yet",
                      _("this event's knockout offers no re-entry, or it is not drawn yet"))],
    "reentry_closed": [_p(r"the director has closed re-entry", _("the director has closed re-entry"))],
    "not_eliminated": [_p(r"only a player knocked out of the main bracket re-enters",
                          _("only a player knocked out of the main bracket re-enters"))],
    "reentry_too_late": [_p(r"re-entry is for the losers of round (?P<n>\d+) or earlier; the player lost in round "
                            r"(?P<m>\d+)",
                            _("re-entry is for the losers of round %(n)s or earlier; the player lost in round %(m)s"))],
    "reentries_used": [_p(r"a player may re-enter (?P<n>\d+) time\(s\)", _("a player may re-enter %(n)s time(s)"))],
    "no_open_place": [_p(r"every place kept for re-entries is taken", _("every place kept for re-entries is taken"))],
    "all_rounds_paired": [_p(r"all rounds have been paired", _("all rounds have been paired"))],
    # the tables of an evening (tournaments/decider.py)
    "table_out_of_service": [_p(r"table (?P<n>\S+) is out of service", _("table %(n)s is out of service"))],
    "table_taken": [_p(r"table (?P<n>\S+) is taken by the match (?P<value>.+)",
                       _("table %(n)s is taken by the match %(value)s"))],
    # seasons and series (seasons/decider.py)
    "bad_date": [_p(r"'(?P<value>\w+)' is a date, YYYY-MM-DD", _("'%(value)s' is a date, YYYY-MM-DD"))],
    "already_in_season": [_p(r"this event is in the season already", _("this event is in the season already"))],
    "not_in_season": [_p(r"this event is not in the season", _("this event is not in the season"))],
    "season_full": [
        _p(r"a season holds at most (?P<n>\d+) events", _("a season holds at most %(n)s events")),
        _p(r"a season keeps at most (?P<n>\d+) rule versions", _("a season keeps at most %(n)s rule versions")),
    ],
    "bad_winner": [_p(r"the winner must be one of the slot's players (?P<value>.+)",
                      _("the winner must be one of the slot's players %(value)s"))],
    "bad_score": [
        _p(r"in a (?P<n>\d+)-point match the winner has (?P=n) points or more, the loser fewer",
           _("in a %(n)s-point match the winner has %(n)s points or more, the loser fewer")),
        _p(r"a (?P<n>\d+)-point match ends with at most (?P<m>\d+) points",
           _("a %(n)s-point match ends with at most %(m)s points")),
        _p(r"'score' is required: \[winner's points, loser's points\]",
           _("'score' is required: [winner's points, loser's points]")),
    ],
    "reason_required": [_p(r"a correction needs a 'reason'", _("a correction needs a 'reason'"))],
    "no_result": [_p(r"correct a slot that has a result", _("correct a slot that has a result"))],
    "permission_denied": [
        _p(r"only the event's director or an official may do this",
           _("only the event's director or an official may do this")),
        _p(r"you may enter only yourself", _("you may enter only yourself")),
        _p(r"only the two players of the match confirm its result",
           _("only the two players of the match confirm its result")),
        _p(r"log in to create an event", _("log in to create an event")),
        _p(r"only officials, and a club's directors under its name, may create events",
           _("only officials, and a club's directors under its name, may create events")),
        _p(r"only the directors of (?P<club>.+) and officials may create events under its name",
           _("only the directors of %(club)s and officials may create events under its name")),
        _p(r"only the event's director or an official may publish or hide it",
           _("only the event's director or an official may publish or hide it")),
        _p(r"only the event's director or an official may add matches to it",
           _("only the event's director or an official may add matches to it")),
        _p(r"you may not do this", _("You may not do this.")),
    ],
}

# each code's general sentence: for a reason no pattern reads (the engine's and the tournament's enums, the
# platform's, the address handlers' of deploy/urls.py)
GENERAL: dict[str, Promise] = {
    "engine_error": _("The rules do not allow this."),
    "illegal_move": _("This move is not legal."),
    "not_your_turn": _("It is not your turn."),
    "cube_not_available": _("The cube cannot be turned now."),
    "invalid_action": _("This does not fit the state of the game."),
    "match_over": _("The match is over: nothing more can be played."),
    "invalid_position": _("This position cannot occur in backgammon."),
    "notation_error": _("This text cannot be read as a move, an ID or a file."),
    "invalid_mat_file": _("This .mat file cannot be read."),
    "bad_command": _("The command cannot be read: a field is missing or malformed."),
    "not_found": _("Not found."),
    "not_representable": _("This cannot be written in that notation."),
    "permission_denied": _("You may not do this."),
    "not_permitted": _("You may not do this."),
    "stale_version": _("Someone acted before you: reload and try again."),
    "bad_idempotency_key": _("The Idempotency-Key header is malformed."),
    "idempotency_key_reused": _("This Idempotency-Key was used for another request."),
    "unknown_command": _("No such command."),
    "unknown_player": _("No player has that id."),
    "already_entered": _("The player is in the event already."),
    "event_full": _("The event has its largest field."),
    "late_entry_closed": _("The draw is made and the event takes no (more) late entries."),
    "not_entered": _("The player has not entered."),
    "check_in_closed": _("Check-in closes with the draw."),
    "not_in_event": _("The player is not (or no longer) in the event."),
    "already_drawn": _("The draw has been made."),
    "field_too_small": _("A draw needs two players."),
    "bad_seeds": _("Manual seeds must list the field exactly once."),
    "bad_draw_method": _("A draw is random, by rating or manual."),
    "not_swiss": _("Only Swiss rounds are paired by command."),
    "not_drawn": _("The draw has not been made."),
    "bad_round": _("No such round, or not the one to pair."),
    "round_not_finished": _("A round is paired once the rounds before it are decided."),
    "round_begun": _("A round that has begun is not paired again."),
    "all_rounds_paired": _("Every round has been paired."),
    "bad_pairings": _("Manual pairings that break the Swiss rules."),
    "pairing_impossible": _("The rules leave no pairing (forbidden pairs, rematches)."),
    "unknown_slot": _("No match of that key in this event."),
    "bad_winner": _("The winner is not a player of the match."),
    "bad_score": _("A score no match of that length ends with."),
    "slot_not_ready": _("The match is not being played (waiting, a bye, or decided)."),
    "reason_required": _("This decision needs a reason."),
    "no_result": _("Only a match with a result can be corrected."),
    "not_flagged": _("Only a flagged match can be kept."),
    "no_match": _("The slot has no match."),
    "bad_event": _("An event's name, format or settings are refused."),
    "not_staged": _("The event has no knockout stage after this one."),
    "stage_not_finished": _("Stage one closes once all its rounds are paired and decided."),
    "stage_closed": _("Stage one is closed: its knockout is drawn."),
    "no_reentry": _("The event's knockout offers no re-entry, or its draw is not made yet."),
    "reentry_closed": _("The director has closed re-entry."),
    "not_eliminated": _("Only a player knocked out of the main bracket re-enters."),
    "reentry_too_late": _("The player lost after the last round whose losers may re-enter."),
    "reentries_used": _("The player has re-entered as many times as the director allows."),
    "no_open_place": _("Every place kept for re-entries is taken."),
    "table_taken": _("Another match in play is at that table."),
    "table_out_of_service": _("The table is out of service."),
    "nothing_to_undo": _("Nothing to undo."),
    "bad_season_command": _("The season command cannot be read: a field is missing or malformed."),
    "already_in_season": _("The event is in the season already."),
    "not_in_season": _("The event is not in the season."),
    "bad_rule": _("The season's scoring rule is refused."),
    "bad_date": _("A date is written YYYY-MM-DD."),
    "season_full": _("The season holds as many events or rule versions as it may."),
    "not_ladder": _("Challenges are a ladder's."),
    "challenge_refused": _("The ladder's rules forbid this challenge (reach, one open challenge each)."),
    "unknown_challenge": _("No open challenge of that number."),
    "challenge_begun": _("A challenge whose match has begun is played out, not declined."),
    "no_previous_season": _("A next season is drawn from a league event that has divisions."),
    "settings_fixed": _("The draw is made: the settings that shape it no longer change."),
    "not_league": _("Divisions are a league's."),
    "too_large": _("The request body is too large."),
    "bad_request": _("The request could not be read."),
    "server_error": _("The server failed while answering; it is logged. Retry the request with the same "
                      "Idempotency-Key: it is applied at most once."),
    "import_under_way": _("Your previous import is still being judged: send the next one once it is done."),
    "import_budget_spent": _("Your imports have brought as many games as an hour allows: try again later."),
    "same_person": _("Lines name members of the club by their name alone: say for each whether it is the same "
                     "person; nothing was imported."),
}

# codes whose reasons the service writes through the catalogue itself, already in the reader's language (the
# console's member import gives every line at fault, tournaments/console.py): passed on as they are
SAID_IN_THE_READERS_LANGUAGE = frozenset({"import_refused"})


def translated(code: str, detail: str) -> str:
    """``detail`` (the English reason of a refusal coded ``code``) in the active language."""
    if (get_language() or "en").split("-")[0] == "en" or code in SAID_IN_THE_READERS_LANGUAGE:
        return detail
    sentence = _read(PATTERNS.get(code, ()), detail)
    if sentence is None:
        general = GENERAL.get(code)
        return str(general) if general is not None else detail
    return sentence


def _read(patterns, detail: str) -> str | None:
    for pattern in patterns:
        found = pattern.regex.fullmatch(detail)
        if found:
            groups = {key: _group(key, value) for key, value in found.groupdict().items()}
            if None not in groups.values():  # a nested reason read by no pattern: the code's general sentence
                return str(pattern.text) % groups
    return None


def _group(key: str, value: str) -> str | None:
    if key == "part":
        return _read(PARTS, value)
    if key == "action":
        return str(ACTIONS[value])
    if key == "kind":
        return str(KINDS[value])
    if key == "status":
        return str(STATUSES[value])
    return value
