"""The ``ratings`` projection: FIBS ratings from the match results in log order.

What is rated, once each:

- a match outside any event slot (a casual match, or one an event added by hand): its result when it ends
  (won at the board, or set by the director's correction), unless it is voided;
- an event's slot: the slot's one result, by the rule the event itself reads it with (``published/slots.py``):
  the director's correction if any, else the paper result (a forfeit is not rated), else the result of the
  slot's current match unless that match was voided. Voiding the slot's current match voids the paper
  result it was closed with too (the slot is open again until the director reports it anew); a correction
  stands. A match linked to a slot is never rated on its own, so a
  slot whose server match went on after a paper result, or whose correction names the match, counts once.
  Not when the event, or that slot, is unrated (the setting ``rated`` of ``TournamentConfigured``, then the
  director's ``RatedSet``, read from the event's stream, as its results are): a change of it settles
  the event's slots again, as a correction does, so the ratings re-derive.

Everything is read as the published language's facts (``published/``: the matches' and the events' types, and
``published.slots``, the rule of which result a slot counts), never through the other apps' own modules.

A hidden result counts nowhere public: an event's slot while its event is hidden (its stream's last
``VisibilitySet``; none: published), a match outside the slots while the match is (``MatchRegistered``'s
``published``, then ``MatchVisibilityChanged``, which follow its event). Such a result keeps its place in the log
(``seq``, marked ``hidden``): publishing it recomputes the ratings with it at that place, as if it had always been
public, and hiding it again recomputes them without it.

A result is rated at the log position where its unit first had a result. A new result is rated at once; a
change of a result already rated (a correction, a void) changes every later rating that depends on it, so the
ratings are then recomputed from the list of results, in the same order and with the same arithmetic: the
figures are identical to a rebuild from position 0, whatever the batches.

Who is who (merges of duplicate players): a result is rated for the persons its players stand for, by the
identity map of every ``PlayersMerged`` in the log up to the projection's position (``players/identity.py``).
A merge means "these entries were always one person": on ``PlayersMerged`` the ratings are recomputed from the
first result with the new map, so the duplicate's past results count as the kept player's (and a result
between two entries of one person counts for nobody). The map comes from the log alone (the players' stream,
folded up to the batch's first position, then evolved event by event), never from a column, so live ratings
and a rebuild from position 0 are the same function of the log.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import connection

from eventlog.projections import Projection
from players import identity
from players.selectors import player_identities
from published import language, slots
from published import matches as m
from published import tournaments as t

from .formula import Rated, rate
from .models import PlayerRating, RatedEvent, RatedMatch, RatedSlot, RatingChange

MATCH = m.STREAM_TYPE
TOURNAMENT = t.STREAM_TYPE


class RatingsProjection(Projection):
    name = "ratings"
    digested = (RatedSlot, RatedEvent, RatingChange, PlayerRating, RatedMatch)
    # Each batch loads and writes back the rating of every player it meets (about 1,000 of 2,000 in a batch of
    # 2,000 events in bench/ratings.py): ten times fewer batches, ten times fewer of those rows in a rebuild.
    batch_factor = 10  # 20,000 events
    event_types = language.names(
        m.MatchRegistered, m.MatchStarted, m.MatchWon, m.ResultCorrected, m.MatchVoided, m.ImportConfirmed,
        m.MatchRatedSet, m.MatchVisibilityChanged,
        t.ResultReported, t.MatchForfeited, t.MatchCreated, t.SlotResultCorrected,  # an event's slots
        t.TournamentConfigured, t.RatedSet, t.VisibilitySet,  # an event's rated-match policy, its visibility
    ) + (identity.MERGED,)  # the players' stream: who is who

    def apply(self, events) -> None:
        batch = _Batch(_identities_before(events))
        read = [(event, language.read(event)) for event in events]
        batch.preload(read)
        for event, fact in read:
            if event.stream_type == MATCH:
                batch.on_match_event(event, fact)
            elif event.stream_type == TOURNAMENT:
                batch.on_tournament_event(event, fact)
            elif event.stream_type == identity.STREAM_TYPE:
                batch.on_players_event(event)
        batch.save()

    def reset(self) -> None:
        RatedSlot.objects.all().delete()
        RatedEvent.objects.all().delete()
        RatingChange.objects.all().delete()
        PlayerRating.objects.all().delete()
        RatedMatch.objects.all().delete()


def slot_key_of(stream_id: str, slot: str) -> str:
    return f"{stream_id}:{slot}"


class _Batch:
    """What one batch of events changes, kept in memory and written at the end.

    Every row the batch reads is read once (preloaded, or on first use) and then only ever changed in memory,
    so the batch sees its own changes in log order exactly as a batch of one event would."""

    def __init__(self, identities: identity.Identities):
        self.identities = identities
        self.alias = identities.merged_into
        self.matches: dict[str, RatedMatch | None] = {}
        self.slots: dict[str, RatedSlot | None] = {}
        self.new_matches: set[str] = set()
        self.changed_matches: set[str] = set()
        self.new_slots: set[str] = set()
        self.changed_slots: set[str] = set()
        self.ratings: dict[int, PlayerRating] = {}
        self.unrated: set[int] = set()  # players the preload looked for and found without a rating yet
        self.changes: list[tuple] = []  # rows of RatingChange, in CHANGE_COLUMNS order
        self.recompute = False
        self.policies: dict[str, RatedEvent | None] = {}  # an event's stream -> its policy (None: all rated)
        self.changed_policies: set[str] = set()

    def preload(self, read) -> None:
        """A few queries for the whole batch instead of one per match, slot and player (``read``: each event with
        its published fact)."""
        registered = {e.stream_id for e, f in read if isinstance(f, m.MatchRegistered)}
        match_keys = {e.stream_id for e, _ in read if e.stream_type == MATCH} - registered
        slot_keys = {slot_key_of(e.stream_id, f.slot) for e, f in read if getattr(f, "slot", "")}
        for slot in RatedSlot.objects.filter(slot_key__in=slot_keys):
            self.slots[slot.slot_key] = slot
            match_keys.add(slot.match_key)
        match_keys |= slot_keys
        for match in RatedMatch.objects.filter(key__in=match_keys):
            self.matches[match.key] = match
        streams = {e.stream_id for e, _ in read if e.stream_type == TOURNAMENT}
        streams |= {_stream_of(k) for k in slot_keys} | {_stream_of(m.slot_key) for m in self.matches.values()
                                                         if m and m.slot_key}
        self.policies = dict.fromkeys(streams)
        for policy in RatedEvent.objects.filter(stream_id__in=streams):
            self.policies[policy.stream_id] = policy
        players = {self.alias.get(p, p) for _, f in read if isinstance(f, m.MatchRegistered) for p in f.player_ids}
        players |= {p for _, f in read if isinstance(f, t.SlotResult) for p in (f.winner, f.loser)}
        players |= {p for m in self.matches.values() if m for p in (m.player0_id, m.player1_id)}
        wanted = {self.alias.get(p, p) for p in players if p is not None}
        for row in PlayerRating.objects.filter(player_id__in=wanted):
            self.ratings[row.player_id] = row
        # Looked for and not there: a first match. Remembered, so that ``rating`` does not ask again player by
        # player (2,000 queries in a rebuild among 2,000 players, the largest cost before). Nothing writes the
        # table during the batch but the batch itself, so the answer holds until ``save``.
        self.unrated = wanted - self.ratings.keys()

    # -- rows, read once --------------------------------------------------------------------

    def match(self, key: str) -> RatedMatch | None:
        if key not in self.matches:
            self.matches[key] = RatedMatch.objects.filter(key=key).first()
        return self.matches[key]

    def slot(self, key: str) -> RatedSlot:
        if key not in self.slots:
            self.slots[key] = RatedSlot.objects.filter(slot_key=key).first()
        if self.slots[key] is None:
            self.slots[key] = RatedSlot(slot_key=key, match_key="")
            self.new_slots.add(key)
        self.changed_slots.add(key)
        return self.slots[key]

    def rating(self, player_id: int) -> PlayerRating:
        if player_id not in self.ratings:
            found = None if player_id in self.unrated else PlayerRating.objects.filter(player_id=player_id).first()
            self.ratings[player_id] = found or PlayerRating(player_id=player_id)
        return self.ratings[player_id]

    def add_match(self, match: RatedMatch) -> None:
        self.matches[match.key] = match
        self.new_matches.add(match.key)

    # -- events ------------------------------------------------------------------------------

    def on_match_event(self, event, fact: m.MatchFact) -> None:
        key = event.stream_id
        if isinstance(fact, m.MatchRegistered):
            if fact.awaiting_confirmation:
                return  # an import nobody has vouched for yet: not a result until ImportConfirmed
            p0, p1 = (self.alias.get(p, p) for p in fact.player_ids)
            self.add_match(RatedMatch(key=key, player0_id=p0, player1_id=p1, ramp=fact.rating_ramp,
                                      unrated=fact.rated is False or fact.partners is not None,
                                      hidden=fact.published is False))
            return
        if isinstance(fact, m.ImportConfirmed):
            self.on_import_confirmed(event, fact)
            return
        match = self.match(key)
        if match is None:
            return
        self.changed_matches.add(key)
        was_rated = match.rated
        if isinstance(fact, m.MatchStarted):
            match.length = fact.length
            return
        if isinstance(fact, m.MatchRatedSet):  # a match outside the slots: its slot's event decides for a slot's match
            match.unrated = not fact.rated
            if not match.slot_key and was_rated != match.rated:
                self.recompute = True  # in or out at its result's own position: recomputed in log order
            return
        if isinstance(fact, m.MatchVisibilityChanged):  # as MatchRatedSet: a slot's result follows its event
            match.hidden = not fact.published
            if not match.slot_key and was_rated != match.rated:
                self.recompute = True
            return
        if isinstance(fact, m.MatchWon):
            if match.seq is not None or match.voided:
                return  # a result set by the director stands
            match.seq, match.winner_seat = event.global_position, fact.winner
        elif isinstance(fact, m.ResultCorrected):
            if match.seq is None:
                match.seq = event.global_position
            match.winner_seat = fact.winner
        elif isinstance(fact, m.MatchVoided):
            match.voided = True
        if match.slot_key:
            slot = self.slot(match.slot_key)
            if isinstance(fact, m.MatchVoided):
                self.void_slot_result(slot, match)
            self.settle_slot(slot, event.global_position)
        elif not was_rated:
            self.rate(match)
        elif not match.rated or isinstance(fact, m.ResultCorrected):
            self.recompute = True

    def on_players_event(self, event) -> None:
        """A merge: from here on the map includes it, and every result is rated again with it (module docstring)."""
        if event.event_type == identity.MERGED:
            self.identities = identity.evolve(self.identities, identity.PlayersMerged.from_payload(event.payload))
            self.alias = self.identities.merged_into
            self.recompute = True

    def on_import_confirmed(self, event, fact: m.ImportConfirmed) -> None:
        """A confirmed import enters the ratings here, at the confirmation's place in the log (as a rebuild does)."""
        key = event.stream_id
        if self.match(key) is not None:
            return
        p0, p1 = (self.alias.get(p, p) for p in fact.player_ids)
        match = RatedMatch(key=key, player0_id=p0, player1_id=p1, length=fact.length, ramp=fact.rating_ramp,
                           voided=bool(fact.voided), hidden=fact.published is False)
        self.add_match(match)
        if fact.finished and fact.winner is not None and not match.voided:
            match.seq, match.winner_seat = event.global_position, fact.winner
            self.rate(match)

    def policy(self, stream_id: str) -> RatedEvent | None:
        if stream_id not in self.policies:
            self.policies[stream_id] = RatedEvent.objects.filter(stream_id=stream_id).first()
        return self.policies[stream_id]

    def slot_rated(self, slot_key: str) -> bool:
        policy = self.policy(_stream_of(slot_key))
        return policy is None or policy.slot_rated(slot_key.split(":", 1)[1])

    def slot_public(self, slot_key: str) -> bool:
        policy = self.policy(_stream_of(slot_key))
        return policy is None or policy.published

    def on_policy(self, event, fact: t.TournamentConfigured | t.RatedSet | t.VisibilitySet) -> None:
        """The event's rated-match policy and visibility: at its creation (only "unrated" is worth a row), then
        each change settles the slots it touches again, as a correction would."""
        stream_id = event.stream_id
        if isinstance(fact, t.TournamentConfigured) and fact.rated:
            return
        policy = self.policy(stream_id) or RatedEvent(stream_id=stream_id)
        self.policies[stream_id] = policy
        self.changed_policies.add(stream_id)
        if isinstance(fact, t.TournamentConfigured):
            policy.rated = False
            return
        if isinstance(fact, t.VisibilitySet):
            policy.published = fact.published
            keys = self.slot_keys_of(stream_id)
        elif fact.slot:
            policy.slots = {**policy.slots, fact.slot: fact.rated}
            keys = {slot_key_of(stream_id, fact.slot)}
        else:
            policy.rated = fact.rated
            keys = self.slot_keys_of(stream_id)
        for key in sorted(keys):
            self.settle_slot(self.slot(key), event.global_position)

    def slot_keys_of(self, stream_id: str) -> set[str]:
        """Every slot of the event the ratings know (stored, or met in this batch)."""
        prefix = f"{stream_id}:"
        keys = set(RatedSlot.objects.filter(slot_key__startswith=prefix).values_list("slot_key", flat=True))
        return keys | {k for k, s in self.slots.items() if s is not None and k.startswith(prefix)}

    def on_tournament_event(self, event, fact: t.TournamentFact) -> None:
        if isinstance(fact, (t.TournamentConfigured, t.RatedSet, t.VisibilitySet)):
            self.on_policy(event, fact)
            return
        slot = self.slot(slot_key_of(event.stream_id, fact.slot))
        if isinstance(fact, t.MatchCreated):
            old = self.match(slot.match_key) if slot.match_key else None
            if old is not None:
                old.slot_key = ""  # superseded: no longer the slot's match (it was voided)
                self.changed_matches.add(old.key)
            slot.match_key = fact.match_id
            match = self.match(fact.match_id)
            if match is not None:
                match.slot_key = slot.slot_key
                self.changed_matches.add(match.key)
                if match.rated:
                    # rated on its own until now (an import played elsewhere, linked once it was over, replacing
                    # the slot's unplayed match): from here on, through its slot
                    self.recompute = True
        elif isinstance(fact, t.SlotResultCorrected):
            slot.correction = _paper(fact)
        else:  # reported on paper, or forfeited
            slot.paper = _paper(fact, forfeit=isinstance(fact, t.MatchForfeited))
        self.settle_slot(slot, event.global_position)

    def void_slot_result(self, slot: RatedSlot, match: RatedMatch) -> None:
        """The slot's current match voided: the paper result (or forfeit) it was closed with is void too, by the
        published rule (``published/slots.py``); a director's correction stands."""
        said, alias = slot.paper, self.alias
        if said and slots.voided_with_match(
                (alias.get(said["winner"], said["winner"]), alias.get(said["loser"], said["loser"])),
                (alias.get(match.player0_id, match.player0_id), alias.get(match.player1_id, match.player1_id))):
            slot.paper = None

    def settle_slot(self, slot: RatedSlot, position: int) -> None:
        """The slot's one result, as the event reads it, into the slot's rated unit (keyed by the slot). While its
        event is hidden the unit keeps its result and place in the log, marked hidden (rated nowhere)."""
        result = self.slot_result(slot)
        unit = self.match(slot.slot_key)
        hidden = not self.slot_public(slot.slot_key)
        if result is None:
            if unit is not None and (unit.seq is not None or unit.hidden != hidden):
                self.recompute = self.recompute or unit.rated
                unit.seq = unit.winner_seat = None
                unit.hidden = hidden
                self.changed_matches.add(unit.key)
            return
        winner, loser, length, ramp = result
        winner, loser = self.alias.get(winner, winner), self.alias.get(loser, loser)
        if unit is None:
            unit = RatedMatch(key=slot.slot_key, player0_id=winner, player1_id=loser, length=length, ramp=ramp,
                              hidden=hidden)
            self.add_match(unit)
        self.changed_matches.add(unit.key)
        if unit.seq is None:
            unit.player0_id, unit.player1_id, unit.length, unit.ramp = winner, loser, length, ramp
            unit.seq, unit.winner_seat, unit.hidden = position, 0, hidden
            self.rate(unit)
            return
        if unit.hidden != hidden:  # published or hidden: in or out at the result's own place, recomputed
            self.recompute = self.recompute or unit.rated
            unit.hidden = hidden
            self.recompute = self.recompute or unit.rated
        players = (unit.player0_id, unit.player1_id)
        if {winner, loser} != set(players) or length != unit.length:
            unit.player0_id, unit.player1_id, unit.winner_seat, unit.length = winner, loser, 0, length
            self.recompute = self.recompute or unit.rated or length > 0
        elif players[unit.winner_seat] != winner:
            unit.winner_seat = players.index(winner)
            self.recompute = self.recompute or unit.rated

    def slot_result(self, slot: RatedSlot) -> tuple[int, int, int, str] | None:
        """(winner, loser, length, ramp): the correction, else the paper result, else the current match's; none
        for an unrated slot."""
        if not self.slot_rated(slot.slot_key):
            return None
        match = self.match(slot.match_key) if slot.match_key else None
        played = None
        if match is not None and not match.voided and match.seq is not None and match.winner_seat is not None:
            seats = (match.player0_id, match.player1_id)
            played = {"winner": seats[match.winner_seat], "loser": seats[1 - match.winner_seat],
                      "length": match.length, "ramp": match.ramp}
        result = slots.counted(slot.correction or None, slot.paper or None, played)
        if result is None or result.get("forfeit"):
            return None  # a forfeit is not rated
        return result["winner"], result["loser"], result["length"], result["ramp"]

    def rate(self, match: RatedMatch) -> None:
        if not match.rated or match.slot_key or self.recompute or match.player0_id == match.player1_id:
            return  # a recomputation at the end of the batch will include it
        # registered before a merge, rated after it: counted for the person, as a recomputation would
        seats = (self.alias.get(match.player0_id, match.player0_id), self.alias.get(match.player1_id, match.player1_id))
        if seats[0] == seats[1]:
            return
        winner, loser = seats[match.winner_seat], seats[1 - match.winner_seat]
        self.changes.extend(_apply(self.rating(winner), self.rating(loser), match))

    def save(self) -> None:
        for stream_id in sorted(self.changed_policies):
            policy = self.policies[stream_id]
            RatedEvent.objects.update_or_create(stream_id=stream_id, defaults={
                "rated": policy.rated, "slots": policy.slots, "published": policy.published})
        RatedSlot.objects.bulk_create([self.slots[k] for k in self.new_slots])
        RatedSlot.objects.bulk_update([self.slots[k] for k in self.changed_slots - self.new_slots],
                                      ["match_key", "paper", "correction"])
        _copy(RatedMatch, MATCH_COLUMNS, [_match_row(self.matches[k]) for k in self.new_matches])
        existing = [self.matches[k] for k in self.changed_matches - self.new_matches]
        RatedMatch.objects.bulk_update(existing, ["player0_id", "player1_id", "length", "ramp", "seq", "winner_seat",
                                                  "voided", "slot_key", "unrated", "hidden"])
        if self.recompute:
            recompute_all(self.alias)
            return
        _save_ratings(list(self.ratings.values()))
        _copy(RatingChange, CHANGE_COLUMNS, self.changes)


def _stream_of(slot_key: str) -> str:
    return slot_key.split(":", 1)[0]


def _paper(fact: t.ResultReported | t.SlotResultCorrected | t.MatchForfeited, forfeit: bool = False) -> dict:
    # the score is not rated: it is kept for the players' records (ratings/records.py), which read the slot's result
    return {"winner": fact.winner, "loser": fact.loser, "length": fact.length,
            "ramp": fact.rating_ramp, "forfeit": forfeit,
            "score": [fact.winner_points, fact.loser_points]}


# The rows a batch writes go in with COPY, as plain tuples: Django's bulk_create spends more time preparing each
# value of each row than PostgreSQL takes to store it. The columns are the models' own.
CHANGE_COLUMNS = ("player_id", "match_key", "seq", "opponent_id", "won", "length", "rating_before", "rating_after",
                  "experience_after")
MATCH_COLUMNS = ("key", "player0_id", "player1_id", "length", "ramp", "seq", "winner_seat", "voided", "slot_key",
                 "unrated", "hidden")


def _match_row(m: RatedMatch) -> tuple:
    return (m.key, m.player0_id, m.player1_id, m.length, m.ramp, m.seq, m.winner_seat, m.voided, m.slot_key,
            m.unrated, m.hidden)


def _copy(model, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """Insert ``rows`` (values in ``columns`` order) into ``model``'s table with one COPY."""
    if not rows:
        return
    if connection.vendor != "postgresql":  # the embedded default (SQLite, `make run`) has no COPY
        model.objects.bulk_create([model(**dict(zip(columns, row))) for row in rows], batch_size=500)
        return
    table = model._meta.db_table
    with connection.cursor() as cursor, cursor.connection.cursor().copy(
        f'COPY "{table}" ({", ".join(columns)}) FROM STDIN'
    ) as copy:
        for row in rows:
            copy.write_row(row)


def _apply(winner: PlayerRating, loser: PlayerRating, match: RatedMatch) -> list[tuple]:
    before_w, before_l = winner.rating, loser.rating
    new_w, new_l = rate(Rated(winner.rating, winner.experience), Rated(loser.rating, loser.experience), match.length, match.ramp)
    out = []
    for row, before, new, opponent, won in (
        (winner, before_w, new_w, loser.player_id, True),
        (loser, before_l, new_l, winner.player_id, False),
    ):
        row.rating, row.experience = new.rating, new.experience
        row.matches += 1
        row.last_seq = match.seq
        out.append((row.player_id, match.key, match.seq, opponent, won, match.length, before, new.rating,
                    new.experience))  # CHANGE_COLUMNS
    return out


def recompute_all(alias: Mapping[int, int]) -> None:
    """Rate every result again in log order, each player read through ``alias`` (duplicate -> kept, the merges up
    to the projection's position): what a correction of an old result, or a merge, needs."""
    ratings: dict[int, PlayerRating] = {}
    changes: list[tuple] = []
    rated = RatedMatch.objects.filter(seq__isnull=False, winner_seat__isnull=False, voided=False, length__gt=0, slot_key="",
                                      unrated=False, hidden=False)
    for match in rated.order_by("seq", "key"):  # by key: the slots one RatedSet rates again share its position
        seats = (alias.get(match.player0_id, match.player0_id), alias.get(match.player1_id, match.player1_id))
        if seats[0] == seats[1]:
            continue  # two entries of one person, merged: not a match between two players
        winner, loser = (
            ratings.setdefault(pid, PlayerRating(player_id=pid))
            for pid in (seats[match.winner_seat], seats[1 - match.winner_seat])
        )
        changes.extend(_apply(winner, loser, match))
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    PlayerRating.objects.bulk_create(ratings.values(), batch_size=2000)
    _copy(RatingChange, CHANGE_COLUMNS, changes)


def _identities_before(events) -> identity.Identities:
    """Who is who where the batch starts: the merges the log holds before its first event."""
    return player_identities(before_position=events[0].global_position if events else None)


def _save_ratings(rows: list[PlayerRating]) -> None:
    """Insert or update the rows in one statement (the values as five arrays: no per-value work in Django)."""
    if not rows:
        return
    if connection.vendor != "postgresql":  # the embedded default (SQLite): no arrays to unnest
        PlayerRating.objects.bulk_create(rows, batch_size=500, update_conflicts=True, unique_fields=["player_id"],
                                         update_fields=["rating", "experience", "matches", "last_seq"])
        return
    with connection.cursor() as cursor:
        cursor.execute(
            f"""INSERT INTO "{PlayerRating._meta.db_table}" (player_id, rating, experience, matches, last_seq)
                SELECT * FROM unnest(%s::bigint[], %s::double precision[], %s::integer[], %s::integer[], %s::bigint[])
                ON CONFLICT (player_id) DO UPDATE SET rating = EXCLUDED.rating, experience = EXCLUDED.experience,
                    matches = EXCLUDED.matches, last_seq = EXCLUDED.last_seq""",
            [[r.player_id for r in rows], [r.rating for r in rows], [r.experience for r in rows],
             [r.matches for r in rows], [r.last_seq for r in rows]],
        )
