"""The ``ratings`` projection: FIBS ratings from the match results in log order.

A new result is rated at once. A correction or void of a result already rated
changes every later rating that depends on it, so the ratings are then
recomputed from the list of results, in the same order and with the same
arithmetic: the figures are identical to a rebuild from position 0.
"""

from __future__ import annotations

from eventlog.projections import Projection

from .formula import Rated, rate
from .models import PlayerRating, RatedMatch, RatedSlot, RatingChange

MATCH = "match"
TOURNAMENT = "tournament"


class RatingsProjection(Projection):
    name = "ratings"
    event_types = (
        "MatchRegistered", "MatchStarted", "MatchWon", "ResultCorrected", "MatchVoided", "ImportConfirmed",  # matches
        "ResultReported", "MatchCreated",  # tournament streams: paper results, slot -> match
    )

    def apply(self, events) -> None:
        batch = _Batch()
        batch.preload([e for e in events if e.stream_type == MATCH])
        for event in events:
            if event.stream_type == MATCH:
                batch.on_match_event(event)
            elif event.stream_type == TOURNAMENT:
                batch.on_tournament_event(event)
        batch.save()

    def reset(self) -> None:
        RatedSlot.objects.all().delete()
        RatingChange.objects.all().delete()
        PlayerRating.objects.all().delete()
        RatedMatch.objects.all().delete()


class _Batch:
    """What one batch of events changes, kept in memory and written at the end."""

    def __init__(self):
        self.alias = merged_players()
        self.matches: dict[str, RatedMatch] = {}
        self.new_matches: set[str] = set()
        self.changed_matches: set[str] = set()
        self.ratings: dict[int, PlayerRating] = {}
        self.changes: list[RatingChange] = []
        self.recompute = False

    def preload(self, events) -> None:
        """Two queries for the whole batch instead of one per match and player."""
        registered = {e.stream_id: [self.alias.get(p, p) for p in e.payload["player_ids"]]
                      for e in events if e.event_type == "MatchRegistered"}
        earlier = {e.stream_id for e in events} - set(registered)
        for match in RatedMatch.objects.filter(key__in=earlier):
            self.matches[match.key] = match
        players = {p for ids in registered.values() for p in ids}
        players.update(p for m in self.matches.values() for p in (m.player0_id, m.player1_id))
        for row in PlayerRating.objects.filter(player_id__in=players):
            self.ratings[row.player_id] = row

    def match(self, key: str) -> RatedMatch | None:
        return self.matches.get(key)

    def on_match_event(self, event) -> None:
        kind, payload, key = event.event_type, event.payload, event.stream_id
        if kind == "MatchRegistered":
            if payload.get("awaiting_confirmation"):
                return  # an import nobody has vouched for yet: not a result until ImportConfirmed
            p0, p1 = (self.alias.get(p, p) for p in payload["player_ids"])
            self.matches[key] = RatedMatch(key=key, player0_id=p0, player1_id=p1, ramp=payload.get("rating_ramp", "fibs"))
            self.new_matches.add(key)
            return
        if kind == "ImportConfirmed":
            self.on_import_confirmed(event)
            return
        match = self.match(key)
        if match is None:
            return
        self.changed_matches.add(key)
        if kind == "MatchStarted":
            match.length = payload["length"]
        elif kind == "MatchWon":
            if match.seq is None and not match.voided:
                match.seq, match.winner_seat = event.global_position, payload["winner"]
                self.rate(match)
        elif kind == "ResultCorrected":
            if match.seq is None:
                match.seq, match.winner_seat = event.global_position, payload["winner"]
                self.rate(match)
            elif match.winner_seat != payload["winner"]:
                match.winner_seat = payload["winner"]
                self.recompute = self.recompute or match.rated
        elif kind == "MatchVoided":
            self.recompute = self.recompute or match.rated
            match.voided = True

    def on_import_confirmed(self, event) -> None:
        """A confirmed import enters the ratings here, at the confirmation's place in the log (as a rebuild does)."""
        payload, key = event.payload, event.stream_id
        if self.match(key) is not None or RatedMatch.objects.filter(key=key).exists():
            return
        p0, p1 = (self.alias.get(p, p) for p in payload["player_ids"])
        match = RatedMatch(key=key, player0_id=p0, player1_id=p1, length=payload.get("length", 0),
                           ramp=payload.get("rating_ramp", "fibs"), voided=bool(payload.get("voided")))
        self.matches[key] = match
        self.new_matches.add(key)
        for pid in (p0, p1):
            if pid not in self.ratings:
                self.ratings[pid] = PlayerRating.objects.filter(player_id=pid).first() or PlayerRating(player_id=pid)
        if payload.get("finished") and payload.get("winner") is not None and not match.voided:
            match.seq, match.winner_seat = event.global_position, payload["winner"]
            self.rate(match)

    def on_tournament_event(self, event) -> None:
        """Paper results are rated like played matches; a correction of a slot reaches its match's rating."""
        p = dict(event.payload)
        if "winner" in p:
            p["winner"], p["loser"] = self.alias.get(p["winner"], p["winner"]), self.alias.get(p["loser"], p["loser"])
        slot_key = f"{event.stream_id}:{p['slot']}"
        if event.event_type == "MatchCreated":
            RatedSlot.objects.update_or_create(slot_key=slot_key, defaults={"match_key": p["match_id"]})
            return
        if event.event_type == "ResultCorrected":
            alias = RatedSlot.objects.filter(slot_key=slot_key).values_list("match_key", flat=True).first()
            key = alias or slot_key
        else:
            key = slot_key
        match = self.match(key) or RatedMatch.objects.filter(key=key).first()
        if match is None:
            if p.get("length", 0) < 1:
                return
            match = RatedMatch(key=key, player0_id=p["winner"], player1_id=p["loser"], length=p["length"],
                               ramp=p.get("rating_ramp", "fibs"))
            self.matches[key] = match
            self.new_matches.add(key)
            for pid in (p["winner"], p["loser"]):
                if pid not in self.ratings:
                    self.ratings[pid] = PlayerRating.objects.filter(player_id=pid).first() or PlayerRating(player_id=pid)
        self.matches[key] = match
        self.changed_matches.add(key)
        seat = 0 if match.player0_id == p["winner"] else 1
        if match.seq is None:
            match.seq, match.winner_seat = event.global_position, seat
            self.rate(match)
        elif match.winner_seat != seat:
            match.winner_seat = seat
            self.recompute = self.recompute or match.rated

    def rate(self, match: RatedMatch) -> None:
        if not match.rated or self.recompute or match.player0_id == match.player1_id:
            return  # a recomputation at the end of the batch will include it
        seats = (match.player0_id, match.player1_id)
        winner, loser = seats[match.winner_seat], seats[1 - match.winner_seat]
        self.changes.extend(_apply(self.rating(winner), self.rating(loser), match))

    def rating(self, player_id: int) -> PlayerRating:
        if player_id not in self.ratings:
            self.ratings[player_id] = PlayerRating(player_id=player_id)  # preloaded: absent means new
        return self.ratings[player_id]

    def save(self) -> None:
        RatedMatch.objects.bulk_create([self.matches[k] for k in self.new_matches])
        existing = [self.matches[k] for k in self.changed_matches - self.new_matches]
        RatedMatch.objects.bulk_update(existing, ["length", "seq", "winner_seat", "voided"])
        if self.recompute:
            recompute_all()
            return
        _save_ratings(list(self.ratings.values()))
        RatingChange.objects.bulk_create(self.changes)


def _apply(winner: PlayerRating, loser: PlayerRating, match: RatedMatch) -> list[RatingChange]:
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
        out.append(
            RatingChange(
                player_id=row.player_id, match_key=match.key, seq=match.seq, opponent_id=opponent, won=won,
                length=match.length, rating_before=before, rating_after=new.rating, experience_after=new.experience,
            )
        )
    return out


def recompute_all() -> None:
    """Rate every result again in log order: what a correction of an old result needs."""
    ratings: dict[int, PlayerRating] = {}
    changes: list[RatingChange] = []
    alias = merged_players()
    for match in RatedMatch.objects.filter(seq__isnull=False, winner_seat__isnull=False, voided=False, length__gt=0).order_by("seq"):
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
    RatingChange.objects.bulk_create(changes, batch_size=2000)


def merged_players() -> dict[int, int]:
    """Duplicate player entries merged by a director: their results count for the kept player."""
    from players.models import Player

    return dict(Player.objects.filter(merged_into__isnull=False).values_list("pk", "merged_into"))


def _save_ratings(rows: list[PlayerRating]) -> None:
    PlayerRating.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["player_id"],
        update_fields=["rating", "experience", "matches", "last_seq"],
    )
