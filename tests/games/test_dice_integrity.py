"""Server dice come from a seed committed before the game and revealed after it: anyone can verify them."""

import random

import pytest

from eventlog import store
from eventlog.models import Event
from games import dice, loading, seeds
from games.loading import match_load

from .recorder import Recorder

pytestmark = pytest.mark.django_db


def new_match(api, user, seats, length=1) -> Recorder:
    body = {"player0": seats[0].player.pk, "player1": seats[1].player.pk, "length": length}
    client = api(user)
    return Recorder(client, client.post("/api/matches/", body, format="json").json())


def test_each_game_commits_to_a_seed_before_its_first_roll_and_reveals_it_at_the_end(api, make_user):
    seats = make_user("alice"), make_user("bob")
    staff = make_user("root", official=True, player=False)
    m = new_match(api, staff, seats, length=3)
    m.play_random(random.Random(5))
    rows = store.read_stream(m.id)
    kinds = [r.event_type for r in rows]
    first_roll = next(i for i, k in enumerate(kinds) if k in ("GameStarted", "OpeningRollTied"))
    assert kinds.index("DiceSeedCommitted") < first_roll
    checks = dice.verify(rows)
    assert checks and all(c["verified"] for c in checks), checks
    assert len(checks) == kinds.count("GameWon") == kinds.count("DiceSeedRevealed")
    assert sum(c["rolls"] for c in checks) == sum(1 for r in rows if r.payload.get("source") == "server")


def test_a_process_that_forgets_what_it_knew_mid_game_goes_on_with_the_seeds_next_rolls(api, make_user):
    """The index of a server roll is read from the log (the game's server rolls so far): a web worker that
    restarts, or never saw the match, draws the same next roll as the one that recorded the last."""
    seats = make_user("alice"), make_user("bob")
    staff = make_user("root", official=True, player=False)
    m = new_match(api, staff, seats, length=3)
    rnd = random.Random(11)
    while not m.match["finished"]:
        if rnd.random() < 0.3:
            loading.SNAPSHOTS.forget()
            seeds._SEEDS.clear()
        m.step_random(rnd)
    rows = store.read_stream(m.id)
    checks = dice.verify(rows)
    assert checks and all(c["verified"] for c in checks), checks


def test_the_seed_stays_secret_while_the_game_is_played(api, make_user):
    seats = make_user("alice"), make_user("bob")
    m = new_match(api, seats[0], seats)
    m.send(type="roll")
    rows = store.read_stream(m.id)
    assert [c["verified"] for c in dice.verify(rows)] == [None]
    assert not Event.objects.filter(stream_id=m.id, event_type="DiceSeedRevealed").exists()
    assert m.client.get(f"/api/matches/{m.id}/dice/").json()[0]["seed"] is None


def test_a_tampered_roll_or_seed_is_caught():
    seed = dice.new_seed()

    class Row:
        def __init__(self, version, kind, payload):
            self.version, self.event_type, self.payload = version, kind, payload

    honest = [Row(3, "DiceSeedCommitted", {"game": 1, "commitment": dice.commitment(seed)}),
              Row(4, "GameStarted", {"game": 1, "dice": list(dice.roll(seed, 0)), "source": "server"}),
              Row(6, "DiceRolled", {"player": 0, "dice": list(dice.roll(seed, 1)), "source": "server"}),
              Row(9, "DiceSeedRevealed", {"game": 1, "seed": seed})]
    assert dice.verify(honest)[0]["verified"]
    forged = list(honest)
    a, b = dice.roll(seed, 1)
    other = [1, 1] if sorted((a, b)) != [1, 1] else [2, 2]
    forged[2] = Row(6, "DiceRolled", {"player": 0, "dice": other, "source": "server"})
    assert dice.verify(forged)[0] == {
        "game": 1, "commitment": dice.commitment(seed), "seed": seed, "rolls": 2,
        "server_rolls": [{"version": 4, "dice": list(dice.roll(seed, 0))}, {"version": 6, "dice": other}],
        "board_rolls": [], "verified": False, "problem": "the rolls at versions [6] do not come from the seed"}
    # a roll typed in from the board among the server's (a stream from before the source was fixed per match)
    mixed = honest[:2] + [Row(6, "DiceRolled", {"player": 0, "dice": [6, 6], "source": "physical"})] + honest[3:]
    line = dice.verify(mixed)[0]
    assert line["verified"] is False and line["board_rolls"] == [{"version": 6, "dice": [6, 6], "source": "physical"}]
    assert "versions [6] were not the server's" in line["problem"]
    swapped = honest[:3] + [Row(9, "DiceSeedRevealed", {"game": 1, "seed": dice.new_seed()})]
    assert dice.verify(swapped)[0]["problem"] == "the revealed seed does not match the commitment"


def test_the_dice_are_uniform_enough():
    counts = [0] * 7
    seed = dice.new_seed()
    for k in range(6000):
        for d in dice.roll(seed, k):
            counts[d] += 1
    assert all(1700 < c < 2300 for c in counts[1:])  # 2000 expected per face; 6 sigma is about 260


def test_a_voided_match_reveals_its_open_seed(api, make_user):
    seats = make_user("alice"), make_user("bob")
    staff = make_user("root", official=True, player=False)
    m = new_match(api, staff, seats, length=5)
    m.send(type="roll")
    m.send(type="void", reason="wrong table")
    checks = dice.verify(store.read_stream(m.id))
    assert checks[0]["seed"] is not None and checks[0]["verified"]


def test_dice_proof_through_the_api(api, make_user):
    seats = make_user("alice"), make_user("bob")
    staff = make_user("root", official=True, player=False)
    m = new_match(api, staff, seats, length=1)
    m.play_random(random.Random(2))
    proof = api().get(f"/api/matches/{m.id}/dice/").json()
    assert proof and all(line["verified"] for line in proof)
    assert match_load(m.id).finished


def test_the_dice_proof_page_by_page_is_the_proof_of_the_whole_stream(api, make_user):
    """Each page reads only its games' events (and their seeds' reveals), yet says what the whole stream says."""
    import re

    seats = make_user("alice"), make_user("bob")
    staff = make_user("root", official=True, player=False)
    m = new_match(api, staff, seats, length=5)
    while not m.match["finished"]:  # five games: each opened by the server's dice, then a single resigned
        m.send(type="roll")
        loser = m.match["turn"]
        m.send(type="resign", kind="single", player=loser)
        m.send(type="accept_resignation", player=1 - loser)
    whole = dice.verify(store.read_stream(m.id))
    assert len(whole) >= 3
    paged, url = [], f"/api/matches/{m.id}/dice/?limit=1"
    while url:
        response = api().get(url)
        assert len(response.json()) == 1
        paged += response.json()
        found = re.search(r"<([^>]+)>", response.get("Link", ""))
        url = found.group(1) if found else None
    assert paged == whole and all(line["verified"] for line in paged)
