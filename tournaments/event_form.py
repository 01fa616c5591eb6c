"""The director's event form (``/events/new/``, ``/events/{id}/settings/``): an event created, and its settings
changed, from the director's own pages, each format showing only its own settings.

Every setting of ``tournaments/config.py`` is a field here, in the director's words, with the formats it belongs
to (the page shows the chosen format's; ``event_form.js`` switches them as the format changes, and without the
script a button shows the new format's). Each field is checked with a message that names it; the settings the
form builds are the API's JSON, checked again by the services (``config.checked``), and a change after the draw
is judged by the decider (``config.AFTER_DRAW``): the fields it would refuse are shown, not editable.
"""

from __future__ import annotations

import copy
import re

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from apikit.refusals import refusal_text
from games.limits import MAX_MATCH_LENGTH
from players import authority
from players.models import Club

from . import config, names, stream
from .events import SETTINGS_KEPT
from .formats.standings import TIEBREAKS
from .models import Tournament
from .selectors import TIEBREAK_LABELS
from .services import SWISS_TIEBREAKS

F = stream.Format
ALL = tuple(stream.FORMATS)
KNOCKOUTS = (F.SINGLE_ELIMINATION, F.SWISS, F.ROUND_ROBIN)  # a staged Swiss or round robin ends in a knockout
ROUNDS = (F.SWISS, F.ROUND_ROBIN, F.LADDER, F.LEAGUE, F.TEAM_ROUND_ROBIN, F.TEAM_SWISS, F.TEAM_KNOCKOUT)  # the formats played in rounds
TEAM_EVENTS = (F.TEAM_ROUND_ROBIN, F.TEAM_SWISS, F.TEAM_KNOCKOUT)
TABLES = (F.SWISS, F.ROUND_ROBIN, F.LEAGUE)  # the formats ranked by a table with tie-breaks
MAX_TIEBREAKS = len(TIEBREAKS)
LENGTHS_BY_ROUND = re.compile(r"^\s*(\d+)\s*[:=]\s*(\d+)\s*$")
BRACKETS = ("rounds", "main", "consolation", "last_chance", "winners", "losers", "grand_final")  # config.BRACKETS
EMPTY_SEVEN = _("Empty: 7 points.")


def _odd(value: int) -> None:
    if value is not None and value % 2 == 0:
        raise forms.ValidationError(_("A match is played to an odd number of points."), code="even")


def length(label, help_text="", required=False):
    return forms.IntegerField(label=label, help_text=help_text, required=required, min_value=1,
                              max_value=MAX_MATCH_LENGTH, validators=[_odd],
                              widget=forms.NumberInput(attrs={"size": 3, "step": 2}))


def lengths_by_round(label):
    return forms.CharField(label=label, required=False, max_length=300,
                           help_text=_("Round: length, separated by commas, e.g. 2: 5, 3: 9. Empty: none."))


def whole(label, low, high=None, help_text="", initial=None):
    return forms.IntegerField(label=label, help_text=help_text, required=False, min_value=low, max_value=high,
                              initial=initial, widget=forms.NumberInput(attrs={"size": 3}))


def setting_field(name: str, label, help_text="", initial=None) -> forms.Field:
    """A whole-number setting's field, within the bounds of its declaration (``tournaments.config.EventSettings``):
    the director's forms (this one, the admin's) check what the services will."""
    s = config.SETTINGS[name]
    return whole(label, int(s.low), int(s.high), help_text, initial)


# each section of the form: its legend, and its fields, each with the formats it belongs to
SECTIONS: list[tuple[str, str, list[tuple[str, tuple[str, ...]]]]] = [
    ("rounds", _("Rounds and match lengths"), [
        ("rounds", (F.SWISS, F.TEAM_SWISS)), ("cycles", (F.ROUND_ROBIN, F.LEAGUE)), ("groups", (F.ROUND_ROBIN, F.TEAM_ROUND_ROBIN)),
        ("auto_pair", (F.SWISS,)), ("rounds_default", ROUNDS), ("rounds_final", TABLES),
        ("rounds_rounds", TABLES)]),
    ("tiebreaks", _("Tie-breaks"), [(f"tiebreak_{i}", TABLES) for i in range(1, MAX_TIEBREAKS + 1)]),
    ("late-entry", _("Late entry"), [("late_entry_until_round", (F.SWISS,)), ("late_entry_points", (F.SWISS,))]),
    ("stages", _("Stages"), [("qualifiers", (F.SWISS, F.ROUND_ROBIN, F.TEAM_ROUND_ROBIN))]),
    ("knockout", _("Knockout: the main bracket"), [
        ("main_default", KNOCKOUTS), ("main_final", KNOCKOUTS), ("main_rounds", KNOCKOUTS)]),
    ("flights", _("Consolation and Last Chance"), [
        ("consolation", (F.SINGLE_ELIMINATION,)), ("consolation_feeds", (F.SINGLE_ELIMINATION,)),
        ("consolation_default", (F.SINGLE_ELIMINATION,)), ("consolation_final", (F.SINGLE_ELIMINATION,)),
        ("last_chance", (F.SINGLE_ELIMINATION,)), ("last_chance_default", (F.SINGLE_ELIMINATION,)),
        ("last_chance_final", (F.SINGLE_ELIMINATION,))]),
    ("reentry", _("Re-entry"), [("reentry_until_round", KNOCKOUTS), ("reentry_times", KNOCKOUTS)]),
    ("double", _("Double elimination"), [
        ("winners_default", (F.DOUBLE_ELIMINATION,)), ("winners_final", (F.DOUBLE_ELIMINATION,)),
        ("winners_rounds", (F.DOUBLE_ELIMINATION,)), ("losers_default", (F.DOUBLE_ELIMINATION,)),
        ("losers_rounds", (F.DOUBLE_ELIMINATION,)), ("grand_final_default", (F.DOUBLE_ELIMINATION,)),
        ("reset", (F.DOUBLE_ELIMINATION,))]),
    ("ladder", _("Ladder"), [
        ("reach", (F.LADDER,)), ("on_win", (F.LADDER,)), ("challenge_days", (F.LADDER,)), ("refused", (F.LADDER,)),
        ("ladder_unplayed", (F.LADDER,))]),
    ("league", _("League"), [
        ("division_size", (F.LEAGUE,)), ("promote", (F.LEAGUE,)), ("relegate", (F.LEAGUE,)),
        ("round_days", (F.LEAGUE,)), ("league_unplayed", (F.LEAGUE,))]),
    ("teams", _("Teams"), [
        ("boards", TEAM_EVENTS), ("reserves", TEAM_EVENTS), ("fixed_order", TEAM_EVENTS)]),
]
FORMATS_OF = {name: formats for _key, _legend, fields in SECTIONS for name, formats in fields}
# the setting each field says (a change after the draw is allowed by the setting: config.AFTER_DRAW)
SETTING_OF = {name: ("lengths" if name.rsplit("_", 1)[-1] in ("default", "final", "rounds") and name != "rounds"
                     else "tiebreaks" if name.startswith("tiebreak_")
                     else "reentry" if name.startswith("reentry_")
                     else "unplayed" if name.endswith("_unplayed") else name)
              for name in FORMATS_OF}


class EventForm(forms.Form):
    """A new event (``tournament`` None) or an event's settings; ``user`` is who fills it in."""

    name = forms.CharField(label=_("Name"), max_length=Tournament._meta.get_field("name").max_length)
    format = forms.ChoiceField(label=_("Format"), choices=lambda: [(f, names.format_name(f)) for f in stream.FORMATS],
                               initial=F.SINGLE_ELIMINATION)
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.none(), required=False,
                                  help_text=_("The event is held under its name, with its rating rule."))
    starts_on = forms.DateField(label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    published = forms.BooleanField(label=_("Published"), required=False, initial=True,
                                   help_text=_("A hidden event is seen only by its director, officials and "
                                               "entrants."))
    dice = forms.ChoiceField(label=_("Dice"), initial="server", choices=[
        ("server", _("server dice (verifiable)")), ("board", _("dice from the board"))],
        help_text=_("Where the rolls of the event's matches come from; fixed for each match."))
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True,
                               help_text=_("Its results count for the ratings and the season tables (the console "
                                           "changes it later)."))

    rounds = setting_field("rounds", _("Rounds"), _("How many Swiss rounds are played."))
    cycles = setting_field("cycles", _("Cycles"), _("Each player meets each other this many times."), initial=1)
    groups = setting_field("groups", _("Groups"), _("Played in this many groups, the seeds dealt in snake "
                                                    "order; 1: one group."), initial=1)
    auto_pair = forms.BooleanField(label=_("Pair each round as soon as the one before is decided"), required=False,
                                   initial=True, help_text=_("Unticked: the director pairs each round from the "
                                                             "console."))
    rounds_default = length(_("Match length"), EMPTY_SEVEN)
    rounds_final = length(_("Last round's length"), _("Empty: as the others."))
    rounds_rounds = lengths_by_round(_("Lengths of particular rounds"))

    late_entry_until_round = setting_field(
        "late_entry_until_round", _("Late entry until round"),
        _("Late entry is open until this round is paired: a player entered late plays from the next round to be "
          "paired. Empty or 0: no late entry."))
    late_entry_points = forms.FloatField(
        label=_("Points credited to a late entrant"), required=False,
        min_value=config.SETTINGS["late_entry_points"].low, max_value=config.SETTINGS["late_entry_points"].high,
        help_text=_("Added to their score for the rounds they missed (e.g. 0.5 a round). Empty: 0."),
        widget=forms.NumberInput(attrs={"size": 3, "step": "0.5"}))

    qualifiers = setting_field("qualifiers", _("Knockout of the top"),
                               _("The top K of the table go on to a knockout, drawn when you close stage one. Empty: "
                                 "one stage."))

    main_default = length(_("Match length"), EMPTY_SEVEN)
    main_final = length(_("Final's length"), _("Empty: as the other rounds."))
    main_rounds = lengths_by_round(_("Lengths of particular rounds"))

    consolation = forms.BooleanField(label=_("Consolation"), required=False,
                                     help_text=_("The early losers of the Main play on in a Consolation bracket."))
    consolation_feeds = setting_field("consolation_feeds", _("Consolation fed up to round"),
                                      _("Losers of the Main up to this round go to the Consolation. Empty: the "
                                        "first round's."))
    consolation_default = length(_("Consolation's match length"), EMPTY_SEVEN)
    consolation_final = length(_("Consolation final's length"), _("Empty: as its other rounds."))
    last_chance = forms.BooleanField(label=_("Last Chance"), required=False,
                                     help_text=_("The Consolation's early losers play a Last Chance."))
    last_chance_default = length(_("Last Chance's match length"), EMPTY_SEVEN)
    last_chance_final = length(_("Last Chance final's length"), _("Empty: as its other rounds."))

    reentry_until_round = whole(_("Re-entry up to round"), 1, config.MAX_ROUNDS,
                                _("Players knocked out of the knockout up to this round may buy back in. Empty: no "
                                  "re-entry."))
    reentry_times = whole(_("Re-entries per player"), 1, config.MAX_REENTRIES, initial=1)

    winners_default = length(_("Winners' bracket match length"), EMPTY_SEVEN)
    winners_final = length(_("Winners' final's length"), _("Empty: as its other rounds."))
    winners_rounds = lengths_by_round(_("Winners' bracket: lengths of particular rounds"))
    losers_default = length(_("Losers' bracket match length"), EMPTY_SEVEN)
    losers_rounds = lengths_by_round(_("Losers' bracket: lengths of particular rounds"))
    grand_final_default = length(_("Grand final's length"), EMPTY_SEVEN)
    reset = forms.BooleanField(label=_("Grand final reset"), required=False, initial=True,
                               help_text=_("If the losers' bracket winner wins the grand final, a second one is "
                                           "played."))

    reach = setting_field("reach", _("Reach"), _("How many rungs up a player may challenge."), initial=3)
    on_win = forms.ChoiceField(label=_("A winning challenger"), required=False, initial="take_place", choices=[
        ("take_place", _("takes the defender's rung (those between move down one)")),
        ("swap", _("swaps rungs with the defender"))])
    challenge_days = setting_field("challenge_days", _("Days to play a challenge"))
    refused = forms.ChoiceField(label=_("A declined challenge"), required=False, initial="walkover", choices=[
        ("walkover", _("is a walkover to the challenger")), ("cancelled", _("is cancelled"))])
    ladder_unplayed = forms.ChoiceField(label=_("A challenge unplayed by its deadline"), required=False,
                                        initial="walkover", choices=[
                                            ("walkover", _("is a walkover to the challenger")),
                                            ("cancelled", _("is cancelled"))])

    division_size = setting_field("division_size", _("Players per division"))
    promote = setting_field("promote", _("Promoted each season"), initial=1)
    relegate = setting_field("relegate", _("Relegated each season"), initial=1)
    round_days = setting_field("round_days", _("Days per round"), _("Each round's deadline comes this many days after "
                                                                   "the one before."))
    league_unplayed = forms.ChoiceField(label=_("A match unplayed by its round's deadline"), required=False,
                                        initial="double_loss", choices=[
                                            ("double_loss", _("is lost by both players")),
                                            ("void", _("counts for nobody"))])

    boards = setting_field("boards", _("Boards"), _("Each team match is this many matches, board 1 against board "
                                                    "1 and so on; a majority of them wins it."), initial=3)
    reserves = setting_field("reserves", _("Reserves"), _("How many more players a team may list, to come in "
                                                          "for one of its players."), initial=0)
    fixed_order = forms.BooleanField(label=_("Board order fixed for the event"), required=False, initial=True,
                                     help_text=_("A team keeps its players in the order it listed them; unticked, "
                                                 "it sets its order for each team match."))

    def __init__(self, *args, user, tournament: Tournament | None = None, facts=None, **kwargs):
        self.user, self.tournament, self.facts = user, tournament, facts
        if tournament is not None:
            kwargs.setdefault("initial", initial_of(tournament, facts))
        super().__init__(*args, **kwargs)
        usual = list(SWISS_TIEBREAKS)  # a new event's: the Swiss ones, which the services give a Swiss event anyway
        for i in range(1, MAX_TIEBREAKS + 1):
            self.fields[f"tiebreak_{i}"] = forms.ChoiceField(
                label=_("Tie-break %(n)s") % {"n": i}, required=False,
                initial=usual[i - 1] if i <= len(usual) else "",
                choices=[("", pgettext_lazy("tie-break", "none"))] + [(t, TIEBREAK_LABELS[t]) for t in TIEBREAKS])
        if authority.officiates_everything(user):
            self.fields["club"].queryset = Club.objects.all()
        else:
            self.fields["club"].queryset = Club.objects.filter(directors=user)
        self.fields["club"].required = tournament is None and not authority.may_create_event(user, None)
        self.fields["club"].empty_label = _("none: a casual event") if not self.fields["club"].required else None
        if tournament is None and not self.is_bound and "club" not in self.initial:
            own = list(Club.objects.filter(directors=user).values_list("pk", flat=True)[:2])
            if len(own) == 1:  # a club's director holds the club's events: theirs, unless they choose otherwise
                self.initial["club"] = own[0]
        if tournament is not None:  # chosen when the event was created: part of its record
            for fixed in ("format", "club", "rated"):
                self.fields[fixed].disabled = True
            if facts is not None and facts.drawn:
                for name, setting in SETTING_OF.items():
                    if setting not in config.AFTER_DRAW:
                        self.fields[name].disabled = True

    # -- what the page shows ------------------------------------------------------------------

    @property
    def chosen_format(self) -> str:
        if self.tournament is not None:
            return self.initial.get("format", F.SINGLE_ELIMINATION)
        value = self.data.get("format") if self.is_bound else self.initial.get("format")
        return value if value in stream.FORMATS else F.SINGLE_ELIMINATION

    def sections(self) -> list[dict]:
        """The settings' sections with their fields, each field with its formats and whether the chosen format
        shows it (the others are in the page, hidden, for the script to show when the format changes)."""
        chosen, out = self.chosen_format, []
        for key, legend, fields in SECTIONS:
            rows = [{"field": self[name], "formats": " ".join(formats), "shown": chosen in formats}
                    for name, formats in fields]
            formats = sorted({f for _name, fs in fields for f in fs})
            out.append({"key": key, "legend": legend, "rows": rows, "formats": " ".join(formats),
                        "shown": chosen in formats})
        return out

    # -- checking -----------------------------------------------------------------------------

    def clean_club(self):
        club = self.cleaned_data.get("club")
        if self.tournament is None and not authority.may_create_event(self.user, club):
            raise forms.ValidationError(_("Choose your club: events are held under a club's name."))
        return club

    def clean(self):
        data = super().clean()
        fmt = self.chosen_format
        for name in ("rounds_rounds", "main_rounds", "winners_rounds", "losers_rounds"):
            if fmt in FORMATS_OF[name] and not self.fields[name].disabled:
                try:
                    data[name] = parse_lengths(data.get(name) or "")
                except forms.ValidationError as wrong:
                    self.add_error(name, wrong)
        if fmt == F.SWISS and not data.get("rounds") and not self.fields["rounds"].disabled:
            self.add_error("rounds", _("A Swiss event needs its number of rounds."))
        if fmt == F.SINGLE_ELIMINATION:
            if data.get("last_chance") and not data.get("consolation"):
                self.add_error("last_chance", _("A Last Chance is fed by the Consolation: tick Consolation too."))
            if data.get("reentry_until_round") and data.get("consolation"):
                self.add_error("reentry_until_round", _("Re-entry and a Consolation both take the early losers: "
                                                        "choose one."))
        if fmt in (F.SWISS, F.ROUND_ROBIN) and data.get("reentry_until_round") and not data.get("qualifiers"):
            self.add_error("reentry_until_round", _("Re-entry is into the knockout of the top: give how many "
                                                    "qualify for it first."))
        chosen = [data.get(f"tiebreak_{i}") for i in range(1, MAX_TIEBREAKS + 1)]
        chosen = [t for t in chosen if t]
        if fmt in TABLES and len(set(chosen)) != len(chosen):
            self.add_error("tiebreak_2", _("Each tie-break once."))
        if not self.errors:
            try:  # the services' own check, as the API's: a combination this form does not know of yet
                self.settings = config.checked(fmt, self.settings_from(data))
            except config.SettingsError as refused:
                raise forms.ValidationError(_("These settings are refused: %(why)s") % {"why": refusal_text(refused)}) from None
        return data

    def settings_from(self, data: dict) -> dict:
        """The settings the form says, laid over the event's (a setting this form does not show, or does not let
        change after the draw, is kept as it is)."""
        fmt = self.chosen_format
        base = copy.deepcopy({k: v for k, v in (self.facts.config if self.facts else {}).items()
                              if k not in SETTINGS_KEPT})
        out = base

        def given(name: str) -> bool:
            return fmt in FORMATS_OF.get(name, ALL) and not self.fields[name].disabled

        def put(key: str, value, default=None) -> None:
            if value is None or value == "" or (value == default and key not in base):
                out.pop(key, None)
            else:
                out[key] = value

        if not self.fields["dice"].disabled:
            put("dice", data.get("dice") or "server", "server")
        if self.tournament is None and data.get("rated") is False:
            out["rated"] = False
        lengths = dict(out.get("lengths", {}))
        for bracket in BRACKETS:
            parts = [p for p in ("default", "final", "rounds") if f"{bracket}_{p}" in self.fields
                     and given(f"{bracket}_{p}")]
            if not parts:
                continue
            spec = dict(lengths.get(bracket, {}))  # a part the form does not show for the format is kept
            for part in parts:
                if data.get(f"{bracket}_{part}"):
                    spec[part] = data[f"{bracket}_{part}"]
                else:
                    spec.pop(part, None)
            if spec:
                lengths[bracket] = spec
            else:
                lengths.pop(bracket, None)
        if fmt == F.SINGLE_ELIMINATION and not data.get("consolation") and given("consolation"):
            lengths.pop("consolation", None)
            lengths.pop("last_chance", None)
        put("lengths", lengths or None)
        simple = {"rounds": None, "cycles": 1, "groups": 1, "auto_pair": True, "late_entry_until_round": 0,
                  "late_entry_points": 0, "qualifiers": None, "consolation": False, "consolation_feeds": None,
                  "last_chance": False, "reset": True, "reach": 3, "on_win": "take_place", "challenge_days": None,
                  "refused": "walkover", "division_size": None, "promote": 1, "relegate": 1, "round_days": None,
                  "boards": 3, "reserves": 0, "fixed_order": True}
        for key, default in simple.items():
            if given(key):
                value = data.get(key)
                if key == "late_entry_points" and value is not None and float(value).is_integer():
                    value = int(value)
                put(key, value, default)
        if not data.get("consolation") and given("consolation"):
            out.pop("consolation_feeds", None)
            out.pop("last_chance", None)
        unplayed = "ladder_unplayed" if fmt == F.LADDER else "league_unplayed" if fmt == F.LEAGUE else None
        if unplayed and given(unplayed):
            put("unplayed", data.get(unplayed) or None, "walkover" if fmt == F.LADDER else "double_loss")
        if fmt in TABLES and given("tiebreak_1"):
            put("tiebreaks", [t for t in (data.get(f"tiebreak_{i}") for i in range(1, MAX_TIEBREAKS + 1)) if t], [])
        if given("reentry_until_round"):
            if data.get("reentry_until_round"):
                out["reentry"] = {"until_round": data["reentry_until_round"], "times": data.get("reentry_times") or 1}
            else:
                out.pop("reentry", None)
        return out


def parse_lengths(text: str) -> dict[str, int]:
    """``2: 5, 3: 9`` as ``{"2": 5, "3": 9}``, each length odd, each round from 1 to ``MAX_ROUNDS``."""
    out: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.replace(";", ",").split(","))):
        found = LENGTHS_BY_ROUND.match(part)
        if not found:
            raise forms.ValidationError(_("Write each round as round: length, e.g. 2: 5 (not %(part)s).")
                                        % {"part": part[:20]})
        number, points = int(found[1]), int(found[2])
        if not 1 <= number <= config.MAX_ROUNDS:
            raise forms.ValidationError(_("A round is a number from 1 to %(max)s.") % {"max": config.MAX_ROUNDS})
        if points < 1 or points > MAX_MATCH_LENGTH or points % 2 == 0:
            raise forms.ValidationError(_("Round %(n)s: a match is played to an odd number of points.")
                                        % {"n": number})
        out[str(number)] = points
    return out


def _round_lengths(spec: dict | None) -> str:
    return ", ".join(f"{k}: {v}" for k, v in sorted((spec or {}).get("rounds", {}).items(), key=lambda kv: int(kv[0])))


def initial_of(tournament: Tournament, facts) -> dict:
    """The form's fields as the event's settings say them (a setting left unset shows empty, or its default)."""
    c = facts.config
    lengths = c.get("lengths", {})
    out = {"name": tournament.name, "format": c.get("format"), "club": tournament.club_id,
           "starts_on": tournament.starts_on, "published": tournament.published, "dice": c.get("dice", "server"),
           "rated": facts.event_rated}
    for bracket in BRACKETS:  # None where unset: the new form's suggestions are not the event's settings
        spec = lengths.get(bracket) or {}
        out[f"{bracket}_default"] = spec.get("default")
        out[f"{bracket}_final"] = spec.get("final")
        out[f"{bracket}_rounds"] = _round_lengths(spec)
    for key in ("rounds", "cycles", "groups", "auto_pair", "late_entry_until_round", "late_entry_points", "qualifiers",
                "consolation", "consolation_feeds", "last_chance", "reset", "reach", "on_win", "challenge_days",
                "refused", "division_size", "promote", "relegate", "round_days", "boards", "reserves", "fixed_order"):
        if key in c:
            out[key] = c[key]
    if c.get("unplayed"):
        out["ladder_unplayed" if c.get("format") == F.LADDER else "league_unplayed"] = c["unplayed"]
    for i in range(1, MAX_TIEBREAKS + 1):
        tiebreaks = c.get("tiebreaks", [])
        out[f"tiebreak_{i}"] = tiebreaks[i - 1] if i <= len(tiebreaks) else ""
    if c.get("reentry"):
        out["reentry_until_round"], out["reentry_times"] = c["reentry"]["until_round"], c["reentry"]["times"]
    return out


def as_initial(post) -> dict:
    """Posted values as a new form's initial ones (a box left unticked is not posted: it is False)."""
    out = {k: v for k, v in post.items() if k != "csrfmiddlewaretoken"}
    for name, field in EventForm.base_fields.items():
        if isinstance(field, forms.BooleanField) and name not in post:
            out[name] = False
    return out


def may_create_some_event(user) -> bool:
    """Whether the new-event form is for ``user``: an official, a club's director, or a member where the site
    allows casual events."""
    return authority.may_create_event(user, None) or Club.objects.filter(directors=user).exists()
