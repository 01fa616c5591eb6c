"""A knockout's bracket as Chromium draws it, with connector lines: each pair of
matches is joined by a line from one match's middle to the other's, and the join's middle meets the match it feeds,
whatever each box holds (a bye's two lines beside a match's three: table and link). Screenshot
var/screenshots/brackets-joined.png."""

from players.models import Player
from tests.tournaments.test_event_page_brackets import one_game_by_backgammon
from tests.tournaments.test_running_events import cmd, settle, start

from .test_club_night_in_a_browser import shot
from .test_live_in_a_browser import browser, open_page  # noqa: F401 (a fixture)

# every join of the page, measured: [pair's join top, first match's middle, join bottom, second match's middle,
# join's middle, the fed match's middle, the fed match's stub's left end, the join's x], in CSS pixels
JOINS = """() => Array.from(document.querySelectorAll('.bracket.joined')).flatMap((bracket) => {
  const rounds = Array.from(bracket.querySelectorAll('.round'));
  const mid = (e) => { const r = e.getBoundingClientRect(); return r.top + r.height / 2; };
  return rounds.slice(0, -1).flatMap((round, r) => Array.from(round.querySelectorAll('.pair')).map((pair, p) => {
    const join = getComputedStyle(pair, '::after'), box = pair.getBoundingClientRect();
    const [a, b] = pair.querySelectorAll('.match');
    const fed = rounds[r + 1].querySelectorAll('.match')[p];
    const top = box.top + parseFloat(join.top), bottom = box.bottom - parseFloat(join.bottom);
    const stub = getComputedStyle(fed, '::before');
    return [top, mid(a), bottom, mid(b), (top + bottom) / 2, mid(fed),
            fed.getBoundingClientRect().left - parseFloat(stub.width), box.left + parseFloat(join.left)];
  }));
})"""


def test_a_knockouts_pairs_are_joined_to_the_matches_they_feed(live_server, make_user, browser):  # noqa: F811
    director = make_user("dora", player=False)
    players = [Player.objects.create(display_name=f"Seed {i}").pk for i in range(1, 7)]  # two byes in an 8-draw
    t = start(director, players, lengths={"main": {"default": 5}})
    t.published = True
    t.save(update_fields=["published"])
    data = settle(t)
    ready = sorted((s for s in data["slots"] if s["status"] == "ready" and s["round"] == 1), key=lambda s: s["index"])
    cmd(t, director, type="report_result", slot=ready[1]["key"], winner=ready[1]["players"][0], score=[5, 1])
    one_game_by_backgammon(director, ready[0]["match_id"], winner_seat=0)
    settle(t)

    page = open_page(browser, live_server, login=False, width=1024, height=900)
    page.goto(f"{live_server.url}/events/{t.pk}/")
    page.wait_for_selector(".bracket.joined .match")
    assert page.locator(".bracket .round-name").all_inner_texts() == ["Quarter-final", "Semi-final", "Final"]
    heights = {round(b["height"]) for b in (m.bounding_box() for m in page.locator(".bracket .match").all())}
    assert len(heights) > 1, "boxes of different heights: a bye's and a match's with its table"
    joins = page.evaluate(JOINS)
    assert len(joins) == 2 + 1  # the quarter-finals' two pairs, the semi-finals' one
    for top, first, bottom, second, middle, fed, stub_end, join_x in joins:
        assert abs(top - first) <= 1.5 and abs(bottom - second) <= 1.5, joins  # the join ends at each match
        assert abs(middle - fed) <= 1.5, joins  # and its middle meets the match it feeds
        assert abs(stub_end - join_x) <= 1.5, joins  # whose stub reaches the join
    # the live match shows its score so far (3-0: a backgammon), not only "live"
    live = page.locator(f".match[data-slot='{ready[0]['key']}']")
    scores = live.locator("div > span:nth-child(2)").all_inner_texts()[:2]
    assert "live · 5 pts" in live.inner_text() and sorted(scores) == ["0", "3"], scores
    shot(page, "brackets-joined")
    assert page.errors == []
