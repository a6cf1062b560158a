"""The Summary sheet of the league workbook, and the Day label every sheet shares.

One row per club day of the period: its tables, the people signed in (members and
guests), the people who played, the finished games and the hands played in them (the
headers say so: tables, players and hands of finished games, as every page, the day
sheet and the e-mail count them), the games not finished (still in play, or left
unfinished when the day closed: counted nowhere else) and the hands not yet confirmed. Below
the days, in bold and outside the filter: a total per season (when the period spans
more than one), the period's total, and the different people of the period (each
counted once; its players are the Standings sheet's rows).

The figures are counted the way the other sheets and the pages count them, so they
reconcile: "Signed in" adds up to the Attendance sheet's rows, "Games" to the Games
sheet's rows, "Hands" to the distinct hands of the Hands sheet (which has one row per
team per hand), "Players" to the players of the day results page, and "Tables" to the
tables of the day's rows on the Games sheet.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

from django.db.models import Count, Sum
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from members.models import ClubDay, Person, SignIn
from scoring.models import Game, Season
from scoring.play.services.confirmations import unconfirmed_hand_counts
from scoring.results.sheets import THOUSANDS, day, integer, text
from scoring.results.standings.periods import Period, finished_games, finished_players

#: The headers say what they count: the finished games (a game ended as it stood when
#: its day closed is one), as every page, the day sheet and the e-mail do; a game still
#: in play or left unfinished is counted on its own, and nowhere else.
TABLES = _("Tables (finished games)")
PLAYERS = _("Players (finished games)")
GAMES = _("Finished games")
HANDS = _("Hands (finished games)")
UNFINISHED = _("Games not finished")

SUMMARY_COLUMNS = [
    day(_("Date")),
    text(_("Day")),
    integer(TABLES),
    integer(_("Signed in")),
    integer(_("Members")),
    integer(_("Guests")),
    integer(PLAYERS),
    integer(GAMES, number_format=THOUSANDS),
    integer(HANDS, number_format=THOUSANDS),
    integer(UNFINISHED, number_format=THOUSANDS),
    integer(_("Hands not yet confirmed"), number_format=THOUSANDS),
]
_FIGURES = (
    "tables",
    "signed_in",
    "members",
    "guests",
    "players",
    "games",
    "hands",
    "unfinished",
    "unconfirmed",
)


def day_labels(period: Period) -> dict[int, str]:
    """Club day id → its Day label: its title, or the weekday when it has none; two
    days of one date with the same label are told apart ("Thursday (2 of 2)")."""
    days = (
        ClubDay.objects.filter(period.limits("date"))
        .order_by("date", "pk")
        .values_list("pk", "date", "title")
    )
    labels: dict[int, str] = {}
    same: dict[tuple, list[int]] = defaultdict(list)
    for pk, date, title in days:
        labels[pk] = title or date_format(date, "l")
        same[(date, labels[pk].casefold())].append(pk)
    for group in same.values():
        if len(group) > 1:
            for n, pk in enumerate(group, start=1):
                labels[pk] += " " + gettext("(%(n)s of %(count)s)") % {"n": n, "count": len(group)}
    return labels


@dataclass
class DayFigures:
    date: object
    label: str
    figures: Counter = field(default_factory=Counter)

    def row(self) -> list:
        return [self.date, self.label, *(self.figures[name] for name in _FIGURES)]


def _day_figures(period: Period, labels: dict[int, str]) -> list[DayFigures]:
    """Every club day of the period with its figures: six grouped queries."""
    days = ClubDay.objects.filter(period.limits("date")).order_by("date", "pk")
    out = {pk: DayFigures(date, labels.get(pk, "")) for pk, date in days.values_list("pk", "date")}
    signins = SignIn.objects.filter(day__in=days).order_by()
    for day_id, kind, n in signins.values_list("day_id", "person__kind").annotate(n=Count("pk")):
        figures = out[day_id].figures
        figures["signed_in"] += n
        figures["guests" if kind == Person.Kind.GUEST else "members"] += n
    games = finished_games(period.start, period.end).filter(day__in=days).order_by()
    per_day = games.values("day_id").annotate(
        n=Count("pk"), hands=Sum("hand_count"), tables=Count("table__number", distinct=True)
    )
    for day_id, n, hands, tables in per_day.values_list("day_id", "n", "hands", "tables"):
        out[day_id].figures.update(games=n, hands=hands or 0, tables=tables)
    in_play = Game.objects.filter(day__in=days, status=Game.Status.PLAYING).order_by()
    for day_id, n in in_play.values_list("day_id").annotate(n=Count("pk")):
        out[day_id].figures["unfinished"] = n
    players = finished_players(period.start, period.end).filter(game__day__in=days)
    players = players.order_by().values("game__day_id").annotate(n=Count("person", distinct=True))
    for day_id, n in players.values_list("game__day_id", "n"):
        out[day_id].figures["players"] = n
    # Hands still waiting for the other team's OK, or disputed: the day is not final.
    for day_id, n in unconfirmed_hand_counts(out).items():
        out[day_id].figures["unconfirmed"] = n
    return list(out.values())


def _total(label: str, days: list[DayFigures]) -> list:
    figures = sum((d.figures for d in days), Counter())
    n = len(days)
    words = ngettext("%(label)s: %(n)s day", "%(label)s: %(n)s days", n) % {"label": label, "n": n}
    return [None, words] + [figures[name] for name in _FIGURES]


def _season_totals(period: Period, days: list[DayFigures]) -> list[list]:
    """A total per season the period's days fall in, unless one season holds them all
    (a period that is one season has its own total only)."""
    if period.season is not None or not days:
        return []
    seasons = Season.objects.filter(start__lte=days[-1].date, end__gte=days[0].date)
    rows = []
    for season in seasons.order_by("start", "pk"):
        inside = [d for d in days if season.start <= d.date <= season.end]
        if inside:
            label = gettext("Season %(name)s") % {"name": season.name}
            rows.append((len(inside), _total(label, inside)))
    if len(rows) == 1 and rows[0][0] == len(days):
        return []  # one season holds every day: the period's total says it all
    return [row for _n, row in rows]


def _different_people(period: Period) -> list:
    """The people of the period each counted once: signed in (members, guests), played."""
    signins = SignIn.objects.filter(period.limits("day__date")).order_by()
    kinds = dict(
        signins.values("person__kind")
        .annotate(n=Count("person", distinct=True))
        .values_list("person__kind", "n")
    )
    members, guests = kinds.get(Person.Kind.MEMBER, 0), kinds.get(Person.Kind.GUEST, 0)
    players = finished_players(period.start, period.end).values("person").distinct().count()
    label = gettext("Different people (each counted once)")
    return [None, label, None, members + guests, members, guests, players, None, None, None, None]


def summary_sheet(period: Period, labels: dict[int, str]) -> tuple[Iterator[list], list[list]]:
    """(the day rows, the total rows) of the Summary sheet."""
    days = _day_figures(period, labels)
    totals = _season_totals(period, days)
    totals.append(_total(gettext("Total, %(period)s") % {"period": period.label}, days))
    totals.append(_different_people(period))
    return (d.row() for d in days), totals
