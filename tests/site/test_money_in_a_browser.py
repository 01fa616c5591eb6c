"""The money of a 12-player club night in a real browser, from the auction to the printed payout sheet.

The director sets the fees and tables on the money screen (entry 20, the house 10 or 5 % to the nearest 5, the
side pool 5 paid 70/30, the Calcutta's 10 %), enters four players in the side pool, holds the Calcutta's auction
(a lot for the top seed, a pair, the field; sold, the top seed buys back half), the night is played out (results
from paper), and the screen shows every pool, share and balance; a payout is recorded; the printed payout sheet
is read back.

The figures, by hand: 12 x 20 = 240 in the main pool, 5 % = 12 -> 10 to the nearest 5, so the house's 10: 230
paid 40/25/25/10 in whole euros: the Main winner 92, the finalist 57.50 -> 57, the Consolation winner 57, its
finalist 23; 229 paid, the remainder 1 to the Main winner: 93. The side pool: 4 x 5 = 20, less the house's 10:
10. The Calcutta: 60 + 30 + 10 = 100, 10 % = 10 (to the nearest 5: 10), 90 paid 70/30: 63 to the winner's lot,
27 to the finalist's. The top seed wins every match: their lot was bought back, so Ann and the winner take 31.50
each.

The pair's lot is bought by a syndicate through its bidder Cy (with Gus and Hal): Cy is the owner, and the sheet
names the syndicate, its bidder and its members.

A jackpot of 8 seats at 20 (the house's 10): Eva to Lea buy its seats on the screen (a ninth is refused: it is
full), one is refunded and bought again, it starts (its knockout among the eight, drawn as an event of its own),
is played out, and its 150 goes to its winner: on the screen, paid in the browser, on the sheet, on their page.

Headless Debian Chromium driven by Playwright against the live server; screenshots in var/screenshots/money-*.
"""

import pytest

from players.models import Player
from tournaments.models import Tournament
from tests.site.test_club_night_in_a_browser import browser_page, shot  # noqa: F401 - the fixture
from tests.site.test_console_in_a_browser import pdf_text
from tests.tournaments.test_money_commands import play_out
from tests.tournaments.test_running_events import start

NAMES = ["Ada", "Bruno", "Chloé", "Dimitri", "Eva", "Farid", "Greta", "Hugo", "Ines", "Jules", "Karim", "Lea"]


def login(page, url: str, next_path: str) -> None:
    page.goto(f"{url}/accounts/login/?next={next_path}")
    page.fill("#id_username", "dora")
    page.fill("#id_password", "dora-pass-1234")
    page.press("#id_password", "Enter")


def said(page) -> str:
    return page.locator("#console-messages").inner_text()


@pytest.mark.django_db(transaction=True)
def test_a_twelve_player_night_with_a_side_pool_and_a_calcutta_from_the_auction_to_the_payout_sheet(
        live_server, browser_page, make_user):  # noqa: F811
    page, url = browser_page, live_server.url
    director = make_user("dora", official=True, player=False)
    director.set_password("dora-pass-1234")
    director.save()
    players = [Player.objects.create(display_name=n).pk for n in NAMES]
    t = start(director, players, consolation=True, lengths={"main": {"default": 1}, "consolation": {"default": 1}})

    login(page, url, f"/events/{t.pk}/run/")
    page.click("#event-money")
    form = page.locator("#money-settings")
    form.locator("input[name=entry]").fill("20")
    form.locator("input[name=cut_fixed]").fill("10")
    form.locator("input[name=cut_percent]").fill("5")
    form.locator("input[name=cut_unit]").fill("5")
    form.locator("input[name=side]").fill("5")
    form.locator("select[name=side_table]").select_option("70_30")
    form.locator("input[name=calcutta_percent]").fill("10")
    form.locator("input[name=unit]").fill("1")
    form.locator("#set-money").click()
    assert "Done: set the money." in said(page)

    for p in players[8:]:  # Ines, Jules, Karim and Lea in the side pool
        page.click(f"button[data-side-enter='{p}']")
        assert "Done: enter the side pool." in said(page)

    # the auction: the lots, then each sold as the hammer falls
    lots = page.locator("#add-lot")
    lots.locator("input[name=name]").fill("Ada")
    lots.locator("select[name=player]").select_option(str(players[0]))
    lots.locator("#add-lot-button").click()
    lots = page.locator("#add-lot")
    lots.locator("input[name=name]").fill("Bruno and Chloé")
    lots.locator("select[name=player]").select_option(str(players[1]))
    lots.locator("select[name=partner]").select_option(str(players[2]))
    lots.locator("#add-lot-button").click()
    lots = page.locator("#add-lot")
    lots.locator("input[name=name]").fill("The field")
    lots.locator("input[name=field]").check()
    lots.locator("#add-lot-button").click()
    for lot, owner, syndicate, members, price in (
            ("Ada", "Ann", "", "", "60"), ("Bruno and Chloé", "Cy", "The back room", "Gus, Hal", "30"),
            ("The field", "Dee", "", "", "10")):
        row = page.locator(f"#lots tr[data-lot='{lot}']")
        row.locator("input[name=owner]").fill(owner)
        row.locator("input[name=syndicate]").fill(syndicate)
        row.locator("input[name=members]").fill(members)
        row.locator("input[name=price]").fill(price)
        row.locator("button[value=sell_lot]").click()
        assert "Done: sell the lot." in said(page)
    assert page.locator("#lots tr[data-lot='The field'] button[value=buy_back]").count() == 0  # never the field's
    page.locator("#lots tr[data-lot='Ada'] button[value=buy_back]").click()
    assert "Done: buy back half." in said(page)
    assert "Ada 30.00" in page.locator("#buy-backs").inner_text()
    assert "(bidder for the syndicate The back room: Gus, Hal)" in \
        page.locator("#lots tr[data-lot='Bruno and Chloé']").inner_text()
    shot(page, "money-auction")

    # the jackpot: opened, its eight seats bought (a ninth refused), one refunded and bought again, started
    jackpot = page.locator("#open-jackpot")
    jackpot.locator("input[name=name]").fill("Jackpot 8")
    jackpot.locator("input[name=buy_in]").fill("20")
    jackpot.locator("input[name=size]").fill("8")
    jackpot.locator("input[name=cut_fixed]").fill("10")
    jackpot.locator("input[name=length]").fill("1")
    jackpot.locator("#open-jackpot-button").click()
    assert "Done: open the jackpot." in said(page)
    seats = "div[data-jackpot='Jackpot 8']"
    for p in players[4:]:
        page.locator(f"{seats} form.buy-jackpot select[name=player]").select_option(str(p))
        page.locator(f"{seats} form.buy-jackpot button[value=buy_jackpot]").click()
        assert "Done: buy into the jackpot." in said(page)
    assert page.locator(f"{seats} form.buy-jackpot").count() == 0  # full: no seat left to sell
    page.click(f"{seats} button[data-jackpot-leave='{players[4]}']")
    assert "Done: refund the jackpot's seat." in said(page)
    assert "7 of 8 seats bought" in page.locator(seats).inner_text()
    page.locator(f"{seats} form.buy-jackpot select[name=player]").select_option(str(players[4]))
    page.locator(f"{seats} form.buy-jackpot button[value=buy_jackpot]").click()
    page.locator(f"{seats} button.start-jackpot").click()
    assert "Done: start the jackpot." in said(page)
    knockout = page.locator(f"{seats} .jackpot-event a").get_attribute("href")
    jackpot_event = Tournament.objects.get(pk=int(knockout.strip("/").split("/")[1]))
    assert jackpot_event.name == "Club night · Jackpot 8"
    shot(page, "money-jackpot")

    data = play_out(t, director)
    assert data["winner"] == players[0]
    jackpot_data = play_out(jackpot_event, director)
    jackpot_winner = NAMES[players.index(jackpot_data["winner"])]
    page.reload()
    pools = page.locator("#pools-table").inner_text()
    assert "Main pool\t240.00\t10.00\t230.00" in pools
    assert "Side pool\t20.00\t10.00\t10.00" in pools
    assert "Calcutta\t100.00\t10.00\t90.00" in pools
    main = page.locator("table[data-shares=main]").inner_text()
    assert "1\tAda\t93.00" in main
    calcutta = page.locator("table[data-shares=calcutta]").inner_text()
    assert "Ann\t31.50" in calcutta and "Ada\t31.50" in calcutta
    assert "27.00" in calcutta  # the finalist's lot
    side = page.locator("table[data-shares=side]").inner_text()
    assert sum(float(line.split("\t")[-1]) for line in side.splitlines()[1:]) == 10.0
    shot(page, "money-shares")

    row = page.locator("#balances-table tr[data-payee='Ada']")
    assert row.locator("input[name=amount]").input_value() == "124.50"  # 93.00 + 31.50, owed
    row.locator("input[name=note]").fill("cash")
    row.locator("button[value=record_payout]").click()
    assert "Done: record the payout." in said(page)
    assert page.locator("#balances-table tr[data-payee='Ada'] td").nth(3).inner_text() == "0.00"
    assert "Ada: 124.50 (cash)" in page.locator("#payouts").inner_text()
    # the jackpot's 150 to its knockout's winner, paid in full with whatever else they won
    assert f"1\t{jackpot_winner}\t150.00" in page.locator("table[data-jackpot='Jackpot 8']").inner_text()
    row = page.locator(f"#balances-table tr[data-payee='{jackpot_winner}']")
    owed = row.locator("input[name=amount]").input_value()
    assert float(owed) >= 150.0
    row.locator("button[value=record_payout]").click()
    assert "Done: record the payout." in said(page)
    assert page.locator(f"#balances-table tr[data-payee='{jackpot_winner}'] td").nth(3).inner_text() == "0.00"
    shot(page, "money-paid")

    sheet = page.request.get(f"{url}/events/{t.pk}/run/sheets/payouts.pdf")
    assert sheet.status == 200 and sheet.headers["content-type"] == "application/pdf"
    text = pdf_text(sheet.body())
    for words in ("Payouts", "Main pool", "Side pool", "Calcutta", "93.00", "Ann", "Cy", "The back room", "Dee",
                  "bought back", "124.50", "Received (signature)", "Jackpots", "Jackpot: Jackpot 8", "150.00",
                  "Cy (bidder for the syndicate The back room: Gus, Hal)"):
        assert words in " ".join(text.split()), words
    page.goto(f"{url}/players/{players[0]}/")
    assert "124.50 EUR" in page.locator("#winnings").inner_text()
    page.goto(f"{url}/players/{jackpot_data['winner']}/")
    assert f"{owed} EUR" in page.locator("#winnings").inner_text()
    assert not page.console_errors, page.console_errors
