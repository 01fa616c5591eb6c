"""Recording at the table, measured: taps per move and milliseconds per submission over a recorded match.

    .venv/bin/python bench/recording.py [--mat tests/fixtures/gnubg/matches/match_023_5pt.mat] [--games 2]
                                        [--viewport 1024x768] [--server URL] [--watch] [--clock us]

Without ``--server``: a fresh database ``crawford_bench_recording`` on the PostgreSQL server of DATABASE_URL
(default 127.0.0.1:5432), ``manage.py load_demo`` (the demo club), and gunicorn as in production
(deploy/services/gunicorn.conf.py, DEBUG=0; REDIS_URL passed through when set). With ``--server``: that running
site. The recorder is a federation official of the bench's own (the "Officials" group, made in the site's database):
it may record any match, as the demo director, who directs only the demo club's events, may not.

The match is one GNU Backgammon played (a ``.mat`` of tests/fixtures/gnubg/matches/: gnubg's plays are a strong
player's, so "typical" moves), replayed through the recording screen in Debian's Chromium (Playwright, a touch
tablet of the given size) as a recorder would: the dice from the board on the dice pad, each play by tapping a
checker and then where it goes (a checker's whole way when it moves with several dice), the cube's buttons.
Counted: every tap the recorder makes. Timed: every command's answer as the browser saw it (request sent to the
last byte of the answer, Resource Timing through Playwright), and the screen's own work before the request and after
the answer (record.js's User Timing measures). With ``--clock PRESET``, the match is played with that clock, set on
the screen before the first game (one tap, counted with the cube's), each press made by the screen with the play
that ends a turn ("press the clock with each play", on by default): counted apart, as the presses sent and their
answers. With ``--watch``, a big screen in another browser context follows the
match's live board: timed, each submission (the tablet's request, as the browser started it) to the live board
drawing it (its first redraw at that version or later), both read from the one machine's clock.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PYTHON = str(ROOT / ".venv" / "bin" / "python")
CHROMIUM = "/usr/bin/chromium"

from bench.common import code_version, recreate_database  # noqa: E402
from games.engine import events as ev  # noqa: E402
from games.engine.match import MatchState, evolve  # noqa: E402
from games.engine.matfile import read_mat  # noqa: E402
from games.engine.state_ids import position_id_of  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mat", default=str(ROOT / "tests/fixtures/gnubg/matches/match_023_5pt.mat"))
    parser.add_argument("--games", type=int, default=0, help="stop after this many games (0: the whole match)")
    parser.add_argument("--viewport", default="1024x768")
    parser.add_argument("--server", help="a running site to record on (its demo director records)")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"))
    parser.add_argument("--database-name", default="crawford_bench_recording")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--shots", help="a folder for a screenshot after each game")
    parser.add_argument("--clock", help="a clock preset (games.engine.clock.PRESETS) to play the match with")
    parser.add_argument("--watch", action="store_true",
                        help="a live board in another browser context: how soon it shows each submission")
    args = parser.parse_args()

    record = read_mat(Path(args.mat).read_text())
    server = None
    if args.server:
        url = args.server.rstrip("/")
        env = None
    else:
        url, server, env = _serve(args)
    try:
        result = _record(url, record, args, env)
    finally:
        if server is not None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:  # a worker still holding a follower's stream open: gunicorn waits for it
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=10)
    _report(result, args)


def _serve(args):
    db = urlparse(args.database_url)
    env = dict(os.environ, DATABASE_URL=urlunparse(db._replace(path="/" + args.database_name)), DEBUG="0",
               SECURE_SSL_REDIRECT="0", ALLOWED_HOSTS="127.0.0.1", GUNICORN_WORKERS=str(args.workers),
               SECRET_KEY=os.environ.get("SECRET_KEY") or "bench-" + secrets.token_hex(24),
               CSRF_TRUSTED_ORIGINS="http://127.0.0.1")
    recreate_database(db, args.database_name)
    subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([PYTHON, "manage.py", "load_demo"], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    subprocess.run([PYTHON, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env["GUNICORN_BIND"] = f"127.0.0.1:{port}"
    server = subprocess.Popen([str(ROOT / ".venv/bin/gunicorn"), "-c", "deploy/services/gunicorn.conf.py",
                               "deploy.wsgi:application", "--access-logfile", "/dev/null"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    return f"http://127.0.0.1:{port}", server, env


def _journeys(steps) -> list[list[int]]:
    """The play as each checker's way: (from, to) steps chained where one starts where another ended."""
    ways: list[list[int]] = []
    for f, t in steps:
        for way in ways:
            if way[-1] == f and f != 0:
                way.append(t)
                break
        else:
            ways.append([f, t])
    return ways


def _record(url: str, record, args, env) -> dict:
    from playwright.sync_api import sync_playwright

    width, height = (int(x) for x in args.viewport.split("x"))
    answers: list[float] = []
    kinds: list[str] = []  # each answer's command (its type; a move's play), to name the slow ones
    submitted_at: list[tuple[float, int]] = []  # (epoch ms the request started, the version it was sent against)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
        page = context.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        sent = {"n": 0, "done": 0}
        presses: list[float] = []  # the clock's presses, sent by the screen itself: answered, never tapped

        def is_press(request) -> bool:
            return (request.post_data_json or {}).get("type") == "press_clock"

        def finished(request):
            if request.method == "POST" and "/commands/" in request.url and is_press(request):
                presses.append(request.timing["responseEnd"])
            elif request.method == "POST" and "/commands/" in request.url:
                answers.append(request.timing["responseEnd"])
                body = request.post_data_json or {}
                kinds.append(" ".join(str(body.get(k)) for k in ("type", "move", "dice") if body.get(k)))
                submitted_at.append((request.timing["startTime"], body.get("expected_version", 0)))
                sent["done"] += 1

        page.on("request", lambda r: sent.__setitem__("n", sent["n"] + 1)
                if r.method == "POST" and "/commands/" in r.url and not is_press(r) else None)
        page.on("requestfinished", finished)
        recorder, password, players = _recorder_and_players(env)
        page.goto(f"{url}/accounts/login/")
        page.fill("#id_username", recorder)
        page.fill("#id_password", password)
        page.click("button[type=submit]")
        page.wait_for_load_state()
        match_id = _new_match(page, url, record, players)
        watcher = _watch(browser, url, match_id) if args.watch else None
        page.goto(f"{url}/matches/{match_id}/record/")
        page.wait_for_selector("#board .point")
        clock_taps = 0
        if args.clock:
            page.select_option("#clock-preset", args.clock)
            page.locator("#set-clock").tap()
            page.wait_for_selector("#clock:not([hidden])")
            clock_taps = 1
            sent["n"] = sent["done"] = 0
            answers.clear()
            kinds.clear()
            submitted_at.clear()
            page.evaluate("performance.clearMeasures()")

        def settle(expected: int) -> None:
            deadline = time.monotonic() + 10
            while sent["done"] < expected or sent["n"] > sent["done"]:
                if time.monotonic() > deadline:
                    raise SystemExit(f"no answer to command {expected}: {page.locator('#status').inner_text()}"
                                     + (f"; page errors: {errors}" if errors else ""))
                page.wait_for_timeout(5)
            # the answer handled by the screen (its User Timing measure), not only received by the browser: a roll
            # with one legal play sends that play while handling it, and a tap before then would land on the roll
            while page.evaluate("performance.getEntriesByName('crawford:after-answer').length") < sent["done"]:
                if time.monotonic() > deadline:
                    raise SystemExit(f"answer {expected} not drawn: {page.locator('#status').inner_text()}"
                                     + (f"; page errors: {errors}" if errors else ""))
                page.wait_for_timeout(2)

        def submitted() -> bool:
            # the screen says so at once ("Recording …"), before the browser's request reaches this script
            return sent["n"] >= commands or page.locator("#status").inner_text().lower().startswith("recording")

        def tap(selector: str) -> None:
            if os.environ.get("BENCH_DEBUG"):
                print("  tap", selector, _composed(page), page.locator("#status").inner_text(), file=sys.stderr)
            try:
                page.locator(selector).first.tap(timeout=5000)
            except Exception:
                raise SystemExit(f"cannot tap {selector} at {event}: {page.locator('#status').inner_text()}"
                                 + (f"; page errors: {errors}" if errors else "")) from None

        turn = 0
        commands = 0  # the commands the match has had: each roll, play and cube action is one
        move_taps: list[int] = []
        roll_taps: list[int] = []
        other_taps = 0
        fallbacks = 0
        games = 0
        replayed = MatchState()
        for event in record.events:
            replayed = evolve(replayed, event)
            if isinstance(event, (ev.GameStarted, ev.DiceRolled, ev.OpeningRollTied)):
                dice = (event.die, event.die) if isinstance(event, ev.OpeningRollTied) else event.dice
                commands += 1
                expected = commands
                for d in dice:
                    tap(f".die-key[data-die='{d}']")
                roll_taps.append(2)
                settle(expected)
                if isinstance(event, ev.GameStarted):
                    turn = 0 if dice[0] > dice[1] else 1
                elif isinstance(event, ev.DiceRolled):
                    turn = event.player
            elif isinstance(event, ev.CheckersMoved):
                commands += 1
                expected = commands
                taps = 0
                if sent["n"] >= expected or "one way to play" in page.locator("#status").inner_text():
                    # forced: the screen records it by itself
                    settle(expected)
                    move_taps.append(0)
                    continue
                board = (lambda mp: mp) if event.player == 0 else (lambda mp: 25 - mp)
                where = (lambda mp: "#board g.bar" if mp == 25 else "#board g.tray" if mp == 0
                         else f"#board g.point[data-point='{board(mp)}']")
                ways = _journeys(event.steps)
                ends = {way[-1] for way in ways}
                if len(ways) >= 2 and len(ends) == 1 and 0 not in ends and not _holds(page, where(ways[0][-1]), event.player):
                    tap(where(ways[0][-1]))  # a point made: tapped, the screen finds the play
                    taps += 1
                    page.wait_for_timeout(5)
                # from the bar first and bearing off last (the rules' order), else the larger die first, as the
                # screen moves a tapped checker
                for way in sorted(ways, key=lambda w: (w[0] == 25, w[-1] != 0, w[0] - w[1]), reverse=True):
                    if submitted():
                        break
                    before = len(_composed(page))
                    tap(where(way[0]))
                    taps += 1
                    for _ in range(6):
                        if submitted():
                            break
                        at = way[0]
                        for f, t in _composed(page)[before:]:
                            at = t if f == at else at
                        if at == way[-1]:
                            break
                        # its way's furthest marked place (further than it is now), else on from where it is
                        target = next((mp for mp in reversed(way[1:]) if mp != at and (at not in way or
                                       way.index(mp) > way.index(at)) and "target" in
                                       (page.locator(where(mp)).first.get_attribute("class") or "")), None)
                        if target is None and at in way[1:-1]:
                            tap(where(at))  # on along its way
                        else:
                            if target is None and page.locator("#other-die").is_visible():
                                tap("#other-die")  # its place holds checkers of its own: the other die
                                taps += 1
                                continue
                            if target is None:
                                break
                            tap(where(target))
                        taps += 1
                if not submitted():  # the taps did not make the play: typed, and counted as such
                    fallbacks += 1
                    if os.environ.get("BENCH_DEBUG"):
                        print("typed:", event.move, event.steps, "|", page.locator("#status").inner_text(), file=sys.stderr)
                    page.fill("#move-text", event.move)
                    tap("#play")
                    taps += 1
                settle(expected)
                move_taps.append(taps)
                now = page.request.get(f"{url}/api/matches/{match_id}/").json()["position_id"]
                if now != position_id_of(replayed):  # the screen recorded another play than the file's
                    raise SystemExit(f"after {event.move} ({taps} taps) the match is at {now}, the file at "
                                     f"{position_id_of(replayed)}; composed {_composed(page)}")
                if os.environ.get("BENCH_DEBUG"):
                    print(f"{event.move}: {taps} taps", sent, file=sys.stderr)
            elif isinstance(event, (ev.DoubleOffered, ev.DoubleTaken, ev.DoubleDropped, ev.ResignationAccepted,
                                    ev.ResignationDeclined)):
                button = {ev.DoubleOffered: "#double", ev.DoubleTaken: "#take", ev.DoubleDropped: "#drop",
                          ev.ResignationAccepted: "#accept", ev.ResignationDeclined: "#decline"}[type(event)]
                commands += 1
                expected = commands
                tap(button)
                other_taps += 1
                settle(expected)
            elif isinstance(event, ev.ResignationOffered):
                commands += 1
                expected = commands
                page.select_option("#resign-kind", event.kind)
                tap("#resign")
                other_taps += 2
                settle(expected)
            elif isinstance(event, ev.GameWon):
                games += 1
                if args.shots:
                    Path(args.shots).mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=f"{args.shots}/recording-game-{games}.png")
                if args.games and games >= args.games:
                    break
        state = page.request.get(f"{url}/api/matches/{match_id}/").json()
        page.wait_for_timeout(100)  # the last answer painted
        # the screen's own work around each command (User Timing marks of record.js)
        client = page.evaluate("""() => Object.fromEntries(["tap", "before-send", "after-answer", "answer-to-paint"]
            .map((n) => [n, performance.getEntriesByName("crawford:" + n).map((e) => e.duration)]))""")
        shown = _shown(watcher, submitted_at, state["version"]) if watcher is not None else None
        browser.close()
    if errors:
        raise SystemExit(f"page errors: {errors}")
    if not args.games and tuple(state["score"]) != tuple(record.state.score):
        raise SystemExit(f"the match recorded ends {state['score']}, the file's {record.state.score}: a play went astray")
    return {"moves": move_taps, "rolls": roll_taps, "other": other_taps + clock_taps, "answers": answers, "kinds": kinds,
            "games": games, "presses": presses, "clock": args.clock,
            "fallbacks": fallbacks, "score": state["score"], "turns": len(roll_taps), "client": client, "shown": shown}


def _watch(browser, url: str, match_id: str):
    """The match's live board in a browser context of its own (a big screen), noting each redraw: (version, epoch
    ms), as live-board.js sets them on the page's body."""
    watcher = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    watcher.set_default_timeout(15_000)
    watcher.goto(f"{url}/matches/{match_id}/live/")
    watcher.wait_for_selector("#board .point")
    watcher.evaluate("""() => { window.drawn = []; new MutationObserver(() => window.drawn.push(
        [+document.body.dataset.version, +document.body.dataset.drawnAt])).observe(document.body,
        {attributes: true, attributeFilter: ["data-drawn-at"]}); }""")
    return watcher


def _shown(watcher, submitted_at: list[tuple[float, int]], last_version: int) -> list[float]:
    """For each submission, ms until the live board first drew its version or a later one."""
    watcher.wait_for_function("(v) => +document.body.dataset.version >= v", arg=last_version)
    drawn = watcher.evaluate("window.drawn")
    delays = []
    for started, expected in submitted_at:
        at = next((at for version, at in drawn if version > expected and at >= started), None)
        if at is not None:
            delays.append(at - started)
    return delays


def _composed(page) -> list[tuple[int, int]]:
    """The steps the screen has composed so far (its move field), as (from, to): 25 the bar, 0 off."""
    spot = lambda x: 25 if x == "bar" else 0 if x == "off" else int(x)  # noqa: E731
    return [tuple(spot(x) for x in part.split("/")) for part in page.locator("#move-text").input_value().split()]


def _holds(page, selector: str, player: int) -> bool:
    return page.locator(f"{selector} circle.c{player}").count() > 0


def _recorder_and_players(env) -> tuple[str, str, list[int]]:
    """A federation official's account for the bench (its password new at every run) and two of the demo club's
    players, in the site's database (DATABASE_URL with --server)."""
    password = secrets.token_urlsafe(16)
    code = (
        "import sys\n"
        "from django.contrib.auth import get_user_model\n"
        "from django.contrib.auth.models import Group\n"
        "from players.models import Player\n"
        "u, _ = get_user_model().objects.get_or_create(username='bench-recorder')\n"
        "u.set_password(sys.argv[-1]); u.save(); u.groups.add(Group.objects.get(name='Officials'))\n"
        "print(*Player.objects.order_by('pk').values_list('pk', flat=True)[:2])\n"
    )
    out = subprocess.run([PYTHON, "-c", "import django, os, sys; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
                          "'deploy.settings'); django.setup(); exec(sys.argv[1])", code, password],
                         cwd=ROOT, env=env or os.environ, check=True, capture_output=True, text=True).stdout
    return "bench-recorder", password, [int(x) for x in out.split()[-2:]]


def _new_match(page, url: str, record, players: list[int]) -> str:
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    response = page.request.post(f"{url}/api/matches/", headers={"X-CSRFToken": csrf, "Referer": url + "/", "Content-Type": "application/json"},
                                 data=json.dumps({"player0": players[0], "player1": players[1],
                                                  "length": record.events[0].length, "dice": "board"}),
                                 )
    if not response.ok:
        raise SystemExit(f"match not created: {response.status} {response.text()}")
    return response.json()["id"]


def _report(r: dict, args) -> None:
    moves, answers = r["moves"], sorted(r["answers"])
    print(f"recording bench: {Path(args.mat).name}, {r['games']} game(s), viewport {args.viewport} (touch), "
          f"{code_version()}")
    print(f"moves {len(moves)}: taps per move mean {statistics.mean(moves):.2f}, median {statistics.median(moves):g}, "
          f"max {max(moves)}; forced (0 taps) {moves.count(0)}, one tap {moves.count(1)}, two {moves.count(2)}, "
          f"three {moves.count(3)}, four or more {sum(1 for m in moves if m >= 4)}; typed instead {r['fallbacks']}")
    print(f"rolls {len(r['rolls'])}: 2 taps each on the dice pad; cube and resignation taps {r['other']}; "
          f"taps per turn (roll + move) {(sum(moves) + sum(r['rolls'])) / max(1, len(moves)):.2f}")
    q = lambda f: answers[min(len(answers) - 1, int(f * len(answers)))]  # noqa: E731
    print(f"submissions {len(answers)}: ms per answer mean {statistics.mean(answers):.1f}, median "
          f"{statistics.median(answers):.1f}, p90 {q(0.9):.1f}, p99 {q(0.99):.1f}, max {answers[-1]:.1f} "
          f"(under 100 ms: {sum(1 for a in answers if a < 100)}/{len(answers)})")
    slow = [f"#{i} {a:.0f} ms ({kind})" for i, (a, kind) in enumerate(zip(r["answers"], r["kinds"]), start=1)
            if a >= 100]
    if slow:  # which ones: a worker's first command pays its imports, a game's end its seed's reveal
        print(f"submissions of 100 ms or more, in the order sent: {', '.join(slow)}")
    for name, what in (("tap", "a tap on the board to the board redrawn"), ("before-send", "the press to the request sent"), ("after-answer", "the answer to the board redrawn"),
                       ("answer-to-paint", "the answer to the next frame painted")):
        ms = sorted(r["client"][name])
        if ms:
            print(f"screen's own work, {what} ({len(ms)}): median {statistics.median(ms):.1f} ms, "
                  f"p90 {ms[min(len(ms) - 1, int(0.9 * len(ms)))]:.1f}, max {ms[-1]:.1f}")
    if r["clock"]:
        ms = sorted(r["presses"])
        print(f"clock {r['clock']}: presses sent by the screen {len(ms)} (0 taps each; setting the clock: 1 tap), "
              f"ms per answer median {statistics.median(ms):.1f}, p99 {ms[min(len(ms) - 1, int(0.99 * len(ms)))]:.1f}, "
              f"max {ms[-1]:.1f} (under 100 ms: {sum(1 for a in ms if a < 100)}/{len(ms)})" if ms else
              f"clock {r['clock']}: no press was sent")
    if r["shown"] is not None and not r["shown"]:
        print("live board: no submission seen drawn")
    elif r["shown"] is not None:
        ms = sorted(r["shown"])
        print(f"live board, submission to drawn ({len(ms)}): median {statistics.median(ms):.0f} ms, "
              f"p90 {ms[min(len(ms) - 1, int(0.9 * len(ms)))]:.0f}, max {ms[-1]:.0f} "
              f"(within a second: {sum(1 for m in ms if m < 1000)}/{len(ms)})")


if __name__ == "__main__":
    main()
