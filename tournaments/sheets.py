"""Printed sheets for the wall and the tables, as PDFs: WeasyPrint lays out an HTML page with its print CSS.

- the draw sheet: every round's matches with their tables (a bracket round by round; Swiss pairings by table);
- score cards: one per match being played (players, length, table, a grid for each game's result and cube);
- the standings;
- the payout sheet: the pools, each share by place and flight, the Calcutta's lots and buy-backs, and every
  payee's balance with a column to sign on receipt.

Other apps print on the same paper (the season table, ``seasons/sheets.py``): :func:`render_pdf` and the
``tournaments/sheets/base.html`` page are theirs too, and the console lists their sheets for an event through
``settings.CONSOLE_SHEETS`` (named by the composition root: this app imports none of them).
"""

from __future__ import annotations

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.module_loading import import_string

from . import console, console_money, names, selectors
from .models import Tournament

CARD_ROWS_MIN = 9  # a 5-point match can take that many games, and more need a second card
# a card's grid stops at a 25-point match's most games (2 x 25 - 1), the longest match clubs play: a longer one
# (up to games.limits.MAX_MATCH_LENGTH, 32,767 points) would print a grid of thousands of pages, and the rare
# games past it go on a second card
CARD_ROWS_MAX = 49
# the cards of a big event print in parts: 64 cards (32 pages) take seconds to lay out, the 512 of a 1,024-player
# first round took 37 s, past the web server's 30 s limit for one request
CARDS_PER_SHEET = 64


def render_pdf(template: str, context: dict, base_url: str) -> bytes:
    from weasyprint import HTML  # heavy (Pango, fonts): loaded when a sheet is printed, not with every view

    html = render_to_string(template, {**context, "printed_at": timezone.localtime()})
    return HTML(string=html, base_url=base_url).write_pdf()


def _rounds(data: dict) -> list[dict]:
    """Slots by bracket and round, as printed: a round's name and its matches, byes and the players already
    waiting in a later round included (a slot nobody has reached yet is left out)."""
    per = names.rounds_per_bracket(data["slots"])
    out: dict[tuple, dict] = {}
    for s in data["slots"]:
        if s["players"] == [None, None]:
            continue
        key = (s["bracket"], s["round"])
        row = out.setdefault(key, {"name": names.round_name(s["bracket"], s["round"], per.get(s["bracket"])),
                                   "matches": []})
        row["matches"].append(s)
    for row in out.values():
        row["matches"].sort(key=lambda s: (s["table"] is None, s["table"] or 0, s["index"]))
    order = {b: i for i, b in enumerate(("main", "winners", "losers", "grand_final", "consolation", "last_chance"))}
    return [out[k] for k in sorted(out, key=lambda k: (order.get(k[0], 9), k[1]))]


def draw_sheet(tournament: Tournament, *, base_url: str) -> bytes:
    data = selectors.tournament_data(tournament)
    return render_pdf("tournaments/sheets/draw.html", {"t": tournament, "data": data, "rounds": _rounds(data),
                                                        "format_name": names.format_name(data["format"])}, base_url)


def card_sheets(matches: int) -> list[dict]:
    """The parts the score cards print in (``part``, and the first and last card of each), one per
    ``CARDS_PER_SHEET`` matches being played; a single part for a club's evening."""
    return [{"part": i // CARDS_PER_SHEET + 1, "first": i + 1, "last": min(i + CARDS_PER_SHEET, matches)}
            for i in range(0, max(matches, 1), CARDS_PER_SHEET)]


def score_cards(tournament: Tournament, *, base_url: str, part: int = 1) -> bytes | None:
    """One part of the score cards (None: the event has no such part)."""
    data = console.console_data(tournament)
    parts = card_sheets(len(data["board"]))
    if not 1 <= part <= len(parts):
        return None
    cards = []
    for s in data["board"][(part - 1) * CARDS_PER_SHEET:part * CARDS_PER_SHEET]:
        most_games = max(CARD_ROWS_MIN, 2 * s["length"] - 1)
        cards.append({**s, "rows": range(1, min(most_games, CARD_ROWS_MAX) + 1), "more": most_games > CARD_ROWS_MAX})
    return render_pdf("tournaments/sheets/cards.html", {"t": tournament, "cards": cards, "part": parts[part - 1],
                                                        "parts": len(parts)}, base_url)


def standings_sheet(tournament: Tournament, *, base_url: str) -> bytes:
    data = selectors.tournament_data(tournament)
    return render_pdf("tournaments/sheets/standings.html", {
        "t": tournament, "standings": selectors.standings_by_flight(data), "tiebreaks": selectors.tiebreak_names(data),
    }, base_url)


def payout_sheet(tournament: Tournament, *, base_url: str) -> bytes:
    return render_pdf("tournaments/sheets/payouts.html", {"t": tournament, "m": console_money.money_page(tournament)},
                      base_url)


def more_sheets(tournament: Tournament) -> list[dict]:
    """The sheets other apps print where this event counts (``{"label", "url"}`` each): the season tables, …"""
    return [link for maker in getattr(settings, "CONSOLE_SHEETS", ()) for link in import_string(maker)(tournament)]
