"""A player's language as people and spreadsheets write it, and the site's when they never said."""

import pytest

from players.languages import language_code, preferred_language
from players.models import Player


@pytest.mark.parametrize("written, code", [
    ("fr", "fr"), ("FR", "fr"), ("fr-FR", "fr"), ("fr_CA", "fr"), ("Français", "fr"), ("french", "fr"),
    ("en", "en"), ("English", "en"), ("en-GB", "en"), (" en ", "en"),
    ("", None), ("de", None), ("klingon", None), ("f", None),
])
def test_a_language_is_read_as_the_sites_code_or_refused(written, code):
    assert language_code(written) == code


def test_a_player_who_never_said_is_written_to_in_the_sites_language(settings):
    settings.LANGUAGE_CODE = "fr"
    assert preferred_language(Player(display_name="Ann")) == "fr"
    assert preferred_language(Player(display_name="Bob", language="en")) == "en"


@pytest.mark.django_db
def test_a_player_who_chose_french_gets_the_site_in_french_when_they_log_in_anywhere(client, make_user):
    make_user("ann")
    Player.objects.filter(user__username="ann").update(language="fr")
    make_user("bob")
    answer = client.post("/accounts/login/", {"username": "ann", "password": "pw-ann"})
    assert answer.status_code == 302 and answer.cookies["django_language"].value == "fr"
    assert 'lang="fr"' in client.get("/").content.decode()
    other = client.__class__()
    answer = other.post("/accounts/login/", {"username": "bob", "password": "pw-bob"})
    assert answer.status_code == 302 and "django_language" not in answer.cookies  # never said: as the browser asks
    assert 'lang="en"' in other.get("/").content.decode()
