"""The director's console and its printed sheets: thin views over ``tournaments/console.py`` and ``sheets.py``."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from eventlog import live
from eventlog.store import ConcurrencyError
from games.engine.errors import Refusal
from players.models import Player

from . import (
    console, console_clocks, console_money, console_online, event_form, proofs, selectors, services, sheets, your_match,
)
from .commands import SetRoundClock, SetRoundOnline
from .models import Tournament

MAX_CSV_BYTES = 256 * 1024


def _event(request, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=pk)
    console.check_runs(request.user, tournament)
    return tournament


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def console_page(request, pk: int):
    tournament = _event(request, pk)
    if request.method == "POST":
        _act(request, tournament)
        if request.headers.get("X-Requested-With") != "fetch":  # without the script: the page that follows
            return redirect(request.POST.get("next_anchor") and f"{request.path}#{request.POST['next_anchor']}"
                            or request.path)
        # console.js's press: one request, its answer the console redrawn (the live part) and its word, no
        # redirect and no fetch after it; the position tells the script which pushes it already shows
        return _render(request, tournament, "tournaments/console/_answer.html")
    if request.GET.get("partial"):
        # the part the page's script fetches when it is told the event moved on (console.js): no messages in it,
        # so a push never takes the flash meant for the page that follows the director's own action
        return _render(request, tournament, "tournaments/console/_live.html")
    return _render(request, tournament, "tournaments/console/run.html")


def _render(request, tournament: Tournament, template: str):
    # where the projections were before the page is read: a push past it while the page loads is caught up on
    position = live.projected_position()
    now = timezone.now()
    data = console.console_data(tournament, now=now)
    entered = {e["player_id"] for e in data["entries"]}
    context = {"t": tournament, "data": data, "players": Player.objects.exclude(pk__in=entered).order_by("display_name"),
               "history": selectors.tournament_history(tournament), "standings": selectors.standings_by_flight(data),
               "previous_leagues": console.previous_leagues(request.user, tournament), "now": now,
               "stalled_after": int(console.STALLED_AFTER.total_seconds()),
               "more_sheets": sheets.more_sheets(tournament), "card_sheets": sheets.card_sheets(len(data["board"])),
               "position": position, "clock_custom_fields": console_clocks.CUSTOM_FIELDS,
               "money": console_money.money_glance(tournament)}
    context["import_text"], context["namesakes"] = _namesakes(request, tournament)
    response = render(request, template, context)
    response["X-Projected-Position"] = str(position)
    return response


def _act(request, tournament: Tournament) -> None:
    action = request.POST.get("action", "")
    try:
        if action == "import":
            text = request.POST.get("members", "")
            upload = request.FILES.get("csv")
            if upload is not None:
                if upload.size > MAX_CSV_BYTES:
                    raise console.FormRefused(_("The file is larger than 256 kB: nothing was imported."))
                text = upload.read().decode("utf-8-sig", errors="replace")
            _import(request, tournament, text)
        elif action == "import_cancel":
            request.session.pop(_asked_key(tournament), None)
            messages.info(request, _("Import cancelled: nothing was imported."))
        elif action == "undo":
            undone = console.console_undo(actor=request.user, tournament=tournament)
            messages.success(request, _("Undone: %(what)s.") % {"what": undone})
        elif action == SetRoundClock.type:
            command = console_clocks.command_from_form(request.POST)
            console.console_command(actor=request.user, tournament=tournament, command=command)
            messages.success(request, console.done_message(command))
        elif action == SetRoundOnline.type:
            command = console_online.command_from_form(request.POST)
            console.console_command(actor=request.user, tournament=tournament, command=command)
            messages.success(request, console.done_message(command))
        elif action == "proof_file":
            proofs.proof_file(actor=request.user, tournament=tournament, slot=request.POST.get("slot", ""),
                              text=proofs.uploaded_text(request.FILES.get("mat")))
            console.settle(tournament)
            messages.success(request, _("The match file is recorded: its match is the slot's."))
        elif action == "proof_consent":
            proofs.proof_consent(actor=request.user, tournament=tournament, slot=request.POST.get("slot", ""))
            console.settle(tournament)
            messages.success(request, _("The match file is recorded: its match is the slot's."))
        elif action == "proof_decline":
            proofs.proof_decline(actor=request.user, tournament=tournament, slot=request.POST.get("slot", ""),
                                 reason=request.POST.get("reason", ""))
            messages.success(request, _("The match file is declined: it does not count."))
        elif action == "check_in_all":
            done = console.console_check_in_all(actor=request.user, tournament=tournament)
            messages.success(request, _("%(n)s players checked in.") % {"n": done})
        else:
            command = console.command_from_form(request.POST)
            console.console_command(actor=request.user, tournament=tournament, command=command)
            messages.success(request, console.done_message(command))
    except console.ImportRefused as refused:
        messages.error(request, _("Nothing was imported: %(why)s") % {"why": refused})
    except (console.FormRefused, console.NothingToUndo) as refused:
        # the console's own words, translated already
        messages.error(request, str(refused))
    except (services.TournamentError, PermissionDenied, ConcurrencyError) as refused:
        messages.error(request, console.refusal_text(refused))
    except Refusal as refused:  # a match file the engine or the import refused
        messages.error(request, console.refusal_text(refused))


# -- the event form: created and set up from the director's pages ------------------------------


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def event_new(request):
    if not event_form.may_create_some_event(request.user):
        raise PermissionDenied(_("Events are created by a club's directors and by officials."))
    form = _event_form(request, tournament=None, facts=None)
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                tournament = services.tournament_create(actor=request.user, name=data["name"], format=data["format"],
                                                        club=data.get("club"), settings=form.settings)
                services.tournament_describe(actor=request.user, tournament=tournament, name=data["name"],
                                             starts_on=data.get("starts_on"))
                if not data.get("published"):
                    services.tournament_publish(actor=request.user, tournament=tournament, published=False)
        except (services.TournamentError, PermissionDenied) as refused:
            form.add_error(None, console.refusal_text(refused))
        else:
            console.project()
            messages.success(request, _("The event is created: enter its players here."))
            return redirect("event-console", pk=tournament.pk)
    return render(request, "tournaments/console/event_form.html", {"form": form, "t": None})


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def event_settings(request, pk: int):
    tournament = _event(request, pk)
    facts = selectors.tournament_facts(tournament)
    form = _event_form(request, tournament=tournament, facts=facts)
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                services.tournament_configure(actor=request.user, tournament=tournament, settings=form.settings)
                services.tournament_describe(actor=request.user, tournament=tournament, name=data["name"],
                                             starts_on=data.get("starts_on"))
                if bool(data.get("published")) != tournament.published:
                    services.tournament_publish(actor=request.user, tournament=tournament,
                                                published=bool(data.get("published")))
        except (services.TournamentError, PermissionDenied, ConcurrencyError) as refused:
            form.add_error(None, console.refusal_text(refused))
        else:
            console.settle(tournament)  # more Swiss rounds may be paired at once, as after any command
            messages.success(request, _("The event's settings are saved."))
            return redirect("event-console", pk=tournament.pk)
    return render(request, "tournaments/console/event_form.html",
                  {"form": form, "t": tournament, "drawn": facts.drawn})


def _event_form(request, *, tournament, facts) -> event_form.EventForm:
    """The form as posted; posted to show another format's settings (the page without its script), the same
    values again, unchecked, with the new format's sections shown."""
    if request.method != "POST":
        return event_form.EventForm(user=request.user, tournament=tournament, facts=facts)
    if "show_format" in request.POST:
        return event_form.EventForm(user=request.user, tournament=tournament, facts=facts,
                                    initial=event_form.as_initial(request.POST))
    return event_form.EventForm(request.POST, user=request.user, tournament=tournament, facts=facts)


def _asked_key(tournament: Tournament) -> str:
    return f"member-import-{tournament.pk}"


def _import(request, tournament: Tournament, text: str) -> None:
    """The member list entered, or its "same person?" asked: the list and the answers given so far wait in the
    director's session, so the question is on every render of the console (pushes included) until answered."""
    choices = console.choices_from_form(request.POST)
    waiting = {"text": text, "choices": {k: [c.same_as, c.new_name] for k, c in choices.items()}}
    try:
        imported = console.console_import(actor=request.user, tournament=tournament, text=text, choices=choices)
    except console.ImportNeedsChoice as asked:
        request.session[_asked_key(tournament)] = waiting
        messages.warning(request, ngettext(
            "%(n)s name on the list is already the name of a member of the club: say whether it is the same "
            "person. Nothing was imported yet.",
            "%(n)s names on the list are already names of members of the club: say for each whether it is the "
            "same person. Nothing was imported yet.", len(asked.namesakes)) % {"n": len(asked.namesakes)})
        return
    except console.ImportRefused:
        if _asked_key(tournament) in request.session:  # the question stays, with the answers that were refused
            request.session[_asked_key(tournament)] = waiting
        raise
    request.session.pop(_asked_key(tournament), None)
    messages.success(request, _("%(n)s members entered.") % {"n": len(imported.players)})
    if imported.recognised:
        messages.info(request, _("Recognised by their name, as confirmed at an earlier import: %(names)s.") % {
            "names": ", ".join(p.display_name for p in imported.recognised)})


def _namesakes(request, tournament: Tournament) -> tuple[str, list[dict]]:
    """The member list waiting for the director's "same person?", and its question (none: nothing waits)."""
    waiting = request.session.get(_asked_key(tournament))
    if not waiting:
        return "", []
    choices = {k: console.Choice(same_as, new_name) for k, (same_as, new_name) in waiting["choices"].items()}
    return waiting["text"], console.namesake_question(tournament=tournament, text=waiting["text"], choices=choices)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def event_money(request, pk: int):
    """The director's money screen: fees and tables, the side pool, the Calcutta's auction (lots, sales,
    buy-backs), each pool's shares and every payee's balance, with the payouts recorded."""
    tournament = _event(request, pk)
    if request.method == "POST":
        try:
            currency = console_money.money_page(tournament)["currency"]
            command = console_money.command_from_form(request.POST, currency)
            console.console_command(actor=request.user, tournament=tournament, command=command)
            messages.success(request, console.done_message(command))
        except console_money.MoneyFormRefused as refused:
            messages.error(request, str(refused))
        except (services.TournamentError, PermissionDenied, ConcurrencyError) as refused:
            messages.error(request, console.refusal_text(refused))
        anchor = request.POST.get("next_anchor", "")
        return redirect(f"{request.path}#{anchor}" if anchor.isidentifier() else request.path)
    return render(request, "tournaments/console/money.html", {"t": tournament,
                                                               "m": console_money.money_page(tournament)})


SHEETS = {"draw": sheets.draw_sheet, "cards": sheets.score_cards, "standings": sheets.standings_sheet,
          "payouts": sheets.payout_sheet}


@never_cache
@login_required
def sheet_pdf(request, pk: int, kind: str):
    tournament = _event(request, pk)
    maker = SHEETS.get(kind)
    if maker is None:
        return HttpResponse(status=404)
    options = {}
    if kind == "cards":  # a big event's cards print in parts (sheets.CARDS_PER_SHEET)
        part = request.GET.get("part", "1")
        if not (part.isascii() and part.isdigit() and len(part) < 6):
            return HttpResponse(status=404)
        options["part"] = int(part)
    pdf = maker(tournament, base_url=request.build_absolute_uri("/"), **options)
    if pdf is None:
        return HttpResponse(status=404)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="event-{tournament.pk}-{kind}.pdf"'
    return response


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def my_result(request, pk: int):
    """A player's result in two taps: the banner's link, then the final score (``tournaments/your_match.py``)."""
    tournament = services.visible_or_404(request.user, pk)
    player = your_match.player_of(request.user)
    match = your_match.current_match(player) if player else None
    if match is not None and match["tournament"].pk != tournament.pk:
        match = None
    if request.method == "POST" and match is not None and request.POST.get("action") in PROOF_ACTIONS:
        return _proof_action(request, tournament, match["slot"])
    if request.method == "POST" and match is not None:
        try:
            winner, won, lost = (int(v) for v in request.POST.get("result", "").split(":"))
        except ValueError:
            messages.error(request, _("Tap one of the scores: nothing was recorded."))
            return redirect("my-result", pk=pk)
        try:
            your_match.report_my_result(user=request.user, tournament=tournament, slot=match["slot"], winner=winner,
                                        score=(won, lost))
        except (services.TournamentError, PermissionDenied, ConcurrencyError) as refused:
            messages.error(request, console.refusal_text(refused))
            return redirect("my-result", pk=pk)
        console.settle(tournament)
        messages.success(request, _("Your result is recorded; it counts once your opponent confirms it."))
        return redirect("my-result", pk=pk)
    context = {"t": tournament, "match": match}
    if match is not None and match["online"]:
        context["proof"] = proofs.waiting(selectors.tournament_facts(tournament), match["slot"])
        context["me"] = player.pk
    if match is not None:
        context["choices"] = your_match.score_choices(match, player.pk)
        context["theirs"] = your_match.opponent_said(tournament, match["slot"], player.pk)
    return render(request, "tournaments/my_result.html", context)


PROOF_ACTIONS = ("proof_file", "proof_consent", "proof_decline")


def _proof_action(request, tournament: Tournament, slot: str):
    """The player's match played on another server: its file sent, or the opponent's file consented to."""
    try:
        if request.POST["action"] == "proof_decline":
            proofs.proof_decline(actor=request.user, tournament=tournament, slot=slot,
                                 reason=request.POST.get("reason", ""))
            messages.success(request, _("The match file is declined: it does not count."))
            return redirect("my-result", pk=tournament.pk)
        if request.POST["action"] == "proof_file":
            record = proofs.proof_file(actor=request.user, tournament=tournament, slot=slot,
                                       text=proofs.uploaded_text(request.FILES.get("mat")))
        else:
            record = proofs.proof_consent(actor=request.user, tournament=tournament, slot=slot)
    except (Refusal, PermissionDenied, ConcurrencyError) as refused:
        messages.error(request, console.refusal_text(refused))
        return redirect("my-result", pk=tournament.pk)
    console.settle(tournament)
    messages.success(request, _("Your match file is recorded: it counts once your opponent consents.")
                     if record.awaiting_confirmation else _("The match file is recorded: its match is the slot's."))
    return redirect("my-result", pk=tournament.pk)
