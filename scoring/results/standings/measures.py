"""The measures a standings row can be ranked by, and the per-game statistics summed.

The officers choose an ordered list of measures (``ClubSettings.ranking_measures``);
this room names every measure the site knows, which way is better for each, the default
list, and which statistics stored on ``GameTeam`` the standings add up. Pure Python: no
query here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.models.totals import TEAM_SUMS as STORED_TEAM_SUMS


@dataclass(frozen=True)
class Measure:
    """A number a standings row can be ranked by. ``higher_is_better`` gives the
    direction (points against: lower is better)."""

    name: str
    label: str
    higher_is_better: bool = True
    help: str = ""


MEASURES: dict[str, Measure] = {
    m.name: m
    for m in (
        Measure("win_pct", _("Win %"), help=_("Games won out of games played.")),
        Measure("differential", _("Points difference"), help=_("Points for minus points against.")),
        Measure("wins", _("Wins"), help=_("Games won.")),
        Measure("points_for", _("Points for"), help=_("All points scored in finished games.")),
        Measure("average", _("Average game score"), help=_("Points for divided by games.")),
        Measure(
            "rating", _("Rating"), help=_("The rating at the end of the period (1,000 when new).")
        ),
        Measure("games", _("Games played")),
        Measure(
            "points_against",
            _("Points against"),
            higher_is_better=False,
            help=_("The opponents' scores; at a table of three, the average of the other two."),
        ),
        Measure("natural_canastas", _("Natural canastas")),
        Measure("red_threes", _("Red threes")),
        Measure("times_out", _("Times out")),
    )
}

DEFAULT_MEASURES: tuple[str, ...] = ("win_pct", "differential")
DEFAULT_MIN_GAMES = 5

# The per-game statistics stored on GameTeam that standings add up (row key → field):
# defined once, beside the stored totals that add them up (scoring.models.totals).
TEAM_SUMS = STORED_TEAM_SUMS


def clean_measures(names: Iterable[str] | None) -> list[str]:
    """The known measures of ``names``, in order, without repeats; the default when
    none is left."""
    out: list[str] = []
    for name in names or ():
        if name in MEASURES and name not in out:
            out.append(name)
    return out or list(DEFAULT_MEASURES)


def measures_label(names: Sequence[str]) -> str:
    """ "Win %, then Points difference"."""
    return gettext(", then ").join(str(MEASURES[n].label) for n in clean_measures(names))
