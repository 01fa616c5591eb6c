"""The refusals' catalogue: every reason of every layer is said in English and in French with all its parameters,
and the refusals the layers give are data (a reason and parameters), never a sentence to read back."""

from __future__ import annotations

import random
import re
from functools import reduce
from pathlib import Path

import polib
import pytest
from django.utils import translation

from deploy import refusals

PO = Path(__file__).resolve().parents[2] / "deploy" / "locale" / "fr" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


class Sample:
    """A refusal of ``reason`` with a value for each of its template's placeholders (a nested reason for ``why``)."""

    def __init__(self, reason):
        self.reason = reason
        nested = next(r for r in refusals.catalogue() if not PLACEHOLDER.search(r.value))
        self.params = {name: Nested(nested) if name == "why" else "7" for name in PLACEHOLDER.findall(reason.value)}


class Nested(Sample):
    pass


def test_every_reason_of_the_catalogue_is_said_in_english_and_in_french_with_every_placeholder_filled():
    french_of = {entry.msgid: entry.msgstr for entry in polib.pofile(str(PO)) if not entry.msgctxt}
    reasons = refusals.catalogue()
    assert len(reasons) > 60
    for reason, template in reasons.items():
        refusal = Sample(reason)
        assert refusals.is_data(refusal)
        with translation.override("en"):
            english = refusals.said(refusal, "any_code")
        with translation.override("fr"):
            french = refusals.said(refusal, "any_code")
        assert english == template % {k: str(v) if not isinstance(v, Sample) else v.reason.value % v.params
                                      for k, v in refusal.params.items()}, reason
        assert french_of.get(template), f"{reason.name}: no French for {template!r}"
        assert "%(" not in english and "%(" not in french, reason
        if french_of[template] != template:
            assert french != english, reason


def test_a_nested_reason_is_said_in_the_readers_language_with_its_own_parameters():
    from games.engine import IllegalMove, Reason

    refused = IllegalMove(Reason.NOT_LEGAL, move="8/5", why=IllegalMove(Reason.POINT_CLOSED, point=5))
    assert str(refused) == "8/5 is not legal: the 5 point is closed"
    with translation.override("fr"):
        assert refusals.said(refused, refused.code) == "8/5 n'est pas légal : la case 5 est fermée"


def test_the_engines_refusals_of_random_moves_are_all_data_said_in_french():
    """Thousands of illegal moves, in positions of random games (bar, bear-off, closed points, blots): each refusal
    carries its reason and nested fault, and is said in French without a placeholder left."""
    from games.engine import IllegalMove, Position, format_move, legal_moves, play

    rnd, refused = random.Random(17), {}
    for _ in range(40):
        position = Position.start()
        for _ in range(200):
            dice = (rnd.randint(1, 6), rnd.randint(1, 6))
            for _ in range(4):
                steps = [(rnd.randint(1, 25), rnd.randint(0, 24)) for _ in range(rnd.randint(1, 4))]
                for move in (" ".join(f"{s}/{t}" for s, t in steps), format_move([s for s in steps if s[0] > s[1]])):
                    try:
                        play(position, dice, move)
                    except IllegalMove as refusal:
                        refused[str(refusal)] = refusal
                    except Exception:  # text the notation cannot read: not the engine's judgement of a move
                        pass
            plays = legal_moves(position, dice)
            try:
                play(position, dice, "")
            except IllegalMove as refusal:
                refused[str(refusal)] = refusal
            position = rnd.choice(plays).position if plays else position
            if position.mine[0] == 15:  # all fifteen borne off: the game is over
                break
            position = position.swap()
    assert len(refused) > 200
    reasons = {refusal.params["why"].reason for refusal in refused.values() if "why" in refusal.params}
    assert len(reasons) >= 8
    with translation.override("fr"):
        for english, refusal in refused.items():
            french = refusals.said(refusal, refusal.code)
            assert refusals.is_data(refusal) and french != english and "%(" not in french, english


def test_the_engines_refusals_of_random_match_commands_are_all_data_said_in_french():
    """Random commands sent to random matches (lengths, money sessions with beavers and raccoons, cube limits, out
    of turn, out of phase, after the end): every refusal carries its reason and is said in French."""
    from games.engine import EngineError, legal_moves
    from games.engine import commands as cmd
    from games.engine.match import MatchState, decide, evolve

    rnd, refused = random.Random(7), []

    def attempt(state, command):
        try:
            return reduce(evolve, decide(state, command), state)
        except EngineError as refusal:
            refused.append(refusal)
            return state

    for n in range(150):
        money = n % 3 == 0
        start = cmd.StartMatch(("Ann", "Ben"), rnd.choice([0] if money else [-1, 1, 3, 4, 5, 7]),
                               beavers=money and rnd.random() < 0.7, raccoons=money and rnd.random() < 0.4,
                               jacoby=rnd.random() < 0.2, cube_limit=rnd.choice([0, 0, 3, 4, 64]),
                               initial_score=rnd.choice([(0, 0), (0, 0), (2, 1), (9, 0)]))
        state = attempt(MatchState(), start)
        for _ in range(400):
            player = rnd.choice([0, 1, 1 - state.turn, state.turn, state.turn, 2])
            dice = (rnd.randint(1, 6), rnd.randint(1, 6))
            plays = legal_moves(state.position, state.dice) if state.dice else []
            command = rnd.choice([
                cmd.Roll(player, dice), cmd.Roll(player, (0, 9)), cmd.Roll(state.turn, dice),
                cmd.Move(state.turn, rnd.choice(plays) if plays else ""), cmd.Move(player, "24/20"),
                cmd.Double(player), cmd.Double(state.turn), cmd.Take(player), cmd.Drop(player),
                cmd.Take(1 - state.turn), cmd.Beaver(player), cmd.Raccoon(player),
                cmd.Resign(player, rnd.choice(["single", "gammon", "backgammon", "triple"])),
                cmd.AcceptResignation(player), cmd.DeclineResignation(player), cmd.StartMatch(("Ann", "Ben"), 3)])
            state = attempt(state, command)
    assert len({refusal.reason for refusal in refused}) > 25 and len({refusal.code for refusal in refused}) >= 4
    with translation.override("fr"):
        for refusal in refused:
            french = refusals.said(refusal, refusal.code)
            assert refusals.is_data(refusal) and french != str(refusal) and "%(" not in french, str(refusal)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_refusal_given_as_text_only_keeps_its_english_and_gets_its_codes_sentence_in_french(language):
    with translation.override(language):
        said = refusals.said(ValueError("a reason the engine may give one day"), "illegal_move")
    assert said == {"en": "a reason the engine may give one day", "fr": "Ce coup n'est pas légal."}[language]


def test_every_code_of_every_refusal_enum_has_its_general_sentence_in_french():
    """A code added to the engine's, the platform's, the tournament's or the season's enum, or the console's own,
    gets its general French sentence with it: a refusal given as a text alone never reaches a French reader in
    English."""
    from games.engine.errors import ErrorCode
    from games.errors import PlatformErrorCode
    from seasons.decider import SeasonRefusal
    from tournaments.console import NothingToUndo
    from tournaments.refusals import TournamentRefusal

    codes = {str(c) for enum in (ErrorCode, PlatformErrorCode, TournamentRefusal, SeasonRefusal) for c in enum}
    codes.add(NothingToUndo.code)
    assert sorted(codes - set(refusals.GENERAL)) == []
    with translation.override("fr"):
        for code in codes:
            assert refusals.said(ValueError("an English reason"), code) != "an English reason", code


def test_every_refusal_code_the_api_declares_has_its_general_sentence():
    from deploy import api_errors

    drf_own = {"authentication_failed", "not_authenticated", "method_not_allowed", "not_acceptable",
               "unsupported_media_type", "throttled", "parse_error", "invalid", "error", "permission_denied",
               "not_found"}  # Django REST framework's, translated by its own French catalogue
    missing = set(api_errors.known_codes()) - set(refusals.GENERAL) - drf_own - refusals.SAID_IN_THE_READERS_LANGUAGE
    assert missing == set()


def test_every_reason_enum_of_the_project_is_in_the_catalogue():
    """Each layer declares its reasons in an enum named ``Reason``: every one the apps define is one the catalogue
    says, so no refusal raised with a reason is left out of the French."""
    import importlib
    from enum import Enum

    root = Path(__file__).resolve().parents[2]
    apps = ("eventlog", "players", "games", "tournaments", "seasons", "ratings", "analysis", "apikit")
    for source in (path for app in apps for path in (root / app).rglob("*.py")):
        if "class Reason(" in source.read_text():
            importlib.import_module(".".join(source.relative_to(root).with_suffix("").parts))

    def every(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from every(sub)

    declared = {cls for cls in every(Enum) if cls.__name__ == "Reason" and cls.__module__.split(".")[0] in apps}
    assert len(declared) >= 8
    assert declared == set(refusals.REASONS)


def test_a_refusal_is_said_with_its_own_names_and_numbers_in_french():
    from seasons.decider import Reason as SeasonReason
    from seasons.decider import SeasonError, SeasonRefusal
    from tournaments.refusals import Reason, TableTaken

    with translation.override("fr"):
        assert refusals.said(TableTaken(Reason.TABLE_TAKEN, table=3, slot="main:r1:m2")) == \
            "la table 3 est déjà prise par le match main:r1:m2"
        assert refusals.said(SeasonError(SeasonRefusal.SEASON_FULL, SeasonReason.EVENTS_FULL, most=60)) == \
            "une saison compte au plus 60 tournois"
