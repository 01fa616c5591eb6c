"""The rating chart of the player page, drawn on the server as SVG: axes, ticks, dates, one dot per rated match.

No chart library to fetch: the page's static script (``crawford/rating_chart.js``) only reads the dots' data
attributes to show the match under the pointer; without it each dot still has its ``<title>``."""

from __future__ import annotations

import math
from decimal import Decimal

from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

START = 1500.0
WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 52, 12, 12, 36  # room for the rating ticks at the left, the dates below
X_TICKS = 5
DATE = "j N Y"  # the day, the month's abbreviation as the language writes it ("25 juin", "25 juil."), the year


def _step(span: float) -> float:
    """A round tick step giving 3 to 6 ticks over ``span``."""
    raw = span / 4 or 1.0
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


def chart(history: list[dict]) -> dict | None:
    """The chart of ``history`` (rating_history's rows, oldest first), or None without a rated match."""
    if not history:
        return None
    values = [START] + [h["rating_after"] for h in history]
    step = _step(max(values) - min(values))
    low, high = math.floor(min(values) / step) * step, math.ceil(max(values) / step) * step
    if high == low:
        low, high = low - step, high + step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    dx = plot_w / max(1, len(values) - 1)

    def y(v: float) -> float:
        return round(TOP + (high - v) / (high - low) * plot_h, 1)

    xs = [round(LEFT + i * dx, 1) for i in range(len(values))]
    dots = []
    for i, h in enumerate(history, start=1):
        date = date_format(h["date"], DATE) if h.get("date") else ""
        result = _("won") if h["won"] else _("lost")
        label = ngettext(
            "%(date)s: %(result)s against %(opponent)s, %(length)s-point match, rating %(before)s → %(after)s",
            "%(date)s: %(result)s against %(opponent)s, %(length)s-point match, rating %(before)s → %(after)s",
            h["length"]) % {
            "date": date, "result": result, "opponent": h.get("opponent") or _("an unknown player"),
            "length": h["length"], "before": number_format(h["rating_before"], 2),
            "after": number_format(h["rating_after"], 2)}
        dots.append({"x": xs[i], "y": y(h["rating_after"]), "label": label, "won": h["won"]})
    ticks_y = []
    v = low
    while v <= high + 1e-9:
        ticks_y.append({"y": y(v), "label": number_format(Decimal(f"{v:g}"))})  # 1502,5 in French
        v += step
    n = len(history)
    picks = sorted({round(k * (n - 1) / (X_TICKS - 1)) for k in range(X_TICKS)}) if n > 1 else [0]
    ticks_x, shown = [], set()
    for i in picks:  # a date once (a club night's matches share it); the last label ends at its tick, inside
        label = date_format(history[i]["date"], DATE) if history[i].get("date") else ""
        if label in shown:
            continue
        shown.add(label)
        ticks_x.append({"x": xs[i + 1], "label": label, "anchor": "end" if i == n - 1 and n > 1 else "middle"})
    return {
        "width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT, "top": TOP, "bottom": HEIGHT - BOTTOM,
        "points": " ".join(f"{x},{y(v)}" for x, v in zip(xs, values)), "dots": dots,
        "ticks_y": ticks_y, "ticks_x": ticks_x, "start": {"x": xs[0], "y": y(START)},
        # the page draws the chart with localisation off (its coordinates): the words it says are formatted here
        "low": number_format(round(min(values), 1), 1), "high": number_format(round(max(values), 1), 1),
    }
