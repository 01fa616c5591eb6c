"""Players told where to play: an e-mail to both players of every match an event creates, and to the bye holder
of every Swiss round (who has no match, and would otherwise hear nothing while the others are called).

``MatchNotices`` is a process following the log (it sends mail: never rebuilt): for every ``MatchCreated`` it records a
:class:`~tournaments.models.MatchNotice` (one per match, whatever replays the log) and asks Celery to send it
once the batch commits; for every ``RoundPaired`` a :class:`~tournaments.models.ByeNotice` for its bye holder.
``match_notice_send`` and ``bye_notice_send`` send at most once: the row is locked and marked sent in the
transaction that sends. The message names the opponent, the table, the length and the round (a bye: the round,
and what a bye counts for), in the language of the player it is written to (``players/languages.py``).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from eventlog.projections import Process
from players.languages import preferred_language
from players.models import Player

from . import names, stream
from .models import ByeNotice, MatchNotice, Tournament
from .selectors import rounds_per_bracket, tournament_facts


class MatchNotices(Process):
    name = "match_notices"
    event_types = ("MatchCreated", "RoundPaired")

    def apply(self, batch) -> None:
        made_now: list[str] = []
        for e in batch:
            if e.stream_type != stream.STREAM_TYPE:
                continue
            if e.event_type == "RoundPaired":
                _record_byes(e)
                continue
            notice, made = MatchNotice.objects.get_or_create(
                match_id=e.payload["match_id"],
                defaults={"tournament_id": stream.tournament_pk_of(e.stream_id), "slot": e.payload["slot"]})
            if made:
                made_now.append(notice.match_id)
        if made_now:  # one task for the batch's notices (a round's): it reads the event once for them all
            transaction.on_commit(lambda: _request_send(made_now))


def _request_send(match_ids: list[str]) -> None:
    from .tasks import send_match_notices

    send_match_notices.apply_async((match_ids,), retry=False)


def _record_byes(e) -> None:
    """A Swiss round's bye holder (a pairing without a second player) gets a notice, as the paired players do."""
    pk = stream.tournament_pk_of(e.stream_id)
    for a, b in e.payload["pairings"]:
        if b is None:
            notice, made = ByeNotice.objects.get_or_create(tournament_id=pk, round=e.payload["round"], player_id=a)
            if made:
                transaction.on_commit(lambda n=notice.pk: _request_bye_send(n))


def _request_bye_send(notice_pk: int) -> None:
    from .tasks import send_bye_notice

    send_bye_notice.apply_async((notice_pk,), retry=False)


PENDING_AFTER = timedelta(seconds=20)  # the task asked for at the commit has had its chance


def send_pending() -> int:
    """Send the notices still unsent a while after they were made (their task lost); returns how many."""
    stale = MatchNotice.objects.filter(sent_at__isnull=True, created_at__lt=timezone.now() - PENDING_AFTER)
    stale_ids = list(stale.values_list("match_id", flat=True)[:200])
    match_notices_send(stale_ids)
    sent = len(stale_ids)
    byes = ByeNotice.objects.filter(sent_at__isnull=True, created_at__lt=timezone.now() - PENDING_AFTER)
    for pk in byes.values_list("pk", flat=True)[:200]:
        bye_notice_send(pk)
        sent += 1
    return sent


def address_of(player: Player) -> str:
    """Where a player is written to: the address the club gave, else their account's."""
    return player.email or (player.user.email if player.user_id else "")


def match_notice_send(match_id: str) -> list[int]:
    """Send the notice of one match if it was not sent; returns the players written to."""
    return match_notices_send([match_id]).get(match_id, [])


def match_notices_send(match_ids: list[str]) -> dict[str, list[int]]:
    """Send the notices of these matches that were not sent (a round's, made in one batch); returns the players
    written to per match. The event's facts, its rounds and the players are read once for them all: a round of
    a big Swiss is hundreds of notices, each of which would otherwise read the whole event again."""
    out: dict[str, list[int]] = {}
    with transaction.atomic():
        notices = list(MatchNotice.objects.select_for_update().filter(match_id__in=match_ids, sent_at__isnull=True)
                       .order_by("tournament_id", "match_id"))
        events = Tournament.objects.in_bulk({n.tournament_id for n in notices})
        facts = {pk: tournament_facts(t) for pk, t in events.items()}
        rounds = {pk: rounds_per_bracket(pk) for pk in events}  # as the console and the sheets name rounds
        links = {n.match_id: facts[n.tournament_id].matches.get(n.slot) for n in notices}
        players = Player.objects.select_related("user").in_bulk(
            {p for link in links.values() if link for p in link["players"]})
        for notice in notices:
            link = links[notice.match_id]
            if link is None or link["match_id"] != notice.match_id:  # replaced before it was sent: its successor
                notice.sent_at = timezone.now()                       # is told
                notice.save(update_fields=["sent_at"])
                out[notice.match_id] = []
                continue
            tournament = events[notice.tournament_id]
            table = facts[notice.tournament_id].tables.get(notice.slot)
            of_bracket = rounds[notice.tournament_id].get(notice.slot.split(":")[0])
            sent = []
            for me, other in (link["players"], tuple(reversed(link["players"]))):
                player, opponent = players[me], players[other]
                address = address_of(player)
                if not address:
                    continue
                with translation.override(preferred_language(player)):  # each player reads it in their own language
                    round_name = names.slot_name(notice.slot, of_bracket)
                    send_mail(_message_subject(tournament, table),
                              _message_body(tournament, round_name, link, table, opponent),
                              settings.DEFAULT_FROM_EMAIL, [address])
                sent.append(me)
            notice.sent_at, notice.sent_to = timezone.now(), sent
            notice.save(update_fields=["sent_at", "sent_to"])
            out[notice.match_id] = sent
    return out


def bye_notice_send(notice_pk: int) -> bool:
    """Tell a Swiss round's bye holder, once; True if written to. Nobody is told of a bye that is no longer theirs
    (the round paired again after a correction) or of a round the event has gone past (a log read again)."""
    with transaction.atomic():
        notice = ByeNotice.objects.select_for_update().filter(pk=notice_pk).first()
        if notice is None or notice.sent_at is not None:
            return False
        tournament = Tournament.objects.get(pk=notice.tournament_id)
        facts = tournament_facts(tournament)
        current = len(facts.rounds) == notice.round and (notice.player_id, None) in map(tuple, facts.rounds[-1])
        player = Player.objects.select_related("user").filter(pk=notice.player_id).first()
        address = address_of(player) if player is not None else ""
        if current and address:
            with translation.override(preferred_language(player)):
                round_name = names.round_name("swiss", notice.round)
                send_mail(_("%(event)s: you have the bye in %(round)s") % {"event": tournament.name,
                                                                            "round": round_name},
                          _bye_body(tournament, round_name), settings.DEFAULT_FROM_EMAIL, [address])
        notice.sent_at, notice.sent = timezone.now(), bool(current and address)
        notice.save(update_fields=["sent_at", "sent"])
        return notice.sent


def _bye_body(tournament: Tournament, round_name: str) -> str:
    lines = [
        _("You have the bye in %(round)s of %(event)s: you have no match to play in this round.") % {
            "round": round_name, "event": tournament.name},
        _("A bye counts as a won match: one point, 0–0 in match points."),
        _("You will be told where to play when the next round is paired."),
    ]
    site = getattr(settings, "SITE_URL", "").rstrip("/")
    if site:
        lines.append(site + reverse("event-page", args=[tournament.pk]))
    return "\n".join(lines) + "\n"


def _message_subject(tournament: Tournament, table: int | None) -> str:
    if table is None:
        return _("%(event)s: your match is ready") % {"event": tournament.name}
    return _("%(event)s: your match is ready at table %(table)s") % {"event": tournament.name, "table": table}


def _message_body(tournament, round_name: str, link: dict, table: int | None, opponent: Player) -> str:
    lines = [
        _("Your next match in %(event)s is ready.") % {"event": tournament.name},
        _("Round: %(round)s") % {"round": round_name},
        _("Opponent: %(name)s") % {"name": opponent.display_name},
        ngettext("Length: %(length)s point", "Length: %(length)s points", link["length"]) % {"length": link["length"]},
    ]
    if table is not None:
        lines.append(_("Table: %(table)s") % {"table": table})
    site = getattr(settings, "SITE_URL", "").rstrip("/")
    if site:
        lines.append(site + reverse("event-page", args=[tournament.pk]))
    return "\n".join(lines) + "\n"
