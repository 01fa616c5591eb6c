"""Season pages: the seasons (with "Open a season" for a club's director), one season's table (points per event,
with the rule version) and its director's controls, the rules. Thin: the forms are read in ``controls.py``."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from apikit import printing
from apikit.refusals import refusal_text
from eventlog import projections
from eventlog.store import ConcurrencyError

from . import controls, selectors, services
from . import printing as season_printing
from .decider import SeasonError
from .models import Season


@require_http_methods(["GET", "POST"])
def season_list_page(request):
    clubs = controls.clubs_directed(request.user)
    if request.method == "POST":
        if not clubs.exists():
            raise PermissionDenied(_("only a club's directors and officials open a season"))
        try:
            season = controls.open_from_form(actor=request.user, post=request.POST)
        except SeasonError as refused:
            messages.error(request, _("Nothing was opened: %(why)s") % {"why": refusal_text(refused)})
            return redirect("season-list-page")
        projections.run_all()
        return redirect("season-page", pk=season.pk)
    return render(request, "seasons/list.html", {"seasons": Season.objects.select_related("club"), "clubs": clubs})


@require_http_methods(["GET", "POST"])
def season_page(request, pk: int):
    season = get_object_or_404(Season.objects.select_related("club"), pk=pk)
    may_run = services.may_run(request.user, season)
    if request.method == "POST":
        if not may_run:
            raise PermissionDenied(_("only the season's director, its club's directors or an official may do this"))
        try:
            messages.success(request, controls.season_action(actor=request.user, season=season, post=request.POST))
        except (SeasonError, ConcurrencyError) as refused:
            messages.error(request, _("Nothing was changed: %(why)s") % {"why": refusal_text(refused)})
            if request.POST.get("action") == "set_rule":  # the director corrects what they typed, not a blank
                request.session["season_rule_draft"] = request.POST.get("rule", "")[:controls.MAX_RULE_CHARS]
        projections.run_all()
        return redirect(f"{request.path}#controls")
    data = selectors.season_data(season, with_hidden=may_run)  # a hidden event is named to those who run it only
    context = {"season": season, "data": data, "grid": selectors.table_grid(data), "may_run": may_run,
               "figures": selectors.analysis_figures(data)}
    if may_run:
        context.update(candidates=controls.candidate_events(request.user, season, data),
                       rule_text=request.session.pop("season_rule_draft", None) or controls.current_rule_text(data),
                       today=timezone.localdate())
    return render(request, "seasons/season.html", context)


def season_table_pdf(request, pk: int):
    """The table printed for the club's wall: public, as the season page is; in the reader's language. Printed
    by a worker once per state of the table (seasons/printing.py), and throttled: printing costs seconds of CPU."""
    if (refused := printing.throttled(request, "season-table")) is not None:
        return refused
    season = get_object_or_404(Season.objects.select_related("club"), pk=pk)
    pdf = season_printing.table_pdf(season, base_url=request.build_absolute_uri("/"))
    if pdf is None:
        return printing.being_printed()
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="season-{season.pk}-table.pdf"'
    return response


def rules_page(request):
    """The published rules: anyone can check every season table."""
    return render(request, "seasons/rules.html")
