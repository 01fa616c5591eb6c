"""Every public page passes axe-core with no serious or critical violation, and the player page's
rating chart shows the match under the pointer.

The data is the demo's (``load_demo``: a knockout played move by move, a match still at the board) plus an event of
each other format with results on paper and a casual match, so every kind of page has something on it. axe-core
is the npm package's ``axe.min.js``, kept in tests/fixtures/axe (no CDN), evaluated in each page by Playwright
(through the DevTools protocol: the pages' CSP, which forbids inline scripts, stays on). The counts per page are
printed (``-s`` shows them)."""

import json
import os
from pathlib import Path

import pytest
from django.core.management import call_command

from eventlog import projections
from games.loading import match_load
from players.models import Player
from tournaments import services
from tournaments.models import Tournament
from tournaments.selectors import tournament_data

from ..ratings.test_records import won_by
from .test_club_night_in_a_browser import SHOTS, browser_page, shot  # noqa: F401 (a fixture)

AXE = Path(__file__).resolve().parents[1] / "fixtures" / "axe" / "axe.min.js"
BLOCKING = ("serious", "critical")


def _event(director, name: str, fmt: str, players: list[int], **settings) -> Tournament:
    # under the demo club's name: the demo's director is its director, not an official (load_demo)
    event = services.tournament_create(actor=director, name=name, format=fmt, club=director.directed_clubs.get(),
                                       settings=settings)
    for p in players:
        services.tournament_command(actor=director, tournament=event, command={"type": "enter", "player": p})
        services.tournament_command(actor=director, tournament=event, command={"type": "check_in", "player": p})
    services.tournament_command(actor=director, tournament=event, command={"type": "draw", "method": "manual",
                                                                         "seeds": players})
    _settle(event)
    ready = [s for s in tournament_data(event)["slots"] if s["status"] == "ready"]
    for s in ready[:2]:  # two results on paper, the rest still to play
        services.tournament_command(actor=director, tournament=event, command={
            "type": "report_result", "slot": s["key"], "winner": s["players"][0], "score": [s["length"], 1]})
    _settle(event)
    return event


def _settle(event) -> None:
    for _ in range(10):
        projections.run_all()
        if not services.tournament_advance(event):
            projections.run_all()
            return


def _axe(page) -> dict:
    page.evaluate(AXE.read_text())
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ["violations"]});
        return r.violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length,
                                       targets: v.nodes.slice(0, 12).map(n => n.target.join(" "))}));
    }""")
    counts = {impact: sum(v["nodes"] for v in result if v["impact"] == impact)
              for impact in ("critical", "serious", "moderate", "minor")}
    return {"counts": counts, "blocking": [v for v in result if v["impact"] in BLOCKING], "all": result}


def test_every_public_page_passes_axe_core(live_server, browser_page, django_user_model):  # noqa: F811
    page = browser_page
    call_command("load_demo", stdout=open(os.devnull, "w"))
    director = django_user_model.objects.get(username="director")
    Tournament.objects.update(published=True)
    field = list(Player.objects.order_by("pk").values_list("pk", flat=True))
    demo = Tournament.objects.get(name="Thursday club night")
    ladder, winter = Tournament.objects.get(name="Club ladder"), Tournament.objects.get(name="Winter league")
    from seasons.models import Season
    season = Season.objects.get()
    swiss = _event(director, "Swiss evening", "swiss", field[:6], rounds=3)
    league = _event(director, "Round robin", "round_robin", field[:4])
    double = _event(director, "Double elimination", "double_elimination", field[:4])
    staged = _event(director, "Swiss then knockout", "swiss", field[:6], rounds=2, qualifiers=4)
    casual = won_by(field[0], field[1], 3)
    projections.run_all()
    slots = tournament_data(demo)["slots"]
    played = next(s["match_id"] for s in slots if s["match_id"] and match_load(s["match_id"]).finished)
    in_play = next(s["match_id"] for s in slots if s["match_id"] and not match_load(s["match_id"]).finished)
    ada = Player.objects.get(display_name="Ada").pk

    url = live_server.url
    public = {
        "home": "/", "event: single elimination (demo)": f"/events/{demo.pk}/", "event: swiss": f"/events/{swiss.pk}/",
        "event: round robin": f"/events/{league.pk}/", "event: double elimination": f"/events/{double.pk}/",
        "ratings": "/ratings/", "formula": "/ratings/formula/", "player page": f"/players/{ada}/",
        "head-to-head": f"/players/{field[0]}/vs/{field[1]}/", "match viewer": f"/matches/{played}/",
        "casual match viewer": f"/matches/{casual}/", "login": "/accounts/login/", "API docs": "/api/docs/",
        "event: ladder (demo)": f"/events/{ladder.pk}/", "event: league (demo)": f"/events/{winter.pk}/",
        "event: Swiss -> knockout": f"/events/{staged.pk}/", "seasons": "/seasons/",
        "season table (demo)": f"/seasons/{season.pk}/", "season rules": "/seasons/rules/",
        "event rules": "/events/rules/",
        "live board": f"/matches/{in_play}/live/",
    }
    report, failures = {}, {}

    def check(name: str, path: str, ready: str = "main, #swagger-ui") -> None:
        page.goto(url + path)
        page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
        found = _axe(page)
        report[name] = found["counts"]
        if found["blocking"]:
            failures[name] = found["blocking"]
        shot(page, f"axe-{path.strip('/').replace('/', '-') or 'home'}{'-phone' if 'phone' in name else ''}")

    for name, path in public.items():
        check(name, path, ".opblock-tag" if path == "/api/docs/" else "main")
    # the recording screen is for the tablet at the table: a director's (or a player's) login
    page.goto(f"{url}/accounts/login/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "director")
    page.click("button[type=submit]")
    page.wait_for_load_state()
    check("recording screen", f"/matches/{in_play}/record/", "#board .point")
    check("director's console", f"/events/{demo.pk}/run/")
    # the format's own controls, and the season's (its director runs it from its page, and opens one on /seasons/)
    for name, t in (("ladder", ladder), ("league", winter), ("Swiss -> knockout", staged)):
        check(f"director's console: {name}", f"/events/{t.pk}/run/")
    # the event form: a new event, and a drawn event's settings (those fixed by the draw shown disabled)
    check("new event (director)", "/events/new/")
    check("event settings (director)", f"/events/{staged.pk}/settings/")
    check("season controls (director)", f"/seasons/{season.pk}/")
    check("open a season (director)", "/seasons/")
    # and on a phone: the pages a player opens at the club
    page.set_viewport_size({"width": 390, "height": 844})
    for name in ("home", "event: single elimination (demo)", "player page", "head-to-head", "match viewer",
                 "season table (demo)", "event: ladder (demo)"):
        check(f"{name} (phone)", public[name], "main")
    check("recording screen (phone)", f"/matches/{in_play}/record/", "#board .point")

    print("\naxe-core, violations (nodes) per page: critical / serious / moderate / minor")
    for name, c in report.items():
        print(f"  {name:42} {c['critical']:3} / {c['serious']:3} / {c['moderate']:3} / {c['minor']:3}")
    assert not failures, json.dumps(failures, indent=1)
    assert not page.foreign_hosts


def test_the_rating_chart_shows_the_match_under_the_pointer(live_server, browser_page):  # noqa: F811
    page = browser_page
    ann, bob, cleo = (Player.objects.create(display_name=n).pk for n in ("Ann", "Bob", "Cleo"))
    won_by(ann, bob)
    won_by(cleo, ann, 3)
    won_by(ann, bob, 5)
    projections.run_all()
    page.goto(f"{live_server.url}/players/{ann}/")
    chart = page.locator("#rating-chart")
    assert chart.locator(".axis text").count() >= 5  # ratings at the left, dates below
    dots = chart.locator("circle.dot")
    assert dots.count() == 3
    box = dots.nth(1).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2 + 20)  # below it: nearest by date
    readout = page.locator("#rating-chart-readout")
    assert "lost against Cleo, 3-point match" in readout.inner_text()
    chart.focus()
    page.keyboard.press("End")
    assert "won against Bob, 5-point match" in readout.inner_text()
    page.keyboard.press("Home")
    assert "won against Bob, 1-point match" in readout.inner_text()
    shot(page, "rating-chart")
    assert not page.console_errors, page.console_errors
