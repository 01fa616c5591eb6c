"""Template context on every page: the logged-in player's match (the "your match" banner), and on a match's own
pages the table it is played at (the games app knows no tables: they are the event's)."""

from .models import TournamentSlot
from .your_match import current_match, player_of

MATCH_PAGES = ("match-page", "match-record")


def your_match(request) -> dict:
    context = {}
    match = getattr(request, "resolver_match", None)
    if match is not None and match.url_name in MATCH_PAGES and "stream_id" in match.kwargs:
        context["match_table"] = (TournamentSlot.objects.filter(match_id=match.kwargs["stream_id"])
                                  .values_list("table", flat=True).first())
    player = player_of(getattr(request, "user", None))
    if player is not None:
        context["your_match"] = current_match(player)
    return context
