"""Server-rendered SVG charts: small pure functions, no chart library, no JavaScript.

:func:`line_chart` turns a list of points into an accessible SVG (``role="img"``
with a ``<title>`` and a ``<desc>`` that says in words what the chart shows), with
labelled axes and gridlines. It scales to its container (``viewBox``), so it reads on a
phone and on a projector alike. The positions are worked out here; the markup is a
template (``templates/results/_chart.svg``), escaped as every template is.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Sequence
from itertools import count

from django.template.loader import render_to_string
from django.utils.formats import date_format, number_format
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

_ids = count(1)

WIDTH = 720
HEIGHT = 280
MARGIN_LEFT = 88
MARGIN_RIGHT = 24
MARGIN_TOP = 16
MARGIN_BOTTOM = 52
# The least distance between two x labels ("13 Mar 2025" is about 100 units wide).
LABEL_GAP = 130


def nice_ticks(low: float, high: float, target: int = 5) -> list[float]:
    """Round tick values covering low..high (about ``target`` of them)."""
    if high - low < 1e-6:
        pad = max(abs(low) * 0.1, 1.0)
        low, high = low - pad, high + pad
    span = high - low
    raw = span / max(target - 1, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    for step in (1, 2, 2.5, 5, 10):
        if raw <= step * magnitude:
            step = step * magnitude
            break
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    ticks = []
    value = first
    while value <= last + step / 2:
        ticks.append(round(value, 10))
        value += step
    return ticks


def _label(value) -> str:
    if isinstance(value, datetime.date):
        return date_format(value, "DAY_FORMAT")
    return str(value)


def _number(value: float) -> str:
    if float(value).is_integer():
        return number_format(int(value), force_grouping=True)
    return number_format(value, decimal_pos=1, force_grouping=True)


def _counted(n: int, noun: str) -> str:
    """ "8 games", in the reader's language for the site's own nouns."""
    if noun == "game":
        return ngettext("%(n)s game", "%(n)s games", n) % {"n": n}
    if noun == "rated game":
        return ngettext("%(n)s rated game", "%(n)s rated games", n) % {"n": n}
    if noun == "point":
        return ngettext("%(n)s point", "%(n)s points", n) % {"n": n}
    return f"{n} {noun}{'s' if n != 1 else ''}"


def _describe(points: Sequence[tuple], noun: str, start: tuple | None = None) -> str:
    """The chart in words; a ``start`` point (drawn first) is named, not counted."""
    counted = points[1:] if start else points
    values = [v for _, v in points]
    first, last = counted[0][0], counted[-1][0]
    if len(counted) > 1:
        span = _("from %(first)s to %(last)s") % {"first": _label(first), "last": _label(last)}
    else:
        span = _("on %(date)s") % {"date": _label(first)}
    words = {
        "count": _counted(len(counted), noun),
        "span": span,
        "low": _number(min(values)),
        "high": _number(max(values)),
        "latest": _number(values[-1]),
    }
    text = _("%(count)s %(span)s; lowest %(low)s, highest %(high)s, latest %(latest)s.") % words
    if start:
        text = _("%(start)s at %(value)s; then %(rest)s") % {
            "start": start[0],
            "value": _number(start[1]),
            "rest": text,
        }
    return text


class _Frame:
    """Where values and point numbers land on the chart: the plot area and its scale."""

    def __init__(self, n: int, ticks: list[float], width: int, height: int):
        self.n, self.width = n, width
        self.y_min, self.y_max = ticks[0], ticks[-1]
        if self.y_max <= self.y_min:  # pragma: no cover - nice_ticks always spreads them
            self.y_max = self.y_min + 1
        self.plot_w = width - MARGIN_LEFT - MARGIN_RIGHT
        self.plot_h = height - MARGIN_TOP - MARGIN_BOTTOM
        self.bottom = MARGIN_TOP + self.plot_h

    def x_at(self, i: int) -> float:
        n = self.n
        return MARGIN_LEFT + (self.plot_w * i / (n - 1) if n > 1 else self.plot_w / 2)

    def y_at(self, v: float) -> float:
        return MARGIN_TOP + self.plot_h * (1 - (v - self.y_min) / (self.y_max - self.y_min))


def _grid(frame: _Frame, ticks: list[float], reference: float | None) -> dict:
    """Gridlines with their y tick labels, the dashed reference line (0 for scores,
    the new-player value for ratings) where it falls inside, and the axes' ends."""
    grid = [
        {"y": f"{frame.y_at(t):.1f}", "label_y": f"{frame.y_at(t) + 6:.1f}", "label": _number(t)}
        for t in ticks
    ]
    inside = reference is not None and frame.y_min <= reference <= frame.y_max
    return {
        "grid": grid,
        "reference_y": f"{frame.y_at(reference):.1f}" if inside else None,
        "left": str(MARGIN_LEFT),
        "tick_x": str(MARGIN_LEFT - 10),
        "right": str(frame.width - MARGIN_RIGHT),
        "top": str(MARGIN_TOP),
        "bottom": str(frame.bottom),
    }


def _label_points(frame: _Frame) -> list[int]:
    """The points named on the x axis: the first, the last and up to three between,
    none closer to the one before than a label is wide."""
    n = frame.n
    count = min(n, 5)
    candidates = sorted({round(i * (n - 1) / max(count - 1, 1)) for i in range(count)})
    kept = [candidates[0]]
    for i in candidates[1:]:
        if frame.x_at(i) - frame.x_at(kept[-1]) >= LABEL_GAP:
            kept.append(i)
    last = candidates[-1]
    if kept[-1] != last:  # the last point is always named, in place of a close one
        if len(kept) > 1 and frame.x_at(last) - frame.x_at(kept[-1]) < LABEL_GAP:
            kept.pop()
        kept.append(last)
    return kept


def _labels(frame: _Frame, points: Sequence[tuple]) -> dict:
    """X labels (:func:`_label_points`, never overlapping) and where the y axis's name
    goes."""
    n = frame.n
    shown = _label_points(frame)
    labels = []
    for j, i in enumerate(shown):
        anchor = "start" if j == 0 and n > 1 else "end" if i == n - 1 and n > 1 else "middle"
        labels.append(
            {
                "x": f"{frame.x_at(i):.1f}",
                "anchor": anchor,
                # On a phone only the first and last dates are shown (results.css).
                "end": "chart-x-end" if j in (0, len(shown) - 1) else "chart-x-mid",
                "text": _label(points[i][0]),
            }
        )
    return {
        "x_labels": labels,
        "x_labels_y": str(frame.bottom + 30),
        "middle": f"{MARGIN_TOP + frame.plot_h / 2:.1f}",
    }


def _line(frame: _Frame, points: Sequence[tuple]) -> dict:
    """The line, and dots while there are few enough to see."""
    at = [(f"{frame.x_at(i):.1f}", f"{frame.y_at(v):.1f}") for i, (_, v) in enumerate(points)]
    return {
        "coords": " ".join(f"{x},{y}" for x, y in at) if frame.n > 1 else "",
        "dots": at if frame.n <= 60 else [],
    }


def line_chart(
    points: Sequence[tuple],
    *,
    title: str,
    y_label: str,
    noun: str = "point",
    width: int = WIDTH,
    height: int = HEIGHT,
    reference: float | None = 0,
    start: tuple | None = None,
) -> SafeString:
    """An SVG line chart of ``points`` — (x label, value) pairs in order, the x label a
    date or a string — as a safe HTML string, drawn by ``results/_chart.svg`` from the
    positions worked out here. Points are spaced evenly (games, not days); the x axis
    names the first, last and a few dates between. ``start``, a (label, value) pair,
    is drawn as the first point (a rating before any game); ``reference`` is a value
    marked by a dashed line (None: none). Empty ``points`` give an empty string (the
    page says there is nothing to show)."""
    points = [(x, float(y)) for x, y in points if y is not None]
    if not points:
        return SafeString("")
    if start is not None:
        points.insert(0, (start[0], float(start[1])))
    uid = next(_ids)
    ticks = nice_ticks(min(v for _, v in points), max(v for _, v in points))
    frame = _Frame(len(points), ticks, width, height)
    # Every number is a string already: a template would write it in the reader's
    # language (1.200 or 3,5), which SVG cannot read.
    context = {
        "width": str(width),
        "height": str(height),
        "title_id": f"chart-{uid}-title",
        "desc_id": f"chart-{uid}-desc",
        "title": title,
        "desc": _describe(points, noun, start),
        "y_label": y_label,
        **_grid(frame, ticks, reference),
        **_labels(frame, points),
        **_line(frame, points),
    }
    return render_to_string("results/_chart.svg", context)
