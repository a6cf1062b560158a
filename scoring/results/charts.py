"""Server-rendered SVG charts: small pure functions, no chart library, no JavaScript.

:func:`line_chart` turns a list of points into an accessible SVG string (``role="img"``
with a ``<title>`` and a ``<desc>`` that says in words what the chart shows), with
labelled axes and gridlines. It scales to its container (``viewBox``), so it reads on a
phone and on a projector alike.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Sequence
from itertools import count

from django.utils.formats import date_format, number_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
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


def _grid(frame: _Frame, ticks: list[float], reference: float | None) -> list[str]:
    """Gridlines with their y tick labels, the dashed reference line (0 for scores,
    the new-player value for ratings) where it falls inside, then the two axes."""
    parts = []
    right = frame.width - MARGIN_RIGHT
    for tick in ticks:
        y = frame.y_at(tick)
        parts.append(
            f'<line class="chart-grid" x1="{MARGIN_LEFT}" x2="{right}" y1="{y:.1f}" y2="{y:.1f}"/>'
        )
        parts.append(
            f'<text class="chart-tick" x="{MARGIN_LEFT - 10}" y="{y + 6:.1f}" '
            f'text-anchor="end">{escape(_number(tick))}</text>'
        )
    if reference is not None and frame.y_min <= reference <= frame.y_max:
        y = frame.y_at(reference)
        parts.append(
            f'<line class="chart-zero" x1="{MARGIN_LEFT}" x2="{right}" y1="{y:.1f}" y2="{y:.1f}"/>'
        )
    parts.append(
        f'<line class="chart-axis" x1="{MARGIN_LEFT}" x2="{MARGIN_LEFT}" '
        f'y1="{MARGIN_TOP}" y2="{frame.bottom}"/>'
    )
    parts.append(
        f'<line class="chart-axis" x1="{MARGIN_LEFT}" x2="{frame.width - MARGIN_RIGHT}" '
        f'y1="{frame.bottom}" y2="{frame.bottom}"/>'
    )
    return parts


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


def _labels(frame: _Frame, points: Sequence[tuple], y_label: str) -> list[str]:
    """X labels (:func:`_label_points`, never overlapping) and the y axis's name."""
    n = frame.n
    shown = _label_points(frame)
    parts = []
    for j, i in enumerate(shown):
        anchor = "start" if j == 0 and n > 1 else "end" if i == n - 1 and n > 1 else "middle"
        # On a phone only the first and last dates are shown (results.css).
        end = "chart-x-end" if j in (0, len(shown) - 1) else "chart-x-mid"
        parts.append(
            f'<text class="chart-tick {end}" x="{frame.x_at(i):.1f}" y="{frame.bottom + 30}" '
            f'text-anchor="{anchor}">{escape(_label(points[i][0]))}</text>'
        )
    middle = MARGIN_TOP + frame.plot_h / 2
    parts.append(
        f'<text class="chart-axis-label" x="18" y="{middle:.1f}" '
        f'text-anchor="middle" transform="rotate(-90 18 {middle:.1f})">'
        f"{escape(y_label)}</text>"
    )
    return parts


def _line(frame: _Frame, points: Sequence[tuple]) -> list[str]:
    """The line, and dots while there are few enough to see."""
    n = frame.n
    coords = " ".join(f"{frame.x_at(i):.1f},{frame.y_at(v):.1f}" for i, (_, v) in enumerate(points))
    parts = []
    if n > 1:
        parts.append(f'<polyline class="chart-line" fill="none" points="{coords}"/>')
    if n <= 60:
        for i, (_, v) in enumerate(points):
            parts.append(
                f'<circle class="chart-dot" cx="{frame.x_at(i):.1f}" '
                f'cy="{frame.y_at(v):.1f}" r="4"/>'
            )
    return parts


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
    date or a string — as a safe HTML string. Points are spaced evenly (games, not
    days); the x axis names the first, last and a few dates between. ``start``, a
    (label, value) pair, is drawn as the first point (a rating before any game);
    ``reference`` is a value marked by a dashed line (None: none). Empty ``points``
    give an empty string (the page says there is nothing to show)."""
    points = [(x, float(y)) for x, y in points if y is not None]
    if not points:
        return mark_safe("")
    if start is not None:
        points.insert(0, (start[0], float(start[1])))
    uid = next(_ids)
    ticks = nice_ticks(min(v for _, v in points), max(v for _, v in points))
    frame = _Frame(len(points), ticks, width, height)
    title_id, desc_id = f"chart-{uid}-title", f"chart-{uid}-desc"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {height}" '
        f'role="img" aria-labelledby="{title_id} {desc_id}" preserveAspectRatio="xMidYMid meet">',
        f'<title id="{title_id}">{escape(title)}</title>',
        f'<desc id="{desc_id}">{escape(_describe(points, noun, start))}</desc>',
        *_grid(frame, ticks, reference),
        *_labels(frame, points, y_label),
        *_line(frame, points),
        "</svg>",
    ]
    return mark_safe("".join(parts))
