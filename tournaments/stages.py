"""What the read model says of an event's stages and of its knockout's re-entry: pure summaries of the facts.

Pure Python, like the decider it asks: who may re-enter now is the decider's own judgement of a re-entry
(``decider.reentry_for``) for each knocked-out player, so the console offers exactly the re-entries it takes.
"""

from __future__ import annotations

from . import decider, derive
from .refusals import TournamentError
from .stream import Facts, Format


def stages_of(facts: Facts) -> dict:
    """Stage one's format, whether it is closed, its table at closing and the knockout's seeds; {} for one stage."""
    if not facts.staged:
        return {}
    return {"first": "swiss" if facts.format == Format.SWISS else "rr", "groups": facts.config.get("groups", 1),
            "qualifiers": facts.config["qualifiers"],
            "closed": facts.stage_closed is not None, "table": list(facts.stage_closed or ()),
            "seeds": list(facts.stage_seeds or ())}


def reentry_of(facts: Facts, view: derive.View) -> dict:
    """The re-entry rules, the places still open, the re-entries made and who may re-enter now; {} without."""
    rules = facts.config.get("reentry")
    if rules is None:
        return {}
    seeds = derive.knockout_seeds(facts)
    drawn = seeds is not None
    made, count = [], {}
    for player, place in facts.reentries:
        count[player] = count.get(player, 0) + 1
        made.append({"player": player, "place": place, "entry": count[player] + 1})
    open_places = decider.open_places(facts, view) if drawn and not facts.reentry_closed else []
    eligible = []
    if open_places:
        knocked_out = {s.loser for s in view.slots if s.bracket == "main" and s.loser is not None}
        for player in sorted(knocked_out, key=lambda p: seeds.index(p) if p in seeds else len(seeds)):
            try:
                decider.reentry_for(facts, view, player)
            except TournamentError:
                continue
            eligible.append(player)
    return {**rules, "closed": facts.reentry_closed, "open": open_places, "made": made, "eligible": eligible}
