"""Public pages: the matches of the club's events, and one match's state."""

from django.http import Http404
from django.shortcuts import render

from . import selectors, services


def home(request):
    from tournaments.models import Tournament  # the page groups matches by event

    tournaments = {t.pk: t for t in Tournament.objects.filter(published=True)}
    groups: dict = {}
    for summary in selectors.match_summaries()[:500]:
        groups.setdefault(tournaments.get(summary.tournament_id), []).append(summary)
    sections = [(t, rows) for t, rows in groups.items()]
    sections.sort(key=lambda item: (item[0] is None, str(item[0])))
    return render(request, "games/home.html", {"sections": sections})


def match_page(request, stream_id: str):
    try:
        record = services.match_load(stream_id)
    except services.MatchNotFound:
        raise Http404("no such match") from None
    if not services.can_read(request.user, record):
        raise Http404("no such match")
    return render(request, "games/match.html", {"m": selectors.match_state_data(record)})
