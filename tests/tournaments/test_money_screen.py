"""The director's money screen: fees and tables typed in euros (20, 20,50), the side pool, the Calcutta's auction
(a lot added, sold, bought back), a payout recorded; the printed payout sheet read back; the winner's page shows
what they won. Someone who does not run the event sees none of it.

The night is test_money_commands.py's: 8 players, entry 20.00, the house 10.00 or 5 % to the nearest 5.00, pool
150.00 paid 40/25/25/10 in whole euros: the Main winner 61.00."""

from __future__ import annotations

import pytest
from django.urls import reverse

from players.models import Player
from tests.tournaments.test_console import pdf_text
from tests.tournaments.test_money_commands import names, play_out
from tests.tournaments.test_running_events import start

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(make_user):
    return make_user("dora", official=True, player=False)


def post(client, t, **form) -> str:
    response = client.post(reverse("event-money", args=[t.pk]), form, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def test_the_director_runs_the_money_of_a_night_from_the_screen_to_the_printed_sheet(client, director):
    players = names(8)
    t = start(director, players, consolation=True, lengths={"main": {"default": 1}, "consolation": {"default": 1}})
    client.force_login(director)
    page = post(client, t, action="set_money", currency="EUR", entry="20", cut_fixed="10", cut_percent="5",
                cut_unit="5", table="main_consolation", side="5", side_table="70_30", calcutta_table="70_30",
                calcutta_percent="10", unit="1", remainder_place="1")
    assert "Done: set the money." in page
    post(client, t, action="enter_side_pool", player=str(players[4]), entered="1")
    post(client, t, action="add_lot", name="Anna", player=str(players[0]))
    post(client, t, action="add_lot", name="The field", field="1")
    post(client, t, action="sell_lot", lot="Anna", owner="Ann", syndicate="", price="50,00")
    page = post(client, t, action="buy_back", lot="Anna")
    assert "Done: buy back half." in page and "bought back" in page
    # a refusal is said, nothing recorded: the field lot cannot buy back
    page = post(client, t, action="sell_lot", lot="The field", owner="Dee", price="10")
    page = post(client, t, action="buy_back", lot="The field")
    assert "the players of the field lot cannot buy back" in page
    page = post(client, t, action="sell_lot", lot="Anna", owner="Bob", price="abc")
    assert "the price is an amount, such as 20 or 20.50" in page
    page = post(client, t, action="set_money", entry="20 euros")
    assert "Entry fee is an amount, such as 20 or 20.50" in page

    play_out(t, director)
    page = client.get(reverse("event-money", args=[t.pk])).content.decode()
    assert 'data-pool="main"><td>Main pool</td><td>160.00</td><td>10.00</td><td>150.00</td>' in page
    # the Calcutta: 50 + 10 = 60, the house's 10 % = 6 -> 5 to the nearest 5; 55 paid 70/30 in whole euros: the
    # winner's 38.50 -> 38, the finalist's (the field's: Dee) 16.50 -> 16, the remainder 1 to the winner's: 39, and
    # the winner's lot Anna was bought back: 19.50 to Ann, 19.50 to Anna
    assert 'data-pool="calcutta"><td>Calcutta</td><td>60.00</td><td>5.00</td><td>55.00</td>' in page
    shares = page[page.index('data-shares="calcutta"'):page.index("</table>", page.index('data-shares="calcutta"'))]
    assert "<td>Ann</td><td>19.50</td>" in shares and "<td>Player A</td><td>19.50</td>" in shares
    assert "<td>Dee</td><td>16.00</td>" in shares
    main = page[page.index('data-shares="main"'):page.index("</table>", page.index('data-shares="main"'))]
    assert "<td>1</td><td>Player A</td><td>61.00</td>" in main and "(Consolation)</td>" in main
    page = post(client, t, action="record_payout", player=str(players[0]), amount="61", note="cash")
    assert "Done: record the payout." in page and "Player A: 61.00 (cash)" in page

    sheet = client.get(reverse("event-sheet", args=[t.pk, "payouts"]))
    assert sheet["Content-Type"] == "application/pdf"
    text = pdf_text(sheet.content)
    for words in ("Payouts", "Main pool", "Calcutta", "Player A", "61.00", "Ann", "Anna", "bought back", "150.00",
                  "Received (signature)"):
        assert words in text, words

    winner = client.get(reverse("player-page", args=[players[0]])).content.decode()
    assert 'id="winnings"' in winner and "80.50 EUR" in winner  # 61.00 + 19.50 of Anna's lot


def test_the_money_is_the_directors_alone(client, director, make_user):
    t = start(director, names(4))
    client.force_login(make_user("pat"))
    assert client.get(reverse("event-money", args=[t.pk])).status_code == 403
    assert client.post(reverse("event-money", args=[t.pk]), {"action": "set_money", "entry": "1"}).status_code == 403
    assert client.get(reverse("event-sheet", args=[t.pk, "payouts"])).status_code == 403


def test_a_jackpot_from_the_screen_seats_bought_a_refusal_said_a_refund_the_start_and_its_share(client, director):
    """8 seats at 20.00, the house's 10.00: 150.00 to the winner of its knockout."""
    from tests.tournaments.test_running_events import settle
    from tournaments.models import Tournament
    from tournaments.selectors import money_data

    players = names(10)
    t = start(director, players, lengths={"main": {"default": 1}})
    client.force_login(director)
    page = post(client, t, action="open_jackpot", name="Friday 8", buy_in="20", size="8", table="winner_takes_all",
                cut_fixed="10", cut_percent="", length="1")
    assert "Done: open the jackpot." in page and 'data-jackpot="Friday 8"' in page
    page = post(client, t, action="open_jackpot", name="No seats", buy_in="20", size="")
    assert "Give the buy-in and the seats: nothing was recorded." in page
    for p in players[:8]:
        page = post(client, t, action="buy_jackpot", jackpot="Friday 8", player=str(p))
    assert "Done: buy into the jackpot." in page and "8 of 8 seats bought" in page
    page = post(client, t, action="buy_jackpot", jackpot="Friday 8", player=str(players[8]))
    assert "jackpot Friday 8 is full: its 8 seats are bought" in page
    page = post(client, t, action="leave_jackpot", jackpot="Friday 8", player=str(players[0]))
    assert "Done: refund the jackpot&#x27;s seat." in page and "7 of 8 seats bought" in page
    page = post(client, t, action="start_jackpot", jackpot="Friday 8")
    assert "jackpot Friday 8 starts full: 7 of its 8 seats are bought" in page
    post(client, t, action="buy_jackpot", jackpot="Friday 8", player=str(players[9]))
    page = post(client, t, action="start_jackpot", jackpot="Friday 8")
    assert "Done: start the jackpot." in page
    event = Tournament.objects.get(pk=money_data(t)["jackpots"][0]["event"])
    assert f'href="/events/{event.pk}/run/"' in page
    data = play_out(event, director)
    settle(t)
    page = client.get(reverse("event-money", args=[t.pk])).content.decode()
    shares = page[page.index('data-jackpot="Friday 8">'):]
    shares = shares[:shares.index("</table>")]
    winner = Player.objects.get(pk=data["winner"]).display_name
    assert f"<td>1</td><td>{winner}</td><td>150.00</td>" in shares
    # its own console says whose jackpot it is
    console = client.get(reverse("event-console", args=[event.pk])).content.decode()
    assert "This event is the knockout of the jackpot Friday 8 of Club night" in console
    sheet = pdf_text(client.get(reverse("event-sheet", args=[t.pk, "payouts"])).content)
    for words in ("Jackpots", "Friday 8", "160.00", "Jackpot: Friday 8", winner, "150.00"):
        assert words in sheet, words


def test_a_syndicates_bidder_and_members_on_the_screen_and_the_sheet(client, director):
    players = names(4)
    t = start(director, players, lengths={"main": {"default": 1}})
    client.force_login(director)
    post(client, t, action="set_money", entry="10")
    post(client, t, action="add_lot", name="Top", player=str(players[0]))
    page = post(client, t, action="sell_lot", lot="Top", owner="Cy", syndicate="The back room",
                members="Dee, Eve", price="40")
    assert "Done: sell the lot." in page
    assert "Cy <span class=\"muted syndicate\">(bidder for the syndicate The back room: Dee, Eve)</span>" in page
    sheet = pdf_text(client.get(reverse("event-sheet", args=[t.pk, "payouts"])).content)
    assert "Cy (bidder for the syndicate The back room: Dee, Eve)" in " ".join(sheet.split())


def test_the_live_console_shows_the_money_at_a_glance_owed_and_overpaid_after_a_correction(client, director):
    from tests.tournaments.test_money_commands import MONEY
    from tests.tournaments.test_running_events import cmd, settle

    players = names(8)
    t = start(director, players, consolation=True, lengths={"main": {"default": 1}, "consolation": {"default": 1}})
    client.force_login(director)
    console = client.get(reverse("event-console", args=[t.pk])).content.decode()
    assert 'id="money-glance"' not in console  # no money recorded: nothing to show
    cmd(t, director, **{**MONEY, "side": 0})
    data = play_out(t, director)
    main = [r["player_id"] for r in data["standings"] if r["flight"] == "main"]
    cmd(t, director, type="record_payout", player=main[0], amount=6100)
    settle(t)
    console = client.get(reverse("event-console", args=[t.pk]) + "?partial=1").content.decode()
    glance = console[console.index('id="money-glance"'):console.index("</section>", console.index('id="money-glance"'))]
    assert "Prize money 150.00 EUR" in glance and "shares 150.00" in glance and "paid 61.00" in glance
    assert f'href="{reverse("event-money", args=[t.pk])}"' in glance
    assert 'data-money="overpaid"' not in glance and "owed 89.00 to 3 payees" in glance
    final = max((s for s in data["slots"] if s["bracket"] == "main"), key=lambda s: s["round"])
    cmd(t, director, type="correct_result", slot=final["key"], winner=main[1], score=[1, 0], reason="misread")
    settle(t)
    console = client.get(reverse("event-console", args=[t.pk])).content.decode()
    glance = console[console.index('id="money-glance"'):console.index("</section>", console.index('id="money-glance"'))]
    # the old winner was paid 61.00 for a share now 37.00: 24.00 overpaid; the new winner is owed 61.00
    assert "overpaid 24.00 to 1 payee" in glance and 'class="flag"' in glance
    assert "owed 113.00 to 3 payees" in glance
    client.cookies["django_language"] = "fr"
    console = client.get(reverse("event-console", args=[t.pk])).content.decode()
    assert "trop-perçu 24,00 par 1 bénéficiaire" in console and "dû 113,00 à 3 bénéficiaires" in console
    assert 'id="money-screen">L\'écran de l\'argent<' in console
