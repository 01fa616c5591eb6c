"""The site in French in a real browser: chosen by the browser's language (Accept-Language,
here Chromium's locale) or by the switch on every page (a form posted to Django's set_language: the CSP allows
no inline script, and none runs). Screenshots go to var/screenshots/french-*.png."""

from pathlib import Path

import pytest

from tests.waiting import WAIT_MS

from .test_club_night_in_a_browser import CHROMIUM, SHOTS, shot


@pytest.fixture
def chromium(live_server, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (make test installs it)")
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--no-first-run", "--disable-sync"])

        def page_in(locale: str):
            page = browser.new_context(locale=locale, viewport={"width": 1000, "height": 800}).new_page()
            page.set_default_timeout(WAIT_MS)
            page.errors = []  # a CSP violation is a console error
            page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: page.errors.append(str(e)))
            return page

        yield page_in
        browser.close()
        from django.db import connections

        connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_a_french_browser_gets_the_site_in_french(chromium, live_server):
    page = chromium("fr-FR")
    page.goto(f"{live_server.url}/ratings/")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.locator("h1").inner_text() == "Cotes"
    assert page.get_by_role("button", name="Afficher").is_visible()
    assert page.get_by_text("Aucun match coté pour l'instant.").is_visible()
    shot(page, "french-ratings")
    page.goto(f"{live_server.url}/ratings/formula/")
    assert page.locator("h1").inner_text() == "Comment les cotes sont calculées"
    assert "taux d'erreur au videau" in page.locator("main").inner_text()
    shot(page, "french-formula")
    assert page.errors == []


@pytest.mark.django_db(transaction=True)
def test_the_switch_turns_any_page_french_and_back(chromium, live_server):
    page = chromium("en-US")
    page.goto(f"{live_server.url}/accounts/login/")
    assert page.locator("h1").inner_text() == "Log in"
    page.get_by_role("button", name="Français").click()
    page.wait_for_load_state()
    assert page.url == f"{live_server.url}/accounts/login/"  # the same page, in French
    assert page.locator("h1").inner_text() == "Se connecter"
    assert page.get_by_label("Nom d'utilisateur").is_visible() and page.get_by_label("Mot de passe").is_visible()
    shot(page, "french-login")
    # the API follows the switch too (its cookie), so a refusal shown on a page is French: the same code
    refused = page.context.request.post(f"{live_server.url}/api/matches/", data={})
    assert refused.status in (401, 403)
    assert refused.json() == {"detail": "Informations d'authentification non fournies.", "code": "not_authenticated"}
    # the choice holds on the next page, the API's documentation included, which leads back to the site
    page.goto(f"{live_server.url}/api/docs/")
    page.locator("#swagger-ui .info").wait_for()  # Swagger UI's scripts (files, no inline script) drew the page
    assert page.locator("html").get_attribute("lang") == "fr"
    shot(page, "french-api-docs")
    page.get_by_role("link", name="← Retour à Crawford").click()
    page.wait_for_load_state()
    assert page.get_by_role("link", name="Cotes").is_visible() and page.get_by_role("link", name="Formule").is_visible()
    page.get_by_role("button", name="English").click()
    page.wait_for_load_state()
    assert page.get_by_role("link", name="Ratings").is_visible()
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.errors == []


@pytest.mark.django_db(transaction=True)
def test_an_evenings_standings_brackets_and_console_read_in_french(chromium, live_server, make_user):
    """The club evening in French: the event page's bracket with its rounds named, its standings and history, the
    director's console and the printed standings (the PDF's text), all in the federation's words."""
    import io

    from django.urls import reverse
    from pypdf import PdfReader

    from players.models import Player
    from tests.site.test_accessibility import _axe
    from tests.tournaments.test_running_events import cmd, settle, start

    director = make_user("dora", official=True, player=False)
    director.set_password("dora-pass-1234")
    director.save()
    players = [Player.objects.create(display_name=n).pk for n in ("Ada", "Bruno", "Chloé", "Dimitri")]
    t = start(director, players, lengths={"main": {"default": 3}})
    services_publish(director, t)
    for _ in range(3):  # the semi-finals, then the final: each match won 3-1 by its first player
        for s in [s for s in settle(t)["slots"] if s["status"] == "ready"]:
            cmd(t, director, type="report_result", slot=s["key"], winner=s["players"][0], score=[3, 1])
    data = settle(t)
    assert data["winner"] == players[0]

    page = chromium("fr-FR")
    page.goto(f"{live_server.url}{reverse('event-page', args=[t.pk])}")
    assert page.locator("html").get_attribute("lang") == "fr"
    main = page.locator("main").inner_text()
    assert "Vainqueur : Ada" in main
    assert page.get_by_role("heading", name="Principal", exact=True).is_visible()
    rounds = page.locator(".bracket .round-name").all_inner_texts()
    assert rounds == ["Demi-finale", "Finale"]
    assert page.get_by_role("heading", name="Classement · Principal").is_visible()
    headers = page.locator("table.standings th").all_inner_texts()
    assert headers[1:6] == ["Joueur", "Joués", "Victoires", "Défaites", "Points ±"]
    assert "(vainqueur)" in main and "Inscriptions" in main
    assert "Principal · Finale · match 1 : résultat saisi par le directeur du tournoi : Ada a battu" in main
    for english in ("Standings", "Winner", "Semi-final", "Entries", "History", "result reported", "Round 1"):
        assert english not in main, english
    shot(page, "french-event-standings")
    # the page's scripts speak French too: Django's JavaScript catalogue, loaded as a file the CSP allows
    assert page.evaluate("gettext('A result came in.')") == "Un résultat est arrivé."
    assert _axe(page)["blocking"] == []  # the named rounds (h3 under each bracket's h2) keep the page accessible

    page.goto(f"{live_server.url}/accounts/login/?next={reverse('event-console', args=[t.pk])}")
    page.fill("#id_username", "dora")
    page.fill("#id_password", "dora-pass-1234")
    page.press("#id_password", "Enter")
    page.wait_for_selector("#members")
    console = page.locator("main").inner_text()
    assert page.locator("h1").inner_text() == f"Diriger {t.name}"
    for french in ("Inscriptions", "Importer et inscrire", "Résultats", "Classement", "Principal · Demi-finale · match 1",
                   "Annuler la dernière action", "feuille du tirage au sort", "Élimination directe"):
        assert french in console, french
    for english in ("Entries", "Results", "Standings", "Semi-final", "Undo the last action", "Single elimination"):
        assert english not in console, english
    shot(page, "french-console")
    assert _axe(page)["blocking"] == []

    # the printed standings for the wall, in the language of the director who prints them
    # (Playwright's request API sends no Accept-Language of its own: the header the French browser sends)
    sheet = page.context.request.get(f"{live_server.url}{reverse('event-sheet', args=[t.pk, 'standings'])}",
                                     headers={"Accept-Language": "fr-FR,fr;q=0.9"})
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(sheet.body())).pages)
    assert "Classement" in text and "Principal" in text and "Joueur Joués Gagnés Perdus Points" in text
    assert "Standings" not in text and "Main" not in text
    assert page.errors == []


def services_publish(director, t):
    from tournaments import services

    services.tournament_publish(actor=director, tournament=t, published=True)


@pytest.mark.django_db(transaction=True)
def test_the_recording_screen_and_the_live_board_speak_french(chromium, live_server, make_user):
    """The scripts' sentences (the djangojs catalogue, /jsi18n/): the tablet's status lines and the big screen's."""
    from games.creation import match_create
    from players.models import Player

    director = make_user("dora", official=True, player=False)
    director.set_password("dora-pass-1234")
    director.save()
    alice, bob = Player.objects.create(display_name="Alice"), Player.objects.create(display_name="Bob")
    match_id = match_create(actor=director, player0=alice, player1=bob, length=3, dice="board").stream_id

    tablet = chromium("fr-FR")
    tablet.goto(f"{live_server.url}/accounts/login/?next=/matches/{match_id}/record/")
    tablet.fill("#id_username", "dora")
    tablet.fill("#id_password", "dora-pass-1234")
    tablet.press("#id_password", "Enter")
    tablet.wait_for_selector("#board .point")
    assert tablet.locator("#facts").inner_text() == "match en 3 points · partie 0 · videau 1 · compte des points Alice 167, Bob 167"
    assert tablet.locator("#status").inner_text() == "Partie 1 : premier jet (le dé de Alice d'abord)."
    assert tablet.get_by_role("button", name="Saisir les dés").is_visible()
    shot(tablet, "french-record")
    watcher = chromium("fr-FR")
    watcher.goto(f"{live_server.url}/matches/{match_id}/live/")
    watcher.wait_for_selector("#board .point")
    assert watcher.locator("#length").inner_text() == "match en 3 points"
    assert watcher.locator("#status").inner_text() == "Partie 1 : premier jet."
    assert watcher.locator("#cube").inner_text() == "1 (au centre)"
    shot(watcher, "french-live-board")
    assert tablet.errors == [] and watcher.errors == []


# the months as French writes them short (not Django's "M", which gives "Jui" for both juin and juillet)
FRENCH_MONTHS = ["jan.", "fév.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."]


@pytest.mark.django_db(transaction=True)
def test_the_rating_chart_reads_in_french(chromium, live_server):
    """The player page's chart in French: drawn as in English, its axis dates in French, and the match under the
    pointer said in French with French numbers (a decimal comma) and plurals ("match en 1 point")."""
    import re

    from django.utils import timezone

    from eventlog import projections
    from players.models import Player
    from tests.ratings.test_records import won_by

    ann, bob, cleo = (Player.objects.create(display_name=n).pk for n in ("Ann", "Bob", "Cleo"))
    won_by(ann, bob)
    won_by(cleo, ann, 3)
    won_by(ann, bob, 5)
    projections.run_all()
    today = timezone.localdate()
    french_date = f"{today.day} {FRENCH_MONTHS[today.month - 1]} {today.year}"

    page = chromium("fr-FR")
    page.goto(f"{live_server.url}/players/{ann}/")
    chart = page.locator("#rating-chart")
    assert chart.get_attribute("aria-label").startswith("Historique de la cote, de ")
    assert french_date in chart.locator(".axis text").all_text_contents()  # the date below the axis
    # drawn where they belong: French writes 150,5 where the drawing needs 150.5 (a dot at 150,5 is a dot at 0)
    xs = [chart.locator("circle.dot").nth(i).bounding_box()["x"] for i in range(3)]
    assert xs[0] < xs[1] < xs[2] and xs[2] - xs[0] > 200, xs
    box = chart.locator("circle.dot").nth(1).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    readout = page.locator("#rating-chart-readout").inner_text()
    assert readout.startswith(f"{french_date} : perdu contre Cleo, match en 3 points, cote "), readout
    assert re.search(r"cote \d+,\d\d → \d+,\d\d$", readout), readout
    chart.focus()
    page.keyboard.press("Home")
    first = page.locator("#rating-chart-readout").inner_text()
    assert " : gagné contre Bob, match en 1 point, cote 1500,00 → " in first, first
    shot(page, "french-rating-chart")
    assert page.errors == []


GNUBG_RATINGS_IN_FRENCH = ("Épouvantable !", "Débutant", "Joueur occasionnel", "Intermédiaire", "Avancé", "Expert",
                           "Classe mondiale", "Surnaturel")


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not Path("/usr/games/gnubg").exists(), reason="no gnubg")
def test_the_player_pages_error_rates_read_in_french_and_name_the_opponent(chromium, live_server, make_user):
    """The player page's table of GNU Backgammon's figures: each match named by the opponent as the site names them
    (not by the name the match was recorded under: here the imported file's "Bob"), its figures with French's
    decimal comma."""
    import re

    from analysis import services as analysis
    from analysis.models import MatchAnalysis
    from eventlog import projections
    from games.mat_io import match_import_mat
    from players.models import Player

    ann, dan = Player.objects.create(display_name="Ann"), Player.objects.create(display_name="Dan")
    # "Alice" and "Bob" in the file; gnubg prints 3.9 and 1.7 mEMG for their checker play (tests/analysis/test_api.py)
    mat = Path(__file__).resolve().parents[1] / "fixtures/gnubg/samples/gnubg_7pt_2ply_seed42.mat"
    record = match_import_mat(actor=make_user("root", official=True, player=False), text=mat.read_text(),
                              player0=ann, player1=dan)
    projections.run_all()
    analysis.analysis_run(pk=MatchAnalysis.objects.get(stream_id=record.stream_id).pk)

    page = chromium("fr-FR")
    page.goto(f"{live_server.url}/players/{dan.pk}/")  # Bob's seat in the file
    page.wait_for_selector("#analysis-table table")
    row = page.locator("#analysis-table tbody tr").first
    cells = row.locator("td").all_inner_texts()
    assert cells[0].endswith(" contre Ann"), cells  # the chart's words: "25 nov. 2026 contre Ann", not "Alice"
    figures = [cells[1], cells[2], cells[3], cells[5]]  # checker play, cube, overall, PR
    assert all(re.fullmatch(r"\d+,\d", f) for f in figures) and figures[0] == "1,7", figures
    assert cells[4] in GNUBG_RATINGS_IN_FRENCH, cells  # gnubg's "Supernatural" here
    assert re.search(r"\d,\d mEMG$", page.locator("#analysis-chart circle title").first.text_content())
    assert re.search(r" 0 – \d+,\d", page.inner_text("#analysis-caption"))
    # over all the player's matches (one here: its own figures, the word by gnubg's thresholds), said in French
    pooled = page.locator("#analysis-pooled").locator("th, td").all_inner_texts()
    assert pooled == ["Tous les matchs (1)", *cells[1:]], (pooled, cells)
    assert "sur 1 match analysé : " in page.inner_text("#analysis-caption")
    shot(page, "french-player-error-rates")

    # the match's own page: its figures, its marked plays and the mark of the play on the board, in French
    from playwright.sync_api import expect

    page.goto(f"{live_server.url}/matches/{record.stream_id}/")
    page.wait_for_selector("#analysis-figures table")
    figures = page.inner_text("#analysis-figures")
    assert re.search(r"\d,\d · \d+ coups", figures) and re.search(r"\d,\d · \d+ décisions?\b", figures), figures
    marked = page.locator("#analysis-marked button").first
    label = marked.inner_text()
    assert re.fullmatch(r"Partie \d+ : .+ · (douteux|mauvais|très mauvais) \(−\d,\d{3}\)", label), label
    marked.click()
    expect(page.locator("#mark")).to_contain_text(re.compile(r"^(Douteux|Mauvais|Très mauvais) · .*, perte \d,\d{3}"))
    expect(page.locator("#mark .best")).to_contain_text(re.compile(r"^(Meilleur coup|Bonne décision de videau) : "))
    shot(page, "french-match-analysis")
    assert page.errors == []
