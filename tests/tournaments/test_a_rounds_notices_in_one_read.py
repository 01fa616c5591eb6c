"""A round's match notices are sent together: the same e-mails as sending them one by one, the event's stream
read once for them all, and a notice already sent (or of a replaced match) never sent twice."""

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from players.models import Player
from tournaments import console as console_service
from tournaments import folding, notices, services
from tournaments.models import MatchNotice

pytestmark = pytest.mark.django_db


def drawn_swiss(director, n=8):
    event = services.tournament_create(actor=director, name="Swiss night", format="swiss", settings={"rounds": 3})
    field = [Player.objects.create(display_name=f"P{i}", email=f"p{i}@example.org", language="fr" if i % 2 else "en")
             for i in range(n)]
    for p in field:
        services.tournament_command(actor=director, tournament=event, command={"type": "enter", "player": p.pk})
    services.tournament_command(actor=director, tournament=event,
                                command={"type": "draw", "method": "manual", "seeds": [p.pk for p in field]})
    console_service.settle(event)  # the process manager makes the matches; the notices' follower, a notice each
    return event


def sent_mail():
    return sorted((m.to[0], m.subject, m.body) for m in mail.outbox)


def test_a_rounds_notices_sent_together_are_those_sent_one_by_one(make_user):
    event = drawn_swiss(make_user("dora", official=True, player=False))
    ids = sorted(MatchNotice.objects.filter(tournament_id=event.pk).values_list("match_id", flat=True))
    assert len(ids) == 4
    for match_id in ids:
        notices.match_notice_send(match_id)
    one_by_one = sent_mail()
    MatchNotice.objects.update(sent_at=None, sent_to=[])
    mail.outbox.clear()
    folding.SNAPSHOTS.forget()  # the event's stream read from the log, as by a fresh worker
    with CaptureQueriesContext(connection) as reads:
        sent = notices.match_notices_send(ids)
    assert sent_mail() == one_by_one and len(one_by_one) == 8
    assert sorted(sent) == ids and all(len(to) == 2 for to in sent.values())
    stream_reads = [q for q in reads.captured_queries if "eventlog_event" in q["sql"]]
    assert len(stream_reads) == 1
    assert notices.match_notices_send(ids) == {} and len(mail.outbox) == 8  # at most once
