"""French and English: the French catalogue is complete and compiled, its backgammon words are
the glossary's, pages come in French by the browser's language or the switch, and refusals keep their code.

The catalogue's checks read the .po with polib and the tree with Django's own extractor (``templatize``) and
Python's ``ast``: they need no GNU gettext, like the rest of the suite."""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

import polib
import pytest
from django.utils.translation.template import templatize

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "deploy" / "locale"
PO = LOCALE / "fr" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
SOURCES = ("apikit", "deploy", "eventlog", "players", "games", "tournaments", "ratings", "analysis", "seasons")
GETTEXT_CALLS = {"_", "gettext", "gettext_lazy", "gettext_noop", "pgettext", "pgettext_lazy", "ngettext",
                 "ngettext_lazy", "npgettext", "npgettext_lazy"}


def catalogue() -> polib.POFile:
    return polib.pofile(str(PO))


def _key(context, msgid) -> tuple:
    return (context or None, msgid)


def _from_call(name: str, args: tuple) -> tuple:
    """(context, msgid) of a gettext call's literal arguments."""
    return _key(args[0], args[1]) if name.startswith(("p", "np")) else _key(None, args[0])


def wrapped_in_templates() -> set[tuple]:
    found = set()
    for path in (ROOT / app for app in SOURCES):
        for template in path.rglob("templates/**/*.html"):
            code = templatize(template.read_text(), origin=str(template))
            for call in re.finditer(r"\b(n?p?gettext)\(", code):
                # the call's literal arguments end at the first ")" that closes a readable tuple
                rest = code[call.end():]
                for close in (m.start() for m in re.finditer(r"\)", rest)):
                    try:
                        parsed = ast.parse("f(" + rest[:close] + ")", mode="eval").body
                    except SyntaxError:
                        continue
                    # the literal msgids (and context); a plural's count is a variable
                    args = tuple(a.value for a in parsed.args if isinstance(a, ast.Constant) and isinstance(a.value, str))
                    found.add(_from_call(call.group(1), args))
                    break
    return found


def wrapped_in_python() -> set[tuple]:
    found = set()
    for path in (ROOT / app for app in SOURCES):
        for module in path.rglob("*.py"):
            for node in ast.walk(ast.parse(module.read_text(), str(module))):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                texts = tuple(a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str))
                if name not in GETTEXT_CALLS:
                    continue
                # a call whose msgid is not a literal (a label marked where it is declared) has nothing to check
                given = 2 if name.startswith(("p", "np")) else 1
                literal = len(node.args) >= given and all(isinstance(a, ast.Constant) for a in node.args[:given])
                if texts and literal:
                    found.add(_from_call(name.removesuffix("_lazy").removesuffix("_noop"), texts))
    return found


def test_every_msgid_of_the_french_catalogue_is_translated_and_none_is_fuzzy():
    po = catalogue()
    assert len(po) > 150  # the site's pages and every refusal the API can give
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    empty = [e.msgid for e in po if not e.obsolete and not (e.msgstr or all(e.msgstr_plural.values()))]
    assert (untranslated, fuzzy, empty) == ([], [], [])
    assert not po.obsolete_entries()
    assert po.percent_translated() == 100


def test_every_string_wrapped_in_the_tree_has_its_french():
    po = catalogue()
    translated = {_key(e.msgctxt, e.msgid) for e in po.translated_entries()}
    wrapped = wrapped_in_templates() | wrapped_in_python()
    assert len(wrapped) > 150
    assert sorted(wrapped - translated, key=str) == []


def test_the_committed_mo_is_the_po_compiled():
    """The .mo is committed (a fresh machine needs no msgfmt): it must say what the .po says."""
    with MO.open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    for entry in catalogue().translated_entries():
        key = f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid
        if entry.msgid_plural:
            for form, text in entry.msgstr_plural.items():
                assert compiled._catalog.get((key, int(form))) == text, entry.msgid
        else:
            assert compiled._catalog.get(key) == entry.msgstr, entry.msgid


JS_PO = LOCALE / "fr" / "LC_MESSAGES" / "djangojs.po"
SCRIPTS = ROOT / "games" / "static" / "crawford"
ANALYSIS_SCRIPTS = ROOT / "analysis" / "static" / "crawford"  # GNU Backgammon's figures on the pages


def test_the_scripts_catalogue_is_complete_compiled_and_has_every_string_the_scripts_wrap():
    """The scripts' strings (``gettext("…")``, ``ngettext("…", …)`` in games/ and analysis/static/crawford/*.js, the
    djangojs catalogue served by
    Django's JavaScriptCatalog at /jsi18n/): each one translated, none fuzzy, the .mo the .po compiled."""
    po = polib.pofile(str(JS_PO))
    assert (po.untranslated_entries(), po.fuzzy_entries(), po.obsolete_entries()) == ([], [], [])
    wrapped = set()
    for script in [*SCRIPTS.glob("*.js"), *ANALYSIS_SCRIPTS.glob("*.js")]:
        text = script.read_text()
        wrapped |= set(re.findall(r'\bgettext\("((?:[^"\\]|\\.)*)"\)', text))
        wrapped |= set(re.findall(r'\bngettext\("((?:[^"\\]|\\.)*)", "', text))  # a plural: its singular msgid
    assert len(wrapped) > 30
    assert sorted(wrapped - {e.msgid for e in po.translated_entries()}) == []
    with JS_PO.with_suffix(".mo").open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    for e in po.translated_entries():  # a plural is compiled form by form, keyed (msgid, n); a context before its id
        key = f"{e.msgctxt}\x04{e.msgid}" if e.msgctxt else e.msgid
        forms = ({(key, int(n)): text for n, text in e.msgstr_plural.items()} if e.msgid_plural
                 else {key: e.msgstr})
        assert all(compiled._catalog.get(key) == text for key, text in forms.items()), e.msgid
    for entry in po.translated_entries():
        said = " ".join([entry.msgstr, *entry.msgstr_plural.values()])
        assert not re.search(r"\bcube\b", re.sub(r"%\(\w+\)s", "", said)), said


@pytest.mark.django_db
def test_the_scripts_catalogue_is_served_as_a_script_in_the_readers_language(client, make_user):
    french = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    assert french.status_code == 200 and french["Content-Type"].startswith("text/javascript")
    assert "%(name)s gagne le match." in french.content.decode()
    assert "gagne le match" not in client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # the pages whose scripts speak load it first, as a file (the CSP allows no inline script); others need none
    from tournaments import services

    event = services.tournament_create(actor=make_user("dora", official=True), name="Mardi",
                                       format="single_elimination", settings={})
    services.tournament_publish(actor=event.director, tournament=event, published=True)
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert page.index('<script src="/jsi18n/"></script>') < page.index("crawford/live.js")


# the glossary's words (deploy/locale/GLOSSARY.md): an English word in a msgid asks for its French in the msgstr
GLOSSARY = [
    (r"\bcube\b", "videau"),
    (r"\bcheckers?\b", "pion"),
    (r"\bhome board\b", "jan intérieur"),
    (r"\bbear(s|ing)? off\b", "sort"),
    (r"\bbar\b", "barre"),
    (r"\bblot\b", "blot"),
    (r"\bpoint is closed\b", "case"),
    (r"\bthe roll \d|\bthe roll %", "tirage"),
    (r"\bCrawford game\b", "partie de Crawford"),
    (r"\bresignation\b", "abandon"),
    (r"\bcheck-in\b", "pointage"),
]


def glossary_never() -> list[str]:
    """The glossary table's last column: words the French catalogue never uses."""
    never = []
    for line in (LOCALE / "GLOSSARY.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[3] and not set(cells[3]) <= {"-"} and cells[0] != "English":
            never += [w.strip() for w in cells[3].split(",")]
    return never


def test_the_catalogue_speaks_the_federations_words():
    po = catalogue()
    never = glossary_never()
    assert "cube" in never
    for entry in po.translated_entries():
        french = " ".join([entry.msgstr, *entry.msgstr_plural.values()])
        words = re.sub(r"%\(\w+\)s|<code>.*?</code>", "", french)  # placeholders and code are not French
        for word in never:
            assert not re.search(rf"\b{re.escape(word)}\b", words, re.IGNORECASE), (word, entry.msgstr)
        for english, french in GLOSSARY:
            if re.search(english, entry.msgid):
                assert french in entry.msgstr.lower() or french in entry.msgstr, (french, entry.msgstr)
    assert sum(bool(re.search(r"\bcube\b", e.msgid)) for e in po) >= 5  # the check above had cubes to look at


@pytest.mark.django_db
def test_a_page_is_french_when_the_browser_asks_for_it(client):
    page = client.get("/ratings/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9,en;q=0.5")
    text = page.content.decode()
    assert page["Content-Language"] == "fr"
    assert '<html lang="fr">' in text and "<h1>Cotes</h1>" in text and "Aucun match coté" in text
    english = client.get("/ratings/").content.decode()
    assert '<html lang="en">' in english and "<h1>Ratings</h1>" in english


@pytest.mark.django_db
def test_the_switch_chooses_french_and_keeps_it(client):
    page = client.get("/accounts/login/").content.decode()
    assert 'action="/i18n/setlang/"' in page and 'value="fr"' in page and "<script" not in page
    switched = client.post("/i18n/setlang/", {"language": "fr", "next": "/ratings/formula/"})
    assert switched.status_code == 302 and switched["Location"] == "/ratings/formula/"
    formula = client.get("/ratings/formula/").content.decode()
    assert "Comment les cotes sont calculées" in formula and "taux d'erreur au videau" in formula
    assert "P_upset = 1 / (10^(D * sqrt(n) / 2000) + 1)" in formula
    login = client.get("/accounts/login/").content.decode()
    assert "Nom d'utilisateur" in login and "Mot de passe" in login and 'value="en"' in login


@pytest.mark.django_db
def test_a_lost_person_gets_the_sites_page_in_their_language(client):
    lost = client.get("/no/such/page/", HTTP_ACCEPT_LANGUAGE="fr")
    assert lost.status_code == 404
    text = lost.content.decode()
    assert "<h1>Page introuvable</h1>" in text and 'href="/"' in text and 'action="/i18n/setlang/"' in text
    assert "<h1>Page not found</h1>" in client.get("/no/such/page/").content.decode()


def test_the_server_error_page_needs_nothing_but_the_language():
    from django.template.loader import render_to_string
    from django.utils import translation

    with translation.override("fr"):
        page = render_to_string("500.html")
    assert '<html lang="fr">' in page and "Erreur du serveur" in page


@pytest.mark.django_db
def test_the_api_docs_lead_back_to_the_site_in_the_readers_language(client):
    docs = client.get("/api/docs/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "← Retour à Crawford" in docs and 'action="/i18n/setlang/"' in docs and '<html lang="fr">' in docs


FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr-FR,fr;q=0.9"}


@pytest.fixture
def board_match(api, make_user):
    """A casual match with dice from the board, Alice to play a 3-1 after the opening roll."""
    alice, bob = make_user("alice"), make_user("bob")
    client = api(alice)
    match = client.post("/api/matches/", {"player0": alice.player.pk, "player1": bob.player.pk, "length": 5,
                                          "dice": "board"}, format="json").json()
    opened = client.post(f"/api/matches/{match['id']}/commands/",
                         {"type": "roll", "dice": [3, 1], "expected_version": match["version"]}, format="json")
    assert opened.status_code == 200, opened.json()
    return client, opened.json()["state"]


def _command(client, match, headers=None, **command):
    command.setdefault("expected_version", match["version"])
    return client.post(f"/api/matches/{match['id']}/commands/", command, format="json", **(headers or {}))


@pytest.mark.django_db
def test_the_engines_refusal_comes_in_french_with_the_same_code(board_match):
    client, match = board_match
    french = _command(client, match, FRENCH, type="move", move="13/8")
    assert french.status_code == 400 and french["Content-Language"] == "fr"
    assert french.json() == {"detail": "13/8 n'est pas légal : aucun dé du tirage 3-1 n'avance de 5 cases",
                             "code": "illegal_move"}
    english = _command(client, match, type="move", move="13/8")  # no Accept-Language: what clients always got
    assert english.json() == {"detail": "13/8 is not legal: no die of the roll 3-1 moves 5 pips",
                              "code": "illegal_move"}
    asked = _command(client, match, {"HTTP_ACCEPT_LANGUAGE": "en-GB,en"}, type="move", move="13/8")
    assert asked.json() == english.json()


@pytest.mark.django_db
def test_the_cube_refusals_say_videau_and_keep_the_players_names(api, make_user):
    from tests.games.recorder import Recorder

    alice, bob = make_user("alice"), make_user("bob")
    m = Recorder(api(alice), api(alice).post("/api/matches/", {
        "player0": alice.player.pk, "player1": bob.player.pk, "length": 5, "dice": "board"}, format="json").json())
    m.send(type="roll", dice=[3, 1])
    early = _command(m.client, m.match, FRENCH, type="double")
    assert early.json() == {"detail": "on ne peut doubler qu'avant de lancer les dés", "code": "cube_not_available"}
    m.send(type="move", move="8/5 6/5")
    m.client = api(bob)
    m.send(type="double")
    m.client = api(alice)
    m.send(type="take")
    m.client = api(bob)
    m.send(type="roll", dice=[6, 4])
    m.send(type="move", move=m.match["legal_moves"][0])
    m.client = api(alice)
    m.send(type="roll", dice=[2, 1])
    m.send(type="move", move=m.match["legal_moves"][0])
    m.client = api(bob)
    refused = _command(m.client, m.match, FRENCH, type="double")
    assert refused.json() == {"detail": "Alice est le possesseur du videau", "code": "cube_not_available"}
    out_of_turn = _command(api(alice), m.match, FRENCH, type="roll", dice=[5, 2])
    assert out_of_turn.json() == {"detail": "c'est au tour de Bob, Alice ne peut pas lancer les dés",
                                  "code": "not_your_turn"}


@pytest.mark.django_db
def test_the_imports_refusals_reach_a_french_reader_in_french(api, make_user):
    """A big record's import refused while another is judged or past the hour's games, and the console's member
    list refused line by line (written in the reader's language by the console itself, kept as it is)."""
    from deploy import refusals
    from django.utils import translation
    from games.errors import Reason
    from games.imports import ImportBudgetSpent, ImportUnderWay
    from players.models import Club
    from tournaments import services

    with translation.override("fr"):
        assert refusals.said(ImportUnderWay(Reason.IMPORT_UNDER_WAY, job=12)) == \
            "votre importation 12 est encore en cours d'examen ; envoyez la suivante une fois celle-ci terminée"
        assert refusals.said(ImportBudgetSpent(Reason.IMPORT_BUDGET, n=200, games=30, s=61, retry_after=61)) \
            == "une importation peut apporter 200 parties par heure ; cet enregistrement de 30 parties doit " \
               "attendre 61 s"
        assert refusals.said(ValueError("Ines"), "same_person") == \
            "Des lignes désignent des membres du club par leur seul nom : dites pour chacune s'il s'agit de la " \
            "même personne ; rien n'a été importé."
    club = Club.objects.create(name="Lyon BG")
    director = make_user("dora", player=False)
    club.directors.add(director)
    t = services.tournament_create(actor=director, name="Jeudi", format="single_elimination", club=club,
                                   settings={"lengths": {"main": {"default": 3}}})
    refused = api(director).post(f"/api/tournaments/{t.pk}/members/import/", {"members": "Ines\n, x@example.org"},
                                 format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert refused.status_code == 400 and refused.json()["code"] == "import_refused"
    assert refused.json()["detail"] == "ligne 2 : un nom de 1 à 80 caractères"


@pytest.mark.django_db
def test_the_tournaments_refusal_comes_in_french_with_the_same_code(api, make_user):
    from eventlog import store
    from tournaments import services
    from tournaments.stream import stream_id_of

    director = make_user("dora", official=True)
    player = make_user("pia")
    event = services.tournament_create(actor=director, name="Mardi", format="single_elimination", settings={})
    enter = {"type": "enter", "player": player.player.pk}
    services.tournament_command(actor=director, tournament=event, command=enter)
    version = store.stream_version(stream_id_of(event.pk))
    again = api(director).post(f"/api/tournaments/{event.pk}/commands/", {**enter, "expected_version": version},
                               format="json", **FRENCH)
    assert again.status_code == 400
    assert again.json()["code"] == "already_entered" and again.json()["detail"] == "déjà inscrit"


@pytest.mark.django_db
def test_django_rest_frameworks_own_messages_and_unknown_addresses_in_french(api):
    anonymous = api().post("/api/matches/", {}, format="json", **FRENCH)
    assert anonymous.status_code in (401, 403)
    assert anonymous.json()["detail"] == "Informations d'authentification non fournies."
    assert api().post("/api/matches/", {}, format="json").json()["detail"] == \
        "Authentication credentials were not provided."
    lost = api().get("/api/nowhere/", **FRENCH)
    assert lost.status_code == 404 and lost.json() == {"detail": "adresse inconnue : /api/nowhere/",
                                                       "code": "not_found"}


def test_the_viewers_move_list_is_written_in_the_readers_language():
    """The match viewer's lines (games/viewer.py) are written at each page's request, in its language."""
    from django.utils import translation

    from games import viewer

    names = ["Alice", "Bob"]
    won = {"winner": 1, "points": 2, "kind": "gammon", "reason": "bearoff", "score": [1, 4]}
    with translation.override("fr"):
        assert viewer._describe(None, None, "DoubleOffered", {"player": 0, "cube": 2}, names) == "Alice double à 2"
        assert viewer._describe(None, None, "GameWon", won, names) == "Bob gagne 2 points (gammon, sortie) ; 1-4"
    with translation.override("en"):
        assert viewer._describe(None, None, "GameWon", won, names) == "Bob wins 2 points (gammon, bearoff); 1-4"
