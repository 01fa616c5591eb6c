from django.shortcuts import render

from players.models import Club

from . import formula, selectors


def formula_page(request):
    """The published formula: anyone can check every rating."""
    return render(request, "ratings/formula.html", {"start": f"{formula.START_RATING:g}",
                                                    "provisional": formula.PROVISIONAL_BELOW})


def rating_list_page(request):
    club = request.GET.get("club")
    sort = request.GET.get("sort", "rating")
    rows = selectors.rating_list(club_id=int(club) if club and club.isascii() and club.isdigit() else None, sort=sort)
    return render(request, "ratings/list.html", {"rows": rows, "clubs": Club.objects.all(), "club": club, "sort": sort})
