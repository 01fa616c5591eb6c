"""The public ratings list, a page at a time: cached by the log position it shows, with a viewer's own place."""

from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string

from eventlog import cached_pages

from . import selectors

PAGE_SIZE = 100


@dataclass(frozen=True)
class Listing:
    """Which list a page is of: a club's (or every club's), in one order, at one position of the log."""

    position: int
    club_id: int | None
    sort: str

    @property
    def key(self) -> tuple:
        return (self.position, self.club_id, self.sort)


def order(listing: Listing) -> list[int]:
    """The players of the list in its order: one read of the ratings per log position, shared by every page."""
    return cached_pages.fragment("ratings-order", listing.key, lambda: [
        r["player_id"] for r in selectors.rating_list(club_id=listing.club_id, sort=listing.sort)])


def page_count(listing: Listing) -> int:
    return max(1, -(-len(order(listing)) // PAGE_SIZE))


def table(listing: Listing, page: int) -> str:
    """The page's rows, rendered once per log position and language: every viewer sees the same table."""
    def build() -> str:
        ids = order(listing)[(page - 1) * PAGE_SIZE:page * PAGE_SIZE]
        rows = selectors.rating_rows(ids)
        return render_to_string("ratings/table.html", {"rows": rows, "first": (page - 1) * PAGE_SIZE})
    return cached_pages.fragment("ratings-table", (*listing.key, page), build)


def place_of(listing: Listing, player_id: int | None) -> tuple[int, int] | None:
    """A player's place in the list (1 first) and the page it is on; None when they are not in it."""
    if player_id is None:
        return None
    try:
        index = order(listing).index(player_id)
    except ValueError:
        return None
    return index + 1, index // PAGE_SIZE + 1
