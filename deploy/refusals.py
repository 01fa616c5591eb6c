"""The refusals' catalogue: every reason any layer gives, said in the reader's language at the edge.

A refusal is data: a stable ``code`` (what API clients tell apart), a ``reason`` (a member of one of the layers'
reason enums below: exactly which rule) and its ``params`` (names, points, dice; a nested reason is itself a
refusal). Each layer is pure Python and writes its reasons in English (``str(exc)``); a reason's value is its
English template, marked for the translators' catalogue where the layer declares it. Here a refusal is said in the
active language: its template translated, its parameters filled in (a nested refusal said the same way).
A refusal that is a text alone (a library's, Django's) keeps its English for an English reader and gets its
code's general sentence in another language. The code never changes with the language: programs read it, people
read the text.
"""

from __future__ import annotations

from enum import Enum

from django.utils.functional import Promise
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from eventlog.refusals import Reason as LogReason
from games.engine.errors import Reason as EngineReason
from games.errors import Reason as PlatformReason
from players.identity import Reason as MergeReason
from seasons.decider import Reason as SeasonReason
from seasons.scoring import Reason as RuleReason
from tournaments.config import Reason as SettingsReason
from tournaments.formats.core import Reason as FormatReason
from tournaments.refusals import Reason as TournamentReason

# every layer's reasons: the catalogue is their union, one English template per reason
REASONS: tuple[type[Enum], ...] = (LogReason, MergeReason, EngineReason, PlatformReason, FormatReason,
                                    TournamentReason, SettingsReason, SeasonReason, RuleReason)


# each code's general sentence: what a reader of another language than English gets for a refusal that is a text
# alone (a library's, Django's), and the sentence of every code the API declares
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
    "bad_money": _("The event's money does not allow this (a lot, a sale, a buy-back, a payee)."),
    "bad_team": _("The team event does not allow this (a team, its players, its line-up, the draw of teams)."),
    "bad_proof": _("The match file does not fit the slot (not online, begun here, other players, another length, "
                   "unfinished, none waiting)."),
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

# codes whose refusals the service writes through the catalogue itself, already in the reader's language (the
# console's member import gives every line at fault, tournaments/console.py): passed on as they are
SAID_IN_THE_READERS_LANGUAGE = frozenset({"import_refused"})


def catalogue() -> dict[Enum, str]:
    """Every reason of every layer, with its English template."""
    return {reason: reason.value for enum in REASONS for reason in enum}


def said(refusal: Exception, code: str | None = None) -> str:
    """``refusal`` (coded ``code``, else as the API codes it) in the active language."""
    if is_data(refusal) and _said_whole(refusal):
        return _written(refusal)
    if code is None:
        from .api_errors import code_of_refusal  # the API's table of codes, which says refusals with this

        code = code_of_refusal(refusal)
    text = str(refusal) or code
    if (get_language() or "en").split("-")[0] == "en" or code in SAID_IN_THE_READERS_LANGUAGE:
        return text
    general = GENERAL.get(code)
    return str(general) if general is not None else text


def is_data(refusal) -> bool:
    """A refusal that carries its reason and parameters (not only a text)."""
    return isinstance(getattr(refusal, "reason", None), REASONS)


def _said_whole(refusal) -> bool:
    """Every nested refusal is data too (a text only would leave English inside the reader's sentence)."""
    return all(_said_whole(value) if is_data(value) else not isinstance(value, Exception)
               for value in refusal.params.values())


def _written(refusal) -> str:
    params = {name: _written(value) if is_data(value) else value for name, value in refusal.params.items()}
    return gettext(refusal.reason.value) % params
