"""The admin in French: the project's own apps, models and the columns and fields the admin
shows are named through the catalogue, so a director who reads French sees no English name of ours there
(Django's own words are Django's catalogue's)."""

from __future__ import annotations

import re
from html import unescape

import polib
import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.admin.utils import label_for_field
from django.db import models
from django.utils.functional import Promise
from django.utils.text import capfirst
from django.utils.translation import gettext, override

from .test_i18n import PO

PROJECT_APPS = ("eventlog", "players", "games", "tournaments", "ratings", "analysis", "seasons")


def french() -> dict:
    return {e.msgid: e.msgstr for e in polib.pofile(str(PO)).translated_entries() if not e.msgctxt}


def project_models():
    return [m for label in PROJECT_APPS for m in apps.get_app_config(label).get_models()]


def registered():
    return [(m, a) for m, a in admin.site._registry.items() if m._meta.app_label in PROJECT_APPS]


def shown_fields(model, model_admin) -> list:
    """The model's fields the admin shows: the list's columns and filters, the form's and the read-only fields."""
    own = {f.name: f for f in model._meta.get_fields() if isinstance(f, models.Field) and not f.auto_created}  # "ID"
    # the change form: the admin form's own list of fields, else every editable field of the model
    form = (getattr(getattr(model_admin.form, "_meta", None), "fields", None)
            or [n for n, f in own.items() if f.editable])
    names = [n for n in (*model_admin.list_display, *model_admin.list_filter, *model_admin.readonly_fields, *form)
             if isinstance(n, str)]
    return [own[n] for n in dict.fromkeys(names) if n in own]


def test_every_project_app_and_model_is_named_through_the_french_catalogue():
    catalogue = french()
    names = [apps.get_app_config(label).verbose_name for label in PROJECT_APPS]
    names += [n for m in project_models() for n in (m._meta.verbose_name, m._meta.verbose_name_plural)]
    names += [f.verbose_name for m, a in registered() for f in shown_fields(m, a)]
    unwrapped = [str(n) for n in names if not isinstance(n, Promise)]  # a plain str never changes language
    assert unwrapped == []
    with override("en"):
        english = [str(n) for n in names]
    with override("fr"):
        said = [str(n) for n in names]
    assert [e for e in english if e not in catalogue] == []
    assert said == [catalogue[e] for e in english]


@pytest.fixture
def filled(make_user, django_user_model):
    """One row of each model the admin lists: a list with no rows shows no columns."""
    from analysis.models import MatchAnalysis
    from eventlog.models import ProjectionCheckpoint, ProjectionFailure
    from players.models import Club
    from ratings.models import ClubRatingRule
    from seasons.models import Season
    from tournaments import services

    club = Club.objects.create(name="Cercle", country="FR")
    ClubRatingRule.objects.create(club=club, ramp="fibs")
    director = make_user("dora", official=True, club=club)
    services.tournament_create(actor=director, name="Mardi", format="single_elimination", settings={})
    Season.objects.create(name="Hiver", club=club, director=director)
    MatchAnalysis.objects.create(stream_id="match-x", plies=0)
    ProjectionCheckpoint.objects.get_or_create(name="checkpoint-x")
    ProjectionFailure.objects.create(projection="p", stream_id="s", global_position=1, event_type="E", error="e")
    return django_user_model.objects.create_superuser("root", password="pw-root")


def column_headers(page: str) -> dict:
    """The change list's column headers, by field name."""
    return dict(re.findall(r'<th scope="col" class="[^"]*column-(\w+)[^"]*">\s*(?:<div class="sortoptions">.*?'
                           r'</div>\s*)?<div class="text">(?:<a [^>]*>|<span>)(.*?)(?:</a>|</span>)', page, re.S))


@pytest.mark.django_db
def test_a_superuser_reads_the_admin_of_the_projects_models_in_french(client, filled):
    client.force_login(filled)
    catalogue = french()
    index = unescape(client.get("/admin/", HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    for model, model_admin in registered():
        with override("en"):
            app_en, plural_en = str(apps.get_app_config(model._meta.app_label).verbose_name), str(
                model._meta.verbose_name_plural)
            headers_en = {f: str(label_for_field(f, model, model_admin)) for f in model_admin.list_display}
        app_fr, plural_fr = catalogue[app_en], catalogue[plural_en]
        assert f">{app_fr}<" in index and f">{capfirst(plural_fr)}<" in index
        if plural_fr.lower() != plural_en.lower():
            assert f">{capfirst(plural_en)}<" not in index, plural_en
        page = unescape(client.get(f"/admin/{model._meta.app_label}/{model._meta.model_name}/",
                                   HTTP_ACCEPT_LANGUAGE="fr").content.decode())
        with override("fr"):  # the list's title, in Django's French around our name
            titles = [gettext(t) % model._meta.verbose_name for t in ("Select %s to change", "Select %s to view")]
        assert any(title in page for title in titles), (model, titles)
        headers = column_headers(page)
        assert set(headers) >= {f for f, text in headers_en.items() if text}, (model, headers)
        for field, text in headers_en.items():
            if text:  # a column without a title (the event list's "Run this event" link) says nothing
                assert headers[field] == capfirst(catalogue[text]), (model, field, headers[field])
