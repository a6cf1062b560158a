"""What every results table shares: the links to players and days, the number, rank,
date and player columns, and the CSV download.

Numbers are right-aligned (class ``num``) and shown with thousands separators; the CSV
of a table (:func:`csv_response`, from the table's own rows via ``Table.as_values()``)
carries the plain numbers. A player's name is written in one place (:func:`person_link`)
so that every table shows guests and links the same way, and visitors (public
standings) never get a link to a player's page (:class:`LinkPlayers`).
"""

from __future__ import annotations

from collections.abc import Iterable

import django_tables2 as tables
from django.http import HttpResponse
from django.urls import reverse
from django.utils.formats import date_format, number_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubsite.csvcells import csv_download
from scoring.results.ratings import display_rating

TEMPLATE = "results/table.html"
PER_PAGE = 50
NUM = {"th": {"class": "num"}, "td": {"class": "num"}, "tf": {"class": "num"}}
RANK = {"th": {"class": "num rank"}, "td": {"class": "num rank"}}
# The name a row is about (a standings player, a partner): first on a phone's card.
NAME_CELL = {"th": {"class": "name"}, "td": {"class": "name"}}


def player_url(pid) -> str:
    return reverse("scoring:player", args=[pid])


def day_url(pk) -> str:
    return reverse("scoring:day_result", args=[pk])


def day_label(value) -> str:
    """A club day as people say it: "Thu 6 Mar 2025"."""
    return date_format(value, "WEEKDAY_FORMAT") if value else ""


def person_link(pid, name: str, is_guest: bool, link: bool):
    """A name with its guest badge, linked to the player's page when ``link``."""
    badge = format_html(' <span class="badge">{}</span>', gettext("guest")) if is_guest else ""
    if not link:
        return format_html("{}{}", name, badge)
    return format_html('<a href="{}">{}{}</a>', player_url(pid), name, badge)


def people_links(people: Iterable, link: bool):
    """ "Ann Able & Cat Cole" with links to their pages (when the viewer may see them)."""
    return format_html_join(
        " & ",
        "{}",
        ((person_link(p.pk, p.full_name, p.is_guest, link),) for p in people),
    )


def person_html(person, link: bool):
    """:func:`person_link` of a standings row (a dict) or of a Person."""
    if isinstance(person, dict):
        return person_link(person["person_id"], person["name"], person["is_guest"], link)
    return person_link(person.pk, person.full_name, person.is_guest, link)


def person_text(person) -> str:
    """The plain name (for the CSV) of a standings row (a dict) or of a Person."""
    if isinstance(person, dict):  # in the reader's language, not the row's English
        if person["is_guest"]:
            return gettext("%(name)s (guest)") % {"name": person["name"]}
        return person["name"]
    return person.display_name


class LinkPlayers:
    """A table naming players takes ``link_players``: False for visitors, who may see
    the public standings but never a player's page."""

    def __init__(self, *args, link_players: bool = True, **kwargs):
        self.link_players = link_players
        super().__init__(*args, **kwargs)


class Table(tables.Table):
    """A results table, drawn by ``results/table.html``. ``row_id(record)`` may give a
    row its anchor; with ``cards`` (the default) a phone shows each row as a card of
    labelled values (results.css) instead of a table wider than the screen."""

    cards = True

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("row_attrs", {"id": lambda table, record: table.row_id(record)})
        super().__init__(*args, **kwargs)

    def row_id(self, record) -> str | None:
        return None


# ---------------------------------------------------------------------------------------
# Columns


class NumberColumn(tables.Column):
    """A right-aligned number: "5,120" on the page, 5120 in the CSV."""

    def __init__(self, *args, decimals: int = 0, **kwargs):
        kwargs.setdefault("attrs", NUM)
        self.decimals = decimals
        super().__init__(*args, **kwargs)

    def render(self, value):
        # Grouped and with the decimal mark of the reader's language ("5.120" in Spanish).
        return number_format(value, decimal_pos=self.decimals, force_grouping=True)

    def value(self, value):
        return value


class SignedColumn(NumberColumn):
    """A difference: "+310" / "−120"."""

    def render(self, value):
        if value > 0:
            return "+" + number_format(value, force_grouping=True)
        if value < 0:
            return "−" + number_format(-value, force_grouping=True)
        return "0"


class RatingColumn(NumberColumn):
    """A rating, stored as the openskill ordinal, shown on the friendly scale
    (:func:`scoring.results.ratings.display_rating`): "1,040" on the page and in the CSV."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("default", "—")
        super().__init__(*args, **kwargs)

    def render(self, value):
        return number_format(display_rating(value), force_grouping=True)

    def value(self, value):
        return display_rating(value)


class RankColumn(tables.Column):
    """ "1", "=2" for a shared position (``ties=False``: a list where a shared place
    is not marked, such as the top scores)."""

    def __init__(self, *args, ties: bool = True, **kwargs):
        kwargs.setdefault("attrs", RANK)
        kwargs.setdefault("verbose_name", _("Rank"))
        self.ties = ties
        super().__init__(*args, **kwargs)

    def render(self, value, record):
        tied = self.ties and isinstance(record, dict) and record.get("tied")
        return f"={value}" if tied else str(value)

    def value(self, value):
        return value


class DateColumn(tables.Column):
    """A day: "Thu 6 Mar 2025" on the page, 2025-03-06 in the CSV."""

    def render(self, value):
        return day_label(value)

    def value(self, value):
        return value.isoformat() if value else ""


class GameDayColumn(tables.Column):
    """The day of a game (the cell's value is the game), linked to that day's results."""

    def render(self, value):
        return format_html('<a href="{}">{}</a>', day_url(value.day_id), day_label(value.day_date))

    def value(self, value):
        return value.day_date.isoformat()


class _RowOrValueColumn(tables.Column):
    """A column that reads the cell's value, or with ``whole_row`` the row itself (a
    standings row is the person; a game's team row is the team)."""

    def __init__(self, *args, whole_row: bool = False, **kwargs):
        self.whole_row = whole_row
        super().__init__(*args, **kwargs)

    def item(self, value, record):
        return record if self.whole_row else value


class PersonColumn(_RowOrValueColumn):
    """One player (a standings row or a Person): name, guest badge, link."""

    def render(self, value, record, table):
        return person_html(self.item(value, record), table.link_players)

    def value(self, value, record):
        return person_text(self.item(value, record))


class TeamColumn(_RowOrValueColumn):
    """The players of a team (a GameTeam with its memberships prefetched)."""

    def render(self, value, record, table):
        team = self.item(value, record)
        return people_links([m.person for m in team.memberships.all()], table.link_players)

    def value(self, value, record):
        team = self.item(value, record)
        return " & ".join(m.person.display_name for m in team.memberships.all())


class PeopleColumn(tables.Column):
    """Players named by a row as text (the cell's value, for the CSV) and as people
    (the row's ``people`` key, for the page)."""

    def __init__(self, *args, people: str, **kwargs):
        self.people = people
        super().__init__(*args, **kwargs)

    def render(self, record, table):
        return people_links(record[self.people], table.link_players)

    def value(self, value):
        return value


# ---------------------------------------------------------------------------------------
# CSV


def csv_response(table: tables.Table, filename: str) -> HttpResponse:
    """Every row of ``table`` (not only the page shown, in the order shown) as a CSV
    download from the table's own values: text quoted, formulas defused (csv_download)."""
    response, writer = csv_download(filename)
    for row in table.as_values():
        writer.writerow(row)
    return response
