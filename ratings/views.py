from django.http import Http404
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from eventlog import cached_pages, live
from players.models import Club, Player

from . import formula, pages


def formula_page(request):
    """The published formula: anyone can check every rating."""
    return render(request, "ratings/formula.html", {"start": f"{formula.START_RATING:g}",
                                                    "provisional": formula.PROVISIONAL_BELOW})


def rating_list_page(request):
    """The list a page at a time, cached by how far the projections have read the log; a player who is in it is
    shown the page they are on."""
    club = request.GET.get("club") or ""
    sort = request.GET.get("sort", "rating")
    page = request.GET.get("page", "1")
    if not (page.isascii() and page.isdigit() and int(page) >= 1):
        raise Http404(_("There is no such page."))
    club_id = int(club) if club.isascii() and club.isdigit() else None
    listing = pages.Listing(live.projected_position(), club_id, sort if sort in pages.selectors.SORTS else "rating")
    shown = str(club_id) if club_id is not None else ""
    query = {"club": shown or None, "sort": listing.sort if "sort" in request.GET else None,
             "page": str(int(page)) if "page" in request.GET else None}
    return cached_pages.page(request, listing.key, lambda: _rating_list(request, listing, shown, int(page)),
                             query=query)


def _rating_list(request, listing: pages.Listing, club: str, page: int):
    count = pages.page_count(listing)
    if page > count:
        raise Http404(_("There is no such page."))
    viewer = Player.objects.filter(user_id=request.user.pk).values_list("pk", flat=True).first() \
        if request.user.is_authenticated else None
    table = mark_safe(pages.table(listing, page))  # noqa: S308 (our own render, escaped there)
    return render(request, "ratings/list.html", {
        "table": table, "page": page, "pages": count, "club": club, "sort": listing.sort,
        "clubs": Club.objects.all(), "me": pages.place_of(listing, viewer), "viewer": viewer})
