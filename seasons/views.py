"""Public season pages: the seasons, one season's table (points per event, with the rule version), the rules."""

from django.shortcuts import get_object_or_404, render

from . import scoring, selectors, services
from .models import Season


def season_list_page(request):
    return render(request, "seasons/list.html", {"seasons": Season.objects.select_related("club")})


def season_page(request, pk: int):
    season = get_object_or_404(Season.objects.select_related("club"), pk=pk)
    data = selectors.season_data(season)
    return render(request, "seasons/season.html", {
        "season": season, "data": data, "grid": selectors.table_grid(data),
        "may_run": services.may_run(request.user, season)})


def rules_page(request):
    """The published rules: anyone can check every season table."""
    return render(request, "seasons/rules.html", {"doc": scoring.__doc__})
