"""Reads of the analysis for the API and the pages."""

from __future__ import annotations

from django.conf import settings
from django.db.models import Avg, Count, Max, Sum
from django.utils.translation import gettext_lazy as _

from games.models import MatchSummary
from players.selectors import display_names

from .models import MatchAnalysis, PlayerFigures
from .rating_words import rating_word

FIGURES = ("chequer_rate", "cube_rate", "overall_rate", "performance_rating", "luck")


def match_analysis(stream_id: str, plies: int | None = None) -> MatchAnalysis | None:
    """The match's analysis at that depth; by default the one players see: the deepest one done (the quick one
    shown at once is replaced by the deeper one when that is done), else the one under way."""
    rows = MatchAnalysis.objects.filter(stream_id=stream_id).prefetch_related("figures", "decisions")
    if plies is not None:
        return rows.filter(plies=plies).first()
    wanted = sorted({settings.ANALYSIS_QUICK_PLIES, settings.ANALYSIS_PLIES}, reverse=True)
    found = sorted(rows.filter(plies__in=wanted), key=lambda r: -r.plies)
    done = [r for r in found if r.status == MatchAnalysis.DONE]
    shown = done[0] if done else found[0] if found else rows.order_by("-status", "-plies").first()
    if shown is not None:
        # the deeper analysis still to come, which the page waits for (None: this one is the deepest)
        shown.deeper = next((r for r in found if r.plies > shown.plies and r.status != MatchAnalysis.FAILED), None)
    return shown


def _public(stream_ids):
    return MatchSummary.objects.filter(stream_id__in=stream_ids, published=True, voided=False).values_list(
        "stream_id", flat=True)


def player_history(player_id: int) -> list[dict]:
    """The player's figures match by match, oldest first: what the player page charts beside the rating."""
    rows = list(PlayerFigures.objects.filter(player_id=player_id, analysis__status=MatchAnalysis.DONE,
                                             analysis__plies=settings.ANALYSIS_PLIES)
                .select_related("analysis").order_by("analysis__ended_at", "analysis__pk"))
    public = set(_public({f.analysis.stream_id for f in rows}))
    # the page names the opponent of each match as the rating chart beside it does: the player's name now, by the
    # seat's player id (the match's own seat name is what it was recorded or imported under: "P2", a file's "Bob"),
    # that seat name only when the seat has no player
    seats = {m.stream_id: ((m.player0_id, m.player0_name), (m.player1_id, m.player1_name))
             for m in MatchSummary.objects.filter(stream_id__in=public)}
    names = display_names(pid for both in seats.values() for pid, _ in both if pid is not None)

    def opponent(f: PlayerFigures) -> str:
        pid, seat_name = seats.get(f.analysis.stream_id, ((None, ""), (None, "")))[1 - f.side]
        return names.get(pid, seat_name)

    return [{"match": f.analysis.stream_id, "ended_at": f.analysis.ended_at, "plies": f.analysis.plies,
             "unfinished": not f.analysis.match_finished,
             "opponent": opponent(f), **{k: getattr(f, k) for k in FIGURES}, "overall_rating": f.overall_rating}
            for f in rows if f.analysis.stream_id in public]


def _shown(**where):
    """The analyses players see, as a subquery: done, at the site's depth, of public matches (not hidden, not
    voided); ``where`` narrows them (an event, a season's events)."""
    public = MatchSummary.objects.filter(published=True, voided=False).values("stream_id")
    return MatchAnalysis.objects.filter(status=MatchAnalysis.DONE, plies=settings.ANALYSIS_PLIES,
                                        stream_id__in=public, **where)


def _totals():
    """What a player's figures pool into: the matches, the error totals and decision counts, the mean luck."""
    return {"matches": Count("id"), "luck": Avg("luck"), **{k: Sum(k) for k in POOLED}}


def _pooled(totals: dict) -> dict:
    rates = pooled_rates(totals)
    decisions = totals["unforced_moves"] + totals["close_cube"]
    return {"matches": totals["matches"], "luck": totals["luck"], "unforced_moves": totals["unforced_moves"],
            "close_cube": totals["close_cube"], **rates,
            "overall_rating": rating_word(rates["overall_rate"], decisions)}


def player_pooled(player_id: int) -> dict | None:
    """The player's figures over all their analysed matches (those ``player_history`` lists), pooled as XG pools
    them: the total error over the total decisions, never a mean of the matches' rates. None: no analysed match."""
    totals = PlayerFigures.objects.filter(player_id=player_id, analysis__in=_shown()).aggregate(**_totals())
    return _pooled(totals) if totals["matches"] else None


def event_averages(tournament_id: int) -> list[dict]:
    """Each player's figures over the event's analysed matches, pooled as XG pools them: the total error over the
    total decisions (a long match weighs by its decisions, not as one match); luck is the mean per match."""
    return _pooled_by_player(_shown(tournament_id=tournament_id))


def events_averages(tournament_ids) -> list[dict]:
    """The same over several events' analysed matches (a season's): one query, each player's totals summed."""
    return _pooled_by_player(_shown(tournament_id__in=list(tournament_ids)))


def _pooled_by_player(analyses) -> list[dict]:
    rows = (PlayerFigures.objects.filter(analysis__in=analyses, player_id__isnull=False)
            .values("player_id").annotate(seat_name=Max("name"), **_totals()))
    # named as the rest of the site names the player, not by the seat name the match was recorded under
    names = display_names(r["player_id"] for r in rows)
    out = [{"player_id": r["player_id"], "name": names.get(r["player_id"], r["seat_name"]), **_pooled(r)}
           for r in rows]
    return sorted(out, key=lambda r: (r["overall_rate"], r["player_id"]))


POOLED = ("chequer_error", "unforced_moves", "cube_error", "close_cube")


def pooled_rates(totals: dict) -> dict:
    """gnubg's rates (mEMG per decision) and XG's PR over summed error totals and decision counts."""
    def per_1000(error, decisions):
        return 1000 * error / decisions if decisions else 0.0

    overall = per_1000(totals["chequer_error"] + totals["cube_error"], totals["unforced_moves"] + totals["close_cube"])
    return {"chequer_rate": per_1000(totals["chequer_error"], totals["unforced_moves"]),
            "cube_rate": per_1000(totals["cube_error"], totals["close_cube"]),
            "overall_rate": overall, "performance_rating": overall / 2}


# -- fair play, for directors: never automatic ---------------------------------------------------------------------

# what raises the flag for a person to review: this many decisions (unforced moves and close cube decisions) on each
# side at least, and an online error rate at most this share of the player's rate at the board (lower is better)
FAIR_PLAY_MIN_DECISIONS = 300
FAIR_PLAY_MAX_SHARE = 0.6

FAIR_PLAY_LIMITS = _(
    "A flag is a reason to look, never proof. Error rates over a few hundred decisions vary widely from one sample "
    "to the next; players improve, and may play better at home, rested, than at a noisy club evening; online "
    "opponents and match lengths differ from those at the board. Consulting a bot during play is what it may point "
    "to, but only a review of the matches themselves can say more, and nothing here changes a result or a rating.")


def _figures(**where) -> dict | None:
    totals = PlayerFigures.objects.filter(**where).aggregate(**_totals())
    return _pooled(totals) if totals["matches"] else None


def fair_play(player_id: int) -> dict:
    """The player's figures pooled over their online matches and over their matches at the board, the field's
    (every analysed player, online and at the board), and whether the flag is raised: the player's online play much
    better than their play at the board, over enough decisions on both sides; with the data it was judged on."""
    online = _figures(player_id=player_id, analysis__in=_shown(online=True))
    board = _figures(player_id=player_id, analysis__in=_shown(online=False))
    field = {"online": _figures(analysis__in=_shown(online=True), player_id__isnull=False),
             "board": _figures(analysis__in=_shown(online=False), player_id__isnull=False)}
    decisions = {side: figures["unforced_moves"] + figures["close_cube"] if figures else 0
                 for side, figures in (("online", online), ("board", board))}
    share = online["overall_rate"] / board["overall_rate"] if online and board and board["overall_rate"] else None
    raised = min(decisions.values()) >= FAIR_PLAY_MIN_DECISIONS and share is not None and share <= FAIR_PLAY_MAX_SHARE
    return {"player_id": player_id, "online": online, "board": board, "field": field,
            "flag": {"raised": raised, "decisions": decisions, "share": share,
                     "min_decisions": FAIR_PLAY_MIN_DECISIONS, "max_share": FAIR_PLAY_MAX_SHARE},
            "limits": str(FAIR_PLAY_LIMITS)}
