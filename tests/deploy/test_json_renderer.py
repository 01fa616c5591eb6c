"""The API's JSON renderer (deploy/renderers.py) writes what DRF's writes, byte for byte, for what the API answers."""

import datetime
import decimal
import uuid
from dataclasses import dataclass

import pytest
from django.utils.translation import gettext_lazy
from rest_framework import renderers

from deploy.renderers import JSONRenderer

ANSWERS = [
    {"id": "a1", "version": 7, "players": [{"seat": 0, "name": "Chloé"}, {"seat": 1, "name": "李"}], "dice": None,
     "score": [0, 3], "crawford": True, "pips": [167, 151], "legal_moves": ["8/5 6/5", "13/10 6/5"]},
    {"at": datetime.datetime(2026, 11, 27, 9, 30, 5, 123456, tzinfo=datetime.timezone.utc),
     "naive": datetime.datetime(2026, 11, 27, 9, 30), "day": datetime.date(2026, 11, 27),
     "time": datetime.time(20, 15, 30, 5000), "paris": datetime.datetime(
         2026, 7, 1, 20, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))},
    {"label": gettext_lazy("Ratings"), "id": uuid.UUID("12345678-1234-5678-1234-567812345678"),
     "amount": decimal.Decimal("12.50"), "span": datetime.timedelta(minutes=3), "raw": b"bytes"},
    {1: "one", 2: [True, False, None], "nested": {"deeper": [{"x": 0.5}, (1, 2)]}, "rating": 1534.27},
    {"said": "a line\u2028and a paragraph\u2029end", "quote": "\"\\/<>&'"},
    [], {}, "text", 12, 0.1, True,
]


@pytest.mark.parametrize("data", ANSWERS)
def test_it_writes_what_drfs_renderer_writes(data):
    assert JSONRenderer().render(data) == renderers.JSONRenderer().render(data)


def test_a_pretty_printed_answer_and_an_integer_beyond_64_bits_are_drfs():
    data = {"big": 2**70, "list": [1, 2]}
    assert JSONRenderer().render(data) == renderers.JSONRenderer().render(data) \
        == b'{"big":1180591620717411303424,"list":[1,2]}'
    pretty = JSONRenderer().render({"a": [1]}, "application/json; indent=2")
    assert pretty == renderers.JSONRenderer().render({"a": [1]}, "application/json; indent=2") \
        == b'{\n  "a": [\n    1\n  ]\n}'


def test_what_drf_cannot_write_is_refused_as_drf_refuses_it():
    @dataclass
    class Unknown:
        x: int

    for renderer in (JSONRenderer(), renderers.JSONRenderer()):
        with pytest.raises(TypeError, match="not JSON serializable"):
            renderer.render({"value": Unknown(1)})
        assert renderer.render(None) == b""


def test_the_api_answers_through_it(client):
    from django.urls import resolve

    from games.api.views import MatchCommands

    view = resolve("/api/matches/x/commands/").func.cls
    assert view is MatchCommands and view.renderer_classes[0] is JSONRenderer
    answer = client.get("/api/", HTTP_ACCEPT="application/json")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    assert answer.content == renderers.JSONRenderer().render(answer.json())
