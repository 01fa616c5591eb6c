"""The clock's rules are published with the event rules, from the engine's own presets, in English and French."""

from __future__ import annotations

import re

import pytest
from django.utils.html import strip_tags

from games.engine.clock import MINUTE, PRESETS

pytestmark = pytest.mark.django_db


def test_the_rules_page_lists_every_preset_with_its_figures_and_source(client):
    page = client.get("/events/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    table = page[page.index('id="clock-presets"'):]
    table = table[:table.index("</table>")]
    rows = {cells[0]: cells[1:] for cells in (re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)
                                               for row in re.findall(r"<tr>(.*?)</tr>", table)[1:])}
    assert set(rows) == set(PRESETS)
    assert rows["us"][:4] == ["120 s", "60 s", "12 s", "—"] and "USBGF" in rows["us"][4]
    assert rows["aba"][:3] == ["360 s", "180 s", "0 s"] and rows["us_overtime_1"][3] == "60 s"
    # the worked example says what the engine computes
    us = PRESETS["us"]
    said = [us.reserve(11, score) // MINUTE for score in ((0, 0), (3, 5), (10, 6))]
    assert said == [22, 14, 6]
    assert "22 minutes at 0–0, 14 minutes at 3–5 and 6 minutes in a Crawford game at 10–6" in strip_tags(page)


def test_the_clock_rules_read_in_french(client):
    page = strip_tags(client.get("/events/rules/", HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert "Pendules" in page and "Chute du drapeau" in page and "22 minutes à 0–0" in page
