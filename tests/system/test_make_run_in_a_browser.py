"""`make run` as a newcomer meets it, in a real browser: a fresh SQLite database, no broker (tasks in-process), the
demo loaded, `manage.py runserver`; then the README's `director` and a demo member log in and open every page they
can reach, and the director records a move at the board and reports the semi-final's result from the console.

The rest of the suite runs on PostgreSQL through Django's test client or a live server in the test's process; what
only SQLite meets on a signed-in request (the session's user read by raw SQL, players/authentication.py) is caught
here. One server for the module; every page must answer 200 or a redirect, and the server must log no traceback.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import unicodedata
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.conftest import ROOT
from tests.waiting import wait_for

CHROMIUM = "/usr/bin/chromium"
EVENT = "Thursday club night"  # the demo's single elimination, one semi-final still at the board (load_demo)
MEMBER_PASSWORD = "crawford"  # the demo members' shared password (load_demo)
README = (ROOT / "README.md").read_text()

# not pages: the live pages' server-sent events stay open, the rest are forms' targets or the site's scripts
NOT_A_PAGE = re.compile(r"/(follow|logout|delete)/|^/(i18n/setlang|jsi18n|static|api-auth|favicon\.ico)|/admin/jsi18n/")
# the API root's address templates ("/api/players/{id}/ratings/"), as given or as a link's href encodes them
TEMPLATE = re.compile(r"\{|%7B", re.IGNORECASE)
# a page of a kind already opened (same address but for its ids) is not opened again, except the seeds
AN_ID = re.compile(r"/(\d+|[0-9a-f]{32})(?=/|\.|$)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Site:
    """The embedded default, set up and served as `make run` does it (the Makefile's `run` target)."""

    def __init__(self, where: Path):
        self.where, self.port = where, _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("DATABASE_URL", "REDIS_URL", "DATABASE_REPLICA_URL", "DJANGO_SETTINGS_MODULE",
                                 "CRAWFORD_REDIS_SPLIT")}
        self.env.update(DATABASE_URL=f"sqlite:///{where / 'crawford.sqlite3'}", CRAWFORD_VAR_DIR=str(where),
                        DEBUG="1", SECRET_KEY="make-run-test-" + "k" * 40, DJANGO_SETTINGS_MODULE="deploy.settings",
                        PYTHONUNBUFFERED="1")
        self.log = where / "runserver.log"
        self.read_up_to = 0
        self.proc = None

    def manage(self, *args) -> str:
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True,
                              text=True, timeout=600)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        return done.stdout + done.stderr

    def serve(self) -> None:
        # --noreload: the autoreloader would restart the server whenever a file of the work tree changes
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{self.port}"], cwd=ROOT,
            env=self.env, stdout=open(self.log, "w"), stderr=subprocess.STDOUT, start_new_session=True)

        def answers() -> bool:
            assert self.proc.poll() is None, "runserver exited:\n" + self.log.read_text()[-3000:]
            try:
                with urllib.request.urlopen(f"{self.url}/api/health/", timeout=5) as r:
                    return r.status == 200
            except OSError:
                return False

        wait_for(answers, timeout=120, what="runserver to answer")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()

    def new_output(self) -> str:
        """What the server logged since the last call."""
        text = self.log.read_text(errors="replace")
        new, self.read_up_to = text[self.read_up_to:], len(text)
        return new


def assert_no_server_error(site: Site) -> None:
    out = site.new_output()
    failed = [line for line in out.splitlines() if re.search(r'" 5\d\d \d', line)]
    # a warning too: a naive date saved (a user read without the ORM's conversions, players/authentication.py)
    assert "Traceback" not in out and not re.search(r"\w+Warning: ", out) and not failed, out[-6000:]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    site = Site(tmp_path_factory.mktemp("make-run"))
    site.manage("migrate", "--noinput")
    loaded = site.manage("load_demo")
    assert "Traceback" not in loaded, loaded[-3000:]
    site.serve()
    yield site
    site.stop()


@pytest.fixture(scope="module")
def browser(site):
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (make test installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"])
        yield chromium
        chromium.close()


def log_in(browser, site: Site, username: str, password: str):
    """A browser signed in through the site's own login page, as the README says."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.script_errors = []
    page.on("pageerror", lambda e: page.script_errors.append(f"{e} ({page.url})"))
    page.goto(f"{site.url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    with page.expect_navigation():
        page.press("#id_password", "Enter")
    assert urlsplit(page.url).path != "/accounts/login/", f"{username} could not log in: {page.content()[:2000]}"
    return page


def api(page, site: Site, path: str):
    """The API answered with the browser's session (its cookies)."""
    response = page.request.get(f"{site.url}{path}")
    assert response.status == 200, (path, response.status, response.text()[:500])
    return response.json()


def demo_facts(page, site: Site) -> dict:
    """The ids the demo's pages are at (its draw is random: read them, never assume them)."""
    events = api(page, site, "/api/tournaments/")
    club = next(t["id"] for t in events if t["name"] == EVENT)
    detail = api(page, site, f"/api/tournaments/{club}/")
    semi = next(s for s in detail["slots"] if s["status"] == "ready" and s["match_id"])
    seasons = api(page, site, "/api/seasons/")
    season = (seasons["results"] if isinstance(seasons, dict) else seasons)[0]["id"]
    return {"events": [t["id"] for t in events], "club": club, "semi": semi, "season": season}


def walk(page, site: Site, seeds: list[str]) -> dict[str, int]:
    """Open the seeds and every page reachable from them by a link (one page of each kind beyond the seeds), in
    the browser; what the browser would save rather than show (a sheet, the schema, a .mat) through its session.
    Returns each address opened and its status."""
    seen: dict[str, int] = {}
    kinds: set[str] = set()
    todo = list(dict.fromkeys(seeds))
    queued = set(todo)
    while todo:
        path = todo.pop(0)
        kinds.add(AN_ID.sub("/{}", urlsplit(path).path))
        try:
            response = page.goto(f"{site.url}{path}")
        except PlaywrightError as error:
            if "Download is starting" not in str(error):
                raise
            seen[path] = page.request.get(f"{site.url}{path}").status
            continue
        seen[path] = response.status
        if response.status >= 400:
            continue
        if (response.headers.get("content-type") or "").startswith("application/json"):
            links = _urls_in(response.json())
        else:
            links = page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
        for link in links:
            parts = urlsplit(link)
            if parts.netloc != urlsplit(site.url).netloc or NOT_A_PAGE.search(parts.path) or TEMPLATE.search(link):
                continue
            found = parts.path + (f"?{parts.query}" if parts.query else "")
            if found in queued or AN_ID.sub("/{}", parts.path) in kinds:
                continue
            kinds.add(AN_ID.sub("/{}", parts.path))
            queued.add(found)
            todo.append(found)
    return seen


def _urls_in(value) -> list[str]:
    if isinstance(value, str):
        return [value] if value.startswith("http") else []
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return [url for item in value for url in _urls_in(item)]
    return []


def assert_every_page_answers(seen: dict[str, int], must: list[str], allowed: dict[str, int] | None = None) -> None:
    missing = [p for p in must if p not in seen]
    assert not missing, f"not opened: {missing}"
    # goto follows redirects to their page; an API address that takes only POST (an import) answers a GET with 405
    failed = {p: status for p, status in seen.items() if status >= 400
              and not (status == 405 and p.startswith("/api/")) and (allowed or {}).get(p) != status}
    assert not failed, "\n".join(f"{status} {p}" for p, status in failed.items())


def test_the_director_logs_in_and_opens_every_page_they_reach(site, browser):
    assert "as `director` / `director`" in README  # the newcomer's first step
    page = log_in(browser, site, "director", "director")
    demo = demo_facts(page, site)
    club, semi, season = demo["club"], demo["semi"]["match_id"], demo["season"]
    player, opponent = demo["semi"]["players"]
    must = [
        "/", f"/events/{club}/", f"/events/{club}/run/", "/admin/", "/admin/tournaments/tournament/",
        f"/admin/tournaments/tournament/{club}/change/", "/ratings/", "/ratings/formula/", f"/players/{player}/",
        f"/players/{player}/vs/{opponent}/", "/seasons/", "/seasons/rules/", f"/seasons/{season}/", "/api/",
        "/api/matches/", "/api/tournaments/", "/api/seasons/", "/api/ratings/", f"/api/matches/{semi}/",
        f"/api/tournaments/{club}/", f"/matches/{semi}/", f"/matches/{semi}/record/", f"/matches/{semi}/live/",
        f"/events/{club}/run/sheets/draw.pdf", "/api/docs/",
    ]
    seeds = must + [f"/events/{pk}/" for pk in demo["events"]] + [f"/events/{pk}/run/" for pk in demo["events"]]
    seen = walk(page, site, seeds)
    print(f"the director opened {len(seen)} pages")
    # the director plays in no event: the API root's "me" (the signed-in user's player) is theirs to be told so
    assert_every_page_answers(seen, must, allowed={"/api/players/me/": 404})
    assert page.script_errors == []
    assert_no_server_error(site)
    page.context.close()


def _username(display_name: str) -> str:
    """The demo member's login: their name in lower case without accents (load_demo)."""
    return unicodedata.normalize("NFKD", display_name).encode("ascii", "ignore").decode().lower()


def test_a_member_at_the_board_logs_in_and_opens_every_page_they_reach(site, browser):
    anonymous = browser.new_page()
    anonymous.goto(f"{site.url}/")
    demo = demo_facts(anonymous, site)
    club, semi = demo["club"], demo["semi"]
    seat = api(anonymous, site, f"/api/matches/{semi['match_id']}/")["players"][0]
    anonymous.close()
    member_id, opponent_id = seat["player_id"], next(p for p in semi["players"] if p != seat["player_id"])

    username = _username(seat["name"])
    assert f"`{username}`" in README and f"password `{MEMBER_PASSWORD}`" in README
    page = log_in(browser, site, username, MEMBER_PASSWORD)
    assert api(page, site, "/api/players/me/")["id"] == member_id
    must = [
        "/", f"/events/{club}/", f"/events/{club}/my-result/", "/ratings/", f"/players/{member_id}/",
        f"/players/{member_id}/vs/{opponent_id}/", "/seasons/", f"/seasons/{demo['season']}/", "/api/",
        "/api/matches/", "/api/players/me/", f"/matches/{semi['match_id']}/", f"/matches/{semi['match_id']}/record/",
    ]
    seen = walk(page, site, must + [f"/events/{pk}/" for pk in demo["events"]])
    print(f"the member opened {len(seen)} pages")
    assert_every_page_answers(seen, must)
    assert page.script_errors == []
    assert_no_server_error(site)
    page.context.close()


def test_the_director_records_a_move_at_the_board_and_reports_the_semi_final_from_the_console(site, browser):
    page = log_in(browser, site, "director", "director")
    demo = demo_facts(page, site)
    club, slot = demo["club"], demo["semi"]
    match = slot["match_id"]
    started = api(page, site, f"/api/matches/{match}/")["version"]

    # the recording screen, pressed as at the table, until a checker play is in the log: a roll may have no play
    # (the turn passes) or one only (the screen sends it itself). Opened afresh before each press, so that what is
    # pressed is for the match as the screen shows it.
    def moved() -> bool:
        events = api(page, site, f"/api/matches/{match}/events/?after={started}")
        return any(e["type"] == "CheckersMoved" for e in events)

    answered = []  # the screen's commands answered, its own sending of a forced play too
    page.on("response", lambda r: answered.append(r.request) if r.url.endswith("/commands/") and r.status == 200
            else None)
    for _ in range(20):
        if moved():
            break
        page.goto(f"{site.url}/matches/{match}/record/")
        page.wait_for_selector("#board .point")
        shown = json.loads(page.locator("#state").text_content())
        if shown["phase"] == "move" and not page.is_enabled("#play"):
            break  # a play with one way only, on its way from the screen
        press = {"opening": "#roll", "roll": "#roll", "move": "#play", "doubled": "#take"}[shown["phase"]]
        if press == "#play":
            page.fill("#move-text", shown["legal_moves"][0])
        with page.expect_response(lambda r: r.url.endswith("/commands/") and r.request.method == "POST") as answer:
            page.click(press)
        assert answer.value.status == 200, answer.value.text()
    wait_for(moved, what="a checker play recorded from the recording screen")
    assert page.script_errors == []

    # a tablet that lost the answer sends the same press again, under the same key: the first answer, nothing
    # appended (the receipt kept by raw SQL, eventlog/store.py keep_receipt)
    sent = wait_for(lambda: answered and answered[-1], what="the recording screen's answer")
    version = api(page, site, f"/api/matches/{match}/")["version"]
    again = page.request.post(sent.url, headers=sent.headers, data=sent.post_data)
    assert again.status == 200, again.text()[:500]
    first = json.loads(sent.post_data)["expected_version"]
    logged = api(page, site, f"/api/matches/{match}/events/?after={first}")[:len(again.json()["appended"])]
    assert [e["type"] for e in again.json()["appended"]] == [e["type"] for e in logged] != []
    assert api(page, site, f"/api/matches/{match}/")["version"] == version

    # the director reports the semi-final's result (on paper) from the console: the final is drawn
    length = api(page, site, f"/api/matches/{match}/")["length"]
    winner = slot["players"][0]
    page.goto(f"{site.url}/events/{club}/run/")
    form = page.locator(f"form:has(input[name=slot][value='{slot['key']}']):has(button[value=report_result])")
    form.locator("select[name=winner]").select_option(str(winner))
    form.locator("input[name=winner_points]").fill(str(length))
    form.locator("input[name=loser_points]").fill("1")
    form.locator("button[value=report_result]").click()  # sent by the console's script, the page stays

    def final_drawn():
        slots = {s["key"]: s for s in api(page, site, f"/api/tournaments/{club}/")["slots"]}
        final = next(s for s in slots.values() if s["key"].startswith("main:r3"))
        return slots[slot["key"]]["winner"] == winner and winner in final["players"] and final["match_id"] and final

    final = wait_for(final_drawn, what="the reported result to reach the bracket")
    closed = api(page, site, f"/api/matches/{match}/")
    assert closed["closed"] is not None, closed
    # the console and the final's recording screen open on it
    for path in (f"/events/{club}/run/", f"/matches/{final['match_id']}/record/", f"/events/{club}/"):
        assert page.goto(f"{site.url}{path}").status == 200, path
    assert page.script_errors == []
    assert_no_server_error(site)
    page.context.close()


def test_the_director_requires_clocks_for_a_new_event_and_its_match_opens_with_them(site, browser):
    """The clock on the embedded default: an event of the director's club with the US clock required (the console's
    clock form), its match created with the clock set, the recording screen showing it, the opening roll starting
    one side, and the console listing it."""
    page = log_in(browser, site, "director", "director")
    demo = demo_facts(page, site)
    club = api(page, site, f"/api/tournaments/{demo['club']}/")["club"]
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")

    def post(path: str, body: dict) -> dict:
        answer = page.request.post(f"{site.url}{path}", data=json.dumps(body),
                                   headers={"Content-Type": "application/json", "X-CSRFToken": csrf,
                                            "Referer": site.url + "/"})
        assert answer.status in (200, 201), (path, answer.status, answer.text()[:500])
        return answer.json()

    event = post("/api/tournaments/", {"name": "Clocked Friday", "format": "single_elimination", "club": club,
                                       "settings": {"lengths": {"main": {"default": 3}}}})["id"]
    page.goto(f"{site.url}/events/{event}/run/")
    page.select_option("#clock-use", "required")
    page.select_option("#clock-rule-preset", "us")
    page.click("#set-clocks")
    page.wait_for_selector("#clocks td:has-text('clocks required (US)')")
    players = list(demo["semi"]["players"])  # two demo members, playing in the club night too
    for player in players:
        post(f"/api/tournaments/{event}/commands/", {"type": "enter", "player": player})
    post(f"/api/tournaments/{event}/commands/", {"type": "draw", "method": "manual", "seeds": players})

    def created():
        slot = next(s for s in api(page, site, f"/api/tournaments/{event}/")["slots"] if s["key"] == "main:r1:m1")
        return slot["match_id"]

    match = wait_for(created, what="the event's match, created by the tasks run in-process")
    assert api(page, site, f"/api/matches/{match}/")["clock_rule"] == {"use": "required", "preset": "us"}
    page.goto(f"{site.url}/matches/{match}/record/")
    page.wait_for_selector("#clock:not([hidden])")
    assert [page.locator(f"#clock-{seat} .clock-time").inner_text() for seat in (0, 1)] == ["6:00", "6:00"]
    with page.expect_response(lambda r: r.url.endswith("/commands/") and r.request.method == "POST") as answer:
        page.click("#roll")
    assert answer.value.status == 200, answer.value.text()
    wait_for(lambda: api(page, site, f"/api/matches/{match}/")["clock"]["running"] is not None,
             what="the opening roll's press starting one side's clock")
    page.goto(f"{site.url}/events/{event}/run/")
    assert page.locator("td.clock span.running").count() == 1
    assert page.script_errors == []
    assert_no_server_error(site)
    page.context.close()


class _Visitor:
    """A client of its own (cookies, CSRF token), signed in through the login page when given a name, for a thread."""

    def __init__(self, site: Site, username: str | None = None, password: str | None = None):
        self.site, self.answers = site, Counter()
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        if username:
            form = self.opener.open(f"{site.url}/accounts/login/", timeout=120).read().decode()
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
            self.opener.open(f"{site.url}/accounts/login/", timeout=120, data=urlencode(
                {"csrfmiddlewaretoken": token, "username": username, "password": password}).encode())
            assert any(c.name == "sessionid" for c in self.jar), f"{username} could not log in"

    def call(self, path: str, body: dict | None = None, key: str | None = None):
        csrf = next((c.value for c in self.jar if c.name == "csrftoken"), "")
        request = urllib.request.Request(f"{self.site.url}{path}", data=json.dumps(body).encode() if body else None,
                                         headers={"Content-Type": "application/json", "X-CSRFToken": csrf,
                                                  **({"Idempotency-Key": key} if key else {})})
        try:
            with self.opener.open(request, timeout=120) as answer:
                status, text = answer.status, answer.read()
        except urllib.error.HTTPError as refused:
            status, text = refused.code, refused.read()
        self.answers[status] += 1
        return status, (json.loads(text) if text[:1] in (b"{", b"[") else None)


def _record(visitor: _Visitor, match: str, commands: int) -> None:
    """A match recorded at the board: its state read, then the next command (a random legal play)."""
    rnd = random.Random(match)
    for i in range(commands):
        _, state = visitor.call(f"/api/matches/{match}/")
        if state["finished"]:
            return
        phase = state["phase"]
        body = ({"type": "move", "move": rnd.choice(state["legal_moves"] or [""])} if phase == "move"
                else {"type": "take"} if phase == "doubled" else {"type": "roll"})
        status, answer = visitor.call(f"/api/matches/{match}/commands/", {**body, "expected_version": state["version"]},
                                      key=f"{match}-{i}")
        assert status == 200, (match, body, status, answer)


def test_a_crowd_records_and_reads_at_once(site):
    """The embedded default under a club night's crowd: the director's tablets record the open ladder and league
    matches at once while visitors read the pages; every command is judged (200), no answer is a server error and
    the server logs no traceback (SQLite's one writer at a time: the others queue, none is refused)."""
    director = _Visitor(site, "director", "director")
    _, events = director.call("/api/tournaments/")
    kept = {t["id"] for t in events if t["name"] in ("Club ladder", "Winter league")}
    _, matches = director.call("/api/matches/?limit=200")
    open_matches = [m["id"] for m in matches if m["tournament_id"] in kept and not m["finished"]][:4]
    assert len(open_matches) >= 2, matches
    pages = ["/", "/ratings/", "/seasons/", *(f"/events/{t}/" for t in kept), *(f"/matches/{m}/" for m in open_matches)]
    tablets = [_Visitor(site, "director", "director") for _ in open_matches]
    readers = [_Visitor(site) for _ in range(4)]
    failures = []

    def run(work) -> None:
        try:
            work()
        except BaseException as failure:  # noqa: BLE001 - reported by the test's thread
            failures.append(failure)

    threads = [threading.Thread(target=run, args=(lambda t=t, m=m: _record(t, m, 30),))
               for t, m in zip(tablets, open_matches)]
    threads += [threading.Thread(target=run, args=(lambda r=r, n=n: [r.call(pages[(n + i) % len(pages)])
                                                                     for i in range(20)],))
                for n, r in enumerate(readers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == [], failures
    answers = sum((v.answers for v in tablets + readers), Counter())
    assert set(answers) == {200}, answers
    assert answers[200] >= 80 + 2 * 2 * 10, answers  # the pages read, and at least ten commands a match (read, sent)
    assert_no_server_error(site)


def test_the_director_changes_their_password_in_the_admin(site, browser):
    """Last of the module: the director's password is another one afterwards. The admin saves the signed-in user
    as the session read it (players/authentication.py), dates and flags as the ORM would have them."""
    page = log_in(browser, site, "director", "director")
    page.goto(f"{site.url}/admin/password_change/")
    page.fill("#id_old_password", "director")
    page.fill("#id_new_password1", "cube-and-board-2026")
    page.fill("#id_new_password2", "cube-and-board-2026")
    with page.expect_navigation():
        page.press("#id_new_password2", "Enter")
    assert urlsplit(page.url).path == "/admin/password_change/done/", page.content()[:3000]
    page.context.close()
    again = log_in(browser, site, "director", "cube-and-board-2026")
    assert again.goto(f"{site.url}/admin/").status == 200
    assert_no_server_error(site)
    again.context.close()

