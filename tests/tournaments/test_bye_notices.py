"""The bye holder of a Swiss round is told, as the paired players are told where to play: one e-mail per round, in
the player's own language, saying the round and what a bye counts for; nobody is told twice, and a bye that is no
longer theirs (the round paired again) or a round the event has gone past is not announced."""

import pytest
from django.core import mail
from django.utils import translation

from players.models import Player
from tournaments import console as console_service
from tournaments import notices, services
from tournaments.models import ByeNotice, MatchNotice
from tournaments.selectors import tournament_data

from .test_notices_in_the_players_language import console, director  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db

FIVE = "Anne, anne@example.org, C1, en\nBob, bob@example.org, C2, en\nCléo, cleo@example.org, C3, en\n" \
       "Dan, dan@example.org, C4, en\nÉlise, elise@example.org, C5, fr"


def send_all() -> None:
    """What the Celery tasks do once the follower's batch commits (a test's transaction never commits)."""
    for notice in MatchNotice.objects.all():
        notices.match_notice_send(notice.match_id)
    for notice in ByeNotice.objects.all():
        notices.bye_notice_send(notice.pk)


def to(address: str):
    return [m for m in mail.outbox if m.to == [address]]


def test_the_bye_holder_is_told_in_their_language_and_once(client, director):  # noqa: F811
    event = services.tournament_create(actor=director, name="Jeudi", format="swiss", settings={"rounds": 3})
    assert "members entered" in console(client, event, action="import", members=FIVE)
    console(client, event, action="check_in_all")
    seeds = [Player.objects.get(display_name=n).pk for n in ("Anne", "Bob", "Cléo", "Dan", "Élise")]
    services.tournament_command(actor=director, tournament=event,
                                command={"type": "draw", "method": "manual", "seeds": seeds})
    console_service.settle(event)  # round 1 paired: four play, the lowest seed (Élise) has the bye
    send_all()

    paired = {a for a in ("anne", "bob", "cleo", "dan") if to(f"{a}@example.org")}
    assert paired == {"anne", "bob", "cleo", "dan"}
    (bye,) = to("elise@example.org")
    # her language: the round's name as the French catalogue says it (the new sentences follow the catalogue)
    with translation.override("fr"):
        assert translation.gettext("Round %(n)s") % {"n": 1} in bye.subject
    assert "Jeudi" in bye.subject and "Jeudi" in bye.body
    assert ByeNotice.objects.get().sent

    send_all()  # a task run again, a notice swept again: nobody is told twice
    assert len(to("elise@example.org")) == 1 and len(mail.outbox) == 5


def test_an_english_bye_holder_reads_it_in_english_and_a_past_round_is_not_announced(client, director):  # noqa: F811
    event = services.tournament_create(actor=director, name="Jeudi", format="swiss", settings={"rounds": 2})
    console(client, event, action="import", members=FIVE.replace("C5, fr", "C5, en"))
    console(client, event, action="check_in_all")
    seeds = [Player.objects.get(display_name=n).pk for n in ("Anne", "Bob", "Cléo", "Dan", "Élise")]
    services.tournament_command(actor=director, tournament=event,
                                command={"type": "draw", "method": "manual", "seeds": seeds})
    console_service.settle(event)
    send_all()
    (bye,) = to("elise@example.org")
    assert bye.subject == "Jeudi: you have the bye in Round 1"
    assert "You have the bye in Round 1 of Jeudi: you have no match to play in this round." in bye.body
    assert "A bye counts as a won match: one point, 0–0 in match points." in bye.body

    # round 1 played: round 2 is paired, and its bye holder is told
    for s in tournament_data(event)["slots"]:
        if s["status"] == "ready":
            services.tournament_command(actor=director, tournament=event, command={
                "type": "report_result", "slot": s["key"], "winner": min(s["players"]), "score": [7, 0]})
    console_service.settle(event)
    send_all()
    second = Player.objects.get(pk=ByeNotice.objects.get(round=2).player_id)
    assert second.display_name != "Élise"  # one bye each while it can be
    assert [m.subject for m in to(second.email)][-1] == "Jeudi: you have the bye in Round 2"

    # round 1's notice found unsent now (its task lost, the log read again): its round is past, nobody is told
    ByeNotice.objects.filter(round=1).update(sent_at=None, sent=False)
    before = len(mail.outbox)
    assert not notices.bye_notice_send(ByeNotice.objects.get(round=1).pk)
    assert len(mail.outbox) == before
