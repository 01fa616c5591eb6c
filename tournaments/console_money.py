"""The director's money screen and the payout sheet: the ledger said for people, and the forms that send the money's
commands.

The forms speak a director's units (20 or 20.50 euros, a percentage); the commands speak minor units (cents:
``tournaments.commands.SetMoney``), which is what a form's answer becomes. A currency without cents (the yen) is
typed and shown in whole units.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import commands, selectors
from .models import Tournament, TournamentLedger

NO_CENTS = {"JPY"}  # the currencies whose minor unit is the unit itself (ISO 4217 exponent 0)

# the payout tables as directors name them
TABLE_LABELS = {
    "main_consolation": gettext_lazy("40/25/25/10: Main winner and finalist, Consolation winner and finalist"),
    "flights": gettext_lazy("60/30/10: the winners of Main, Consolation and Last Chance"),
    "halving": gettext_lazy("Halving: each paid place half the one above, one place per four players"),
    "wide": gettext_lazy("Wide payout: 50 % and 25 % to the first two, 25 % declining over the rest"),
    "winner_takes_all": gettext_lazy("Winner takes all"),
    "70_30": gettext_lazy("70/30: winner and finalist"),
    "40_30_20_10": gettext_lazy("40/30/20/10: winner, finalist, the two semi-finalists"),
}
POOL_LABELS = {"main": gettext_lazy("Main pool"), "side": gettext_lazy("Side pool"),
               "calcutta": gettext_lazy("Calcutta")}
MONEY_ACTIONS = ("set_money", "enter_side_pool", "add_lot", "sell_lot", "buy_back", "record_payout", "open_jackpot",
                 "buy_jackpot", "leave_jackpot", "start_jackpot")
AMOUNT_FIELDS = ("entry", "reentry", "side", "registration", "cut_fixed", "cut_unit", "unit")
# a refused field named as the screen labels it
FIELD_LABELS = {
    "entry": gettext_lazy("Entry fee"), "reentry": gettext_lazy("Re-entry fee"), "side": gettext_lazy("Side pool fee"),
    "registration": gettext_lazy("Registration fee (the house's)"), "cut_fixed": gettext_lazy("Fixed"),
    "cut_unit": gettext_lazy("rounded to the nearest"), "unit": gettext_lazy("Shares paid in multiples of"),
    "cut_percent": gettext_lazy("Percentage"), "calcutta_percent": gettext_lazy("The Calcutta's percentage"),
    "remainder_place": gettext_lazy("What rounding leaves goes to Main place"),
    "buy_in": gettext_lazy("Buy-in"), "size": gettext_lazy("Seats"), "length": gettext_lazy("Matches to"),
}
JACKPOT_AMOUNTS = ("buy_in", "cut_fixed")
JACKPOT_WHOLES = ("size", "cut_percent", "length")
WHOLE_FIELDS = ("cut_percent", "calcutta_percent", "remainder_place")


class MoneyFormRefused(ValueError):
    """A money form that does not say a whole command (nothing is assumed: no owner, no price, no amount)."""


def _digits(currency: str) -> int:
    return 0 if currency in NO_CENTS else 2


def amount_text(minor: int | None, currency: str) -> str:
    """``minor`` units as a person reads them, in the reader's language: 6100 EUR is "61.00" ("61,00" in French)."""
    if minor is None:
        return ""
    digits = _digits(currency)
    return number_format(Decimal(minor).scaleb(-digits), decimal_pos=digits, use_l10n=True)


def amount_of(text: str, currency: str, what: str) -> int:
    """A typed amount in minor units: "20", "20.5", "20,50" (a French comma) are 2000 cents."""
    digits = _digits(currency)
    try:
        value = Decimal(text.strip().replace(",", ".").replace(" ", "").replace("\u202f", ""))
    except InvalidOperation:
        raise MoneyFormRefused(_("%(what)s is an amount, such as 20 or 20.50: nothing was recorded.")
                               % {"what": what}) from None
    minor = value.scaleb(digits)
    if not value.is_finite() or minor != minor.to_integral_value() or value < 0:
        raise MoneyFormRefused(_("%(what)s is an amount, such as 20 or 20.50: nothing was recorded.")
                               % {"what": what})
    return int(minor)


def _whole(text: str, what: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise MoneyFormRefused(_("%(what)s must be a whole number: nothing was recorded.") % {"what": what}) from None


def command_from_form(post, currency: str) -> dict:
    """The command a money form says (``action``: its type), amounts read in ``currency``."""
    kind = post.get("action", "")
    if kind not in MONEY_ACTIONS:
        raise MoneyFormRefused(_("Unknown action: nothing was recorded."))
    command: dict = {"type": kind}
    if kind == "set_money":
        currency = post.get("currency", currency)
        command["currency"] = currency
        for name in AMOUNT_FIELDS:
            if post.get(name, "").strip():
                command[name] = amount_of(post[name], currency, str(FIELD_LABELS[name]))
        for name in WHOLE_FIELDS:
            if post.get(name, "").strip():
                command[name] = _whole(post[name], str(FIELD_LABELS[name]))
        for name in ("table", "side_table", "calcutta_table"):
            if post.get(name):
                command[name] = post[name]
    elif kind == "enter_side_pool":
        command["player"] = _whole(post.get("player", ""), _("the player"))
        command["entered"] = post.get("entered", "1") == "1"
    elif kind == "add_lot":
        command["name"] = post.get("name", "")
        command["field"] = post.get("field") == "1"
        command["players"] = [_whole(post[k], _("the player")) for k in ("player", "partner")
                              if post.get(k, "").strip()]
    elif kind in ("sell_lot", "buy_back"):
        command["lot"] = post.get("lot", "")
        if kind == "sell_lot":
            if not post.get("price", "").strip():
                raise MoneyFormRefused(_("Give the price: nothing was recorded."))
            command.update(owner=post.get("owner", ""), syndicate=post.get("syndicate", ""),
                           members=[m for m in post.get("members", "").split(",") if m.strip()],
                           price=amount_of(post["price"], currency, _("the price")))
    elif kind == "open_jackpot":
        command.update(name=post.get("name", ""), table=post.get("table", "winner_takes_all"))
        for name in JACKPOT_AMOUNTS:
            if post.get(name, "").strip():
                command[name] = amount_of(post[name], currency, str(FIELD_LABELS[name]))
        for name in JACKPOT_WHOLES:
            if post.get(name, "").strip():
                command[name] = _whole(post[name], str(FIELD_LABELS[name]))
        if "buy_in" not in command or "size" not in command:
            raise MoneyFormRefused(_("Give the buy-in and the seats: nothing was recorded."))
    elif kind in ("buy_jackpot", "leave_jackpot", "start_jackpot"):
        command["jackpot"] = post.get("jackpot", "")
        if kind != "start_jackpot":
            command["player"] = _whole(post.get("player", ""), _("the player"))
    elif kind == "record_payout":
        if not post.get("amount", "").strip():
            raise MoneyFormRefused(_("Give the amount paid: nothing was recorded."))
        command["amount"] = amount_of(post["amount"], currency, _("the amount"))
        if post.get("player", "").strip():
            command["player"] = _whole(post["player"], _("the player"))
        else:
            command["owner"] = post.get("owner", "")
        command["note"] = post.get("note", "")
    return command


def pool_label(key: str, jackpot: str = "") -> str:
    """A pool as the screen names it: "Main pool", "Calcutta", "Jackpot: Friday 8"."""
    if key == "jackpot":
        return _("Jackpot: %(name)s") % {"name": jackpot}
    return str(POOL_LABELS[key])


def money_page(tournament: Tournament) -> dict:
    """The ledger as the money screen and the payout sheet show it: amounts in words of the currency, every pool,
    lot and payee named, each finisher's place."""
    data = selectors.money_data(tournament)
    settings = {f.name: f.default for f, _a in commands.args_of(commands.SetMoney)} | data.get("settings", {})
    currency = settings["currency"]
    facts = selectors.tournament_facts(tournament)
    names = selectors.display_names(facts.entered)
    finishes = data.get("finishes", ())
    held = {}
    for f in finishes:
        held[(f["flight"], f["place"])] = held.get((f["flight"], f["place"]), 0) + 1

    def money(minor):
        return amount_text(minor, currency)

    def place_of(player) -> str:
        """Every place the player holds: the Main's, then "1 (Consolation)"... (a prize may be any of them)."""
        out = []
        for f in finishes:
            if f["player"] == player:
                place = selectors.place_label(f["place"], held[(f["flight"], f["place"])] > 1)
                out.append(place if f["flight"] == "main" else f"{place} ({selectors.bracket_name(f['flight'])})")
        return ", ".join(out)

    jackpot_places = {}
    for j in data.get("jackpots", ()):
        counts: dict = {}
        for f in j.get("finishes", ()):
            counts[f["place"]] = counts.get(f["place"], 0) + 1
        jackpot_places[j["name"]] = {f["player"]: selectors.place_label(f["place"], counts[f["place"]] > 1)
                                     for f in j.get("finishes", ())}

    def payee(row) -> dict:
        if row.get("pool") == "jackpot":  # a place in the jackpot's own knockout
            place = jackpot_places.get(row["jackpot"], {}).get(row.get("player"), "")
        else:
            place = place_of(row["player"]) if "player" in row else ""
        return {**row, "label": row.get("name") or row.get("owner", ""), "place": place}

    shares = {}
    for s in data.get("shares", ()):
        key = (s["pool"], s.get("jackpot", ""))
        shares.setdefault(key, []).append({**payee(s), "amount_text": money(s["amount"])})
    active = [p for p in dict.fromkeys(facts.entered) if p not in facts.withdrawn]
    form_settings = {**settings, **{k: money(settings[k]) for k in AMOUNT_FIELDS}}
    side = set(data.get("side_entrants", ()))
    in_lots = {p for lot in data.get("lots", ()) for p in lot["players"]}
    return {
        "recorded": data["recorded"], "currency": currency, "settings": form_settings, "final": data.get("final"),
        "pools": [{"name": POOL_LABELS[k], "key": k, "fees": money(v["fees"]), "cut": money(v["cut"]),
                   "prize_money": money(v["prize_money"])} for k, v in data.get("pools", {}).items()],
        "house": money(data.get("house", 0)), "registration": money(data.get("registration", 0)),
        "shares": [{"pool": pool_label(k, name), "key": k, "jackpot": name, "rows": rows}
                   for (k, name), rows in shares.items()],
        "unawarded": [{"pool": pool_label(*k.split(":", 1)), "amount": money(v)}
                      for k, v in data.get("unawarded", {}).items()],
        "lots": [{**lot, "price_text": money(lot["price"]), "who": lot["player_names"],
                  "others": [m for m in lot.get("members", ()) if m != lot["owner"]]} for lot in data.get("lots", ())],
        "jackpots": [{**j, "buy_in_text": money(j["buy_in"]), "fees_text": money(j["fees"]), "cut_text": money(j["cut"]),
                      "prize_money_text": money(j["prize_money"]), "table_label": str(TABLE_LABELS[j["table"]]),
                      "seats": [{"id": p, "name": n} for p, n in zip(j["buyers"], j["buyer_names"])],
                      "full": len(j["buyers"]) >= j["size"],
                      "buyable": [{"id": p, "name": names.get(p, str(p))} for p in active if p not in j["buyers"]]}
                     for j in data.get("jackpots", ())],
        "jackpot_tables": [(k, str(TABLE_LABELS[k])) for k in commands.JACKPOT_TABLES],
        "buy_backs": [{**b, "amount_text": money(b["amount"])} for b in data.get("buy_backs", ())],
        "payouts": [{**payee(p), "amount_text": money(p["amount"])} for p in data.get("payouts", ())],
        "balances": [{**payee(b), "share_text": money(b["share"]), "paid_text": money(b["paid"]),
                      "owed_text": money(b["owed"]), "overpaid_text": money(b["overpaid"])}
                     for b in data.get("balances", ())],
        "entrants": [{"id": p, "name": names.get(p, str(p)), "side": p in side, "in_lot": p in in_lots}
                     for p in dict.fromkeys(facts.entered)],
        "tables": [(k, str(v)) for k, v in TABLE_LABELS.items()],
        "currencies": commands.CURRENCIES,
    }


def money_glance(tournament: Tournament) -> dict | None:
    """The money at a glance for the live console (None: the event records none): the prize money of every pool
    (jackpots too), what the shares come to, what was paid, and what a correction after a payout left owed or
    overpaid (and to how many payees). A jackpot's own event names the night whose money it is."""
    row = TournamentLedger.objects.filter(tournament_id=tournament.pk).only("ledger").first()
    if row is None:
        night = selectors.tournament_facts(tournament).money.jackpot_of
        if night is None:
            return None
        return {"jackpot_of": {"night": night[0], "jackpot": night[1],
                               "name": Tournament.objects.filter(pk=night[0]).values_list("name", flat=True).first()}}
    data = row.ledger
    currency = data.get("currency", "EUR")
    balances = data.get("balances", ())
    owed = [b["owed"] for b in balances if b["owed"]]
    overpaid = [b["overpaid"] for b in balances if b["overpaid"]]
    prize_money = sum(p["prize_money"] for p in data.get("pools", {}).values()) + sum(
        j["prize_money"] for j in data.get("jackpots", ()))
    return {
        "currency": currency, "final": data.get("final", False),
        "prize_money": amount_text(prize_money, currency),
        "shares": amount_text(sum(b["share"] for b in balances), currency),
        "paid": amount_text(sum(b["paid"] for b in balances), currency),
        "owed": amount_text(sum(owed), currency), "owed_to": len(owed),
        "overpaid": amount_text(sum(overpaid), currency), "overpaid_to": len(overpaid),
        "jackpots_open": data.get("open_jackpots", []),
    }
