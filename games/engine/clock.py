"""Match clocks: the federations' presets and a backgammon clock's arithmetic, with time as data.

The engine never reads the system clock: every command that touches a clock carries a reading (``at``, in
milliseconds on one time line, the platform's receipt time), and the clock is a value computed from readings.

The rules (the presets' sources are on the site's rules page):

* **Reserve** at the start of the game the clock is set in: ``per_match`` (a club's flat "30 minutes each"),
  plus ``per_point`` × the match length, less ``per_scored`` × the points both players have already scored
  (never below nothing).
* **Simple delay**: each time a player's clock starts, its first ``delay`` is free; only time past it comes off
  the reserve, and what is left of the delay is never banked.
* **Who presses**: a player presses their own running clock, which starts the opponent's: after moving, after
  doubling (the opponent's clock runs for the answer), after taking, and when they cannot move. At the opening
  roll both clocks stand still and the player with the lower die presses, starting the opponent's.
* **Flag fall**: a player whose reserve runs out loses the match, unless the preset gives overtime: then the
  first expiry sets the reserve to ``overtime`` and the second loses.
* **Lateness** (UKBGF): a player not at the board 5 minutes after the match is called gives the opponent one
  penalty point, and one more each further 5 minutes; once the penalty points exceed half the match length
  the opponent wins the match.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

SECOND = 1000
MINUTE = 60 * SECOND
LATE_STEP = 5 * MINUTE  # a penalty point each full 5 minutes late


@dataclass(frozen=True)
class Preset:
    """A clock's settings, in milliseconds: the reserve a point of the match length, the reduction a point already
    scored by either player, the delay a turn, the overtime given after a first expiry (0: none), and a flat
    reserve for the whole match whatever its length (the federations' presets have none)."""

    name: str
    per_point: int
    per_scored: int
    delay: int
    overtime: int = 0
    per_match: int = 0

    def reserve(self, length: int, score: tuple[int, int]) -> int:
        """Each player's reserve when the clock is set at ``score`` in a match to ``length``."""
        return max(0, self.per_match + self.per_point * length - self.per_scored * sum(score))


PRESETS: dict[str, Preset] = {p.name: p for p in (
    # USBGF, "U.S. Backgammon Clock Rules and Procedures" (simple delay clocks), 2013: 2.1 singles, 2.2 doubles
    Preset("us", 2 * MINUTE, 1 * MINUTE, 12 * SECOND),
    Preset("us_overtime_1", 2 * MINUTE, 1 * MINUTE, 12 * SECOND, overtime=1 * MINUTE),
    Preset("us_overtime_2", 2 * MINUTE, 1 * MINUTE, 12 * SECOND, overtime=2 * MINUTE),
    Preset("us_doubles", 150 * SECOND, 75 * SECOND, 18 * SECOND),
    # UKBGF and the WBGF: 2 minutes a point, 12 seconds a move
    Preset("uk", 2 * MINUTE, 0, 12 * SECOND),
    # ABA's "standard clock" (Unified Tournament Clock Rules, ABA 2003, 2.1): 6 minutes a point less 3 a point
    # scored, a plain countdown with no delay (its "Bronstein clock" is the US numbers)
    Preset("aba", 6 * MINUTE, 3 * MINUTE, 0),
)}


def custom(per_point: int, per_scored: int, delay: int, overtime: int = 0, per_match: int = 0) -> Preset:
    """A director's own clock (milliseconds); refused (``ValueError``) when a figure is negative or no time at all."""
    if min(per_point, per_scored, delay, overtime, per_match) < 0 or per_point == per_match == 0:
        raise ValueError("a clock needs time a point or a match, and no figure below zero")
    return Preset("custom", per_point, per_scored, delay, overtime, per_match)


@dataclass(frozen=True)
class Clock:
    """Both players' clocks at the reading ``since``: ``reserves`` left, whose clock runs (None: both stand still),
    what is left of the running turn's delay, whether a director paused it, and whose first expiry gave overtime."""

    preset: Preset
    reserves: tuple[int, int]
    running: int | None = None
    since: int = 0
    delay_left: int = 0
    paused: bool = False
    overtime_used: tuple[bool, bool] = (False, False)

    def shown(self, at: int) -> tuple[tuple[int, int], int]:
        """What the clock shows at reading ``at``: each reserve, and what is left of the running turn's delay.
        A reserve past its end shows 0 (:meth:`expiry` says when the flag fell)."""
        if self.running is None or self.paused:
            return self.reserves, self.delay_left
        spent = max(0, at - self.since)
        delay = max(0, self.delay_left - spent)
        reserves = list(self.reserves)
        reserves[self.running] = max(0, reserves[self.running] - max(0, spent - self.delay_left))
        return tuple(reserves), delay

    def expiry(self) -> int | None:
        """The reading at which the running clock's reserve runs out, if nobody presses before (None: none runs)."""
        if self.running is None or self.paused:
            return None
        return self.since + self.delay_left + self.reserves[self.running]

    def stopped(self, at: int) -> Clock:
        """The clock with the running side charged up to ``at`` and both standing still (``at`` before its flag
        falls: :meth:`expiry`)."""
        reserves, _ = self.shown(at)
        return replace(self, reserves=reserves, running=None, since=at, delay_left=0)

    def started(self, player: int, at: int) -> Clock:
        """``player``'s clock started at ``at`` with a whole delay."""
        return replace(self, running=player, since=at, delay_left=self.preset.delay, paused=False)

    def overtime(self, player: int, at: int) -> Clock:
        """``player``'s first expiry at ``at``: the reserve set to the preset's overtime, still running."""
        used = list(self.overtime_used)
        used[player] = True
        reserves = list(self.reserves)
        reserves[player] = self.preset.overtime
        return replace(self, reserves=tuple(reserves), since=at, delay_left=0, overtime_used=tuple(used))

    def may_overtime(self, player: int) -> bool:
        return bool(self.preset.overtime) and not self.overtime_used[player]

    def paused_at(self, at: int) -> Clock:
        reserves, delay = self.shown(at)
        return replace(self, reserves=reserves, since=at, delay_left=delay, paused=True)

    def resumed_at(self, at: int) -> Clock:
        return replace(self, since=at, paused=False)


def late_points(called_at: int, at: int) -> int:
    """The penalty points a player not at the board at reading ``at`` gives for a match called at ``called_at``:
    one at 5 minutes, one more each further 5 minutes."""
    return max(0, at - called_at) // LATE_STEP


def late_loses(points: int, length: int) -> bool:
    """Penalty points past half the match length give the opponent the match."""
    return 2 * points > length


# whether a round's matches are clocked (set by its director): set with the match, at the players' choice, never
REQUIRED, ALLOWED, NONE = "required", "allowed", "none"
USES = (REQUIRED, ALLOWED, NONE)
CUSTOM = "custom"
PRESET_NAMES = (*PRESETS, CUSTOM)
FIGURES = ("per_match", "per_point", "per_scored", "delay", "overtime")  # a custom clock's, in whole seconds
MAX_SECONDS = 24 * 3600  # a figure of a custom clock: a day at most


def preset_named(name: str, figures: dict | None = None) -> Preset:
    """The preset ``name``, or for ``custom`` the director's own from ``figures`` (whole seconds, by the names of
    :data:`FIGURES`, a figure left out being 0). ``KeyError`` for an unknown name, ``ValueError`` for figures a
    clock cannot run on (not whole, below zero, above :data:`MAX_SECONDS`, or no time at all)."""
    if name != CUSTOM:
        return PRESETS[name]
    values = {f: (figures or {}).get(f) or 0 for f in FIGURES}
    if not all(type(v) is int and 0 <= v <= MAX_SECONDS for v in values.values()):
        raise ValueError("a custom clock's figures are whole seconds, from 0 to a day")
    return custom(**{f: v * SECOND for f, v in values.items()})


def figures_of(preset: Preset) -> dict:
    """A preset as a rule records it: its name, and a custom clock's figures in whole seconds."""
    if preset.name != CUSTOM:
        return {"preset": preset.name}
    return {"preset": CUSTOM, **{f: getattr(preset, f) // SECOND for f in FIGURES}}
