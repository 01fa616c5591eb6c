"""The chouette's pages: open a session, record it on one tablet, and its running session sheet.

Plain forms, read through the same declarations as the API's bodies (games/chouettes.py): a refusal is said on the
page in the reader's language and nothing is recorded."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render

from apikit.refusals import refusal_text
from eventlog.store import ConcurrencyError
from games.engine.chouette import BOX, Phase, Variation
from games.engine.errors import EngineError, Refusal

from . import chouettes
from .errors import BadCommand, MatchNotFound


def _body_of(form, args) -> dict:
    """A form's fields as the body the declarations read: lists where a field is a list, numbers for dice."""
    body = {}
    for arg in args:
        if arg.kind == "names":
            body[arg.name] = [v for v in form.getlist(arg.name) if v]
        elif arg.kind == "dice":
            body[arg.name] = [int(v) if v.isascii() and v.isdigit() else v for v in form.getlist(arg.name)]
        elif arg.kind == "flag":
            body[arg.name] = form.get(arg.name) == "on"
        elif arg.name in form:
            body[arg.name] = form.get(arg.name)
    return body


@login_required
def chouette_new(request):
    refused = None
    if request.method == "POST":
        body = _body_of(request.POST, chouettes.OPENING_ARGS)
        body["players"] = [n.strip() for n in request.POST.get("players", "").splitlines() if n.strip()]
        try:
            chouette = chouettes.chouette_open(actor=request.user, start=chouettes.parse_opening(body))
        except (EngineError, BadCommand) as exc:
            refused = refusal_text(exc)
        else:
            return redirect("chouette-page", stream_id=chouette.stream_id)
    return render(request, "games/chouette_new.html", {
        "variations": [v.value for v in Variation], "refused": refused, "form": request.POST,
    }, status=400 if refused else 200)


def chouette_page(request, stream_id: str):
    try:
        chouette = chouettes.chouette_load(stream_id)
    except MatchNotFound:
        raise Http404("no such chouette") from None
    refused = None
    if request.method == "POST":
        if not chouettes.may_record(request.user, chouette):
            raise Http404("no such chouette")
        spec = chouettes.COMMANDS.get(request.POST.get("type", ""))
        version = request.POST.get("expected_version", "")
        try:
            if spec is None:
                raise BadCommand(chouettes.Reason.COMMAND_OBJECT)
            body = {"type": spec.type, **_body_of(request.POST, spec.args)}
            chouettes.chouette_command(actor=request.user, stream_id=stream_id, command=chouettes.parse(body),
                                       expected_version=int(version) if version.isascii() and version.isdigit()
                                       else None)
        except (Refusal, ConcurrencyError) as exc:
            refused = refusal_text(exc)
            chouette = chouettes.chouette_load(stream_id)
        else:
            return redirect("chouette-page", stream_id=stream_id)
    return render(request, "games/chouette.html", _context(request, chouette, refused), status=400 if refused else 200)


def _context(request, chouette: chouettes.Chouette, refused: str | None) -> dict:
    s = chouette.state
    doublers = []
    if s.phase == Phase.ROLL:
        side = s.turn
        doublers = [c.member for c in s.cubes if c.playing and c.owner in (None, side)]
    return {
        "c": chouette,
        "s": s,
        "box_on_roll": s.turn == BOX,
        "players": [p for p, _ in s.sheet],
        "rows": chouettes.sheet_rows(s),
        "totals": [total for _, total in s.sheet],
        "total_sum": sum(total for _, total in s.sheet),
        "doublers": doublers,
        "plays": sorted({str(p) for p in s.legal_plays()}),
        "board": str(s.board_of(BOX)) if s.phase != Phase.OPENING else "",
        "may_record": chouettes.may_record(request.user, chouette),
        "refused": refused,
        "Phase": {p.name: p.value for p in Phase},
    }
