from django.shortcuts import render

from . import formula


def formula_page(request):
    """The published formula: anyone can check every rating."""
    return render(request, "ratings/formula.html", {"doc": formula.__doc__, "start": formula.START_RATING,
                                                    "provisional": formula.PROVISIONAL_BELOW})
