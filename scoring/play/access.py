"""Who may see and score a table: the three ways in, in one place.

1. The table's secret link (``/t/<token>/``) or its room code typed on the front page
   (:mod:`scoring.play.rooms`) give *this device* a grant, kept in its session, for
   that table on that day only. The grant stops working when the day is closed or its
   links end (the end of the day's date in the club's time zone, unless an officer
   kept them working longer).
2. Logged-in officers may see and score any table (also after the day is closed, to
   settle a disputed hand).
3. Logged-in members seated at the table (a `Seat` in that round) may see and score it
   while the day is open, and see it afterwards.

Everyone else gets a 404 for table and game pages: a table's existence is not shown to
outsiders. A phone in through the link may be given a name ("Whose phone is this?",
kept in a cookie: :func:`phone_name`), written with each change it makes.
Views call :func:`table_for_request` / :func:`game_for_request` (the pattern
of healthchecks' ``_get_check_for_user``) and never check roles themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import wraps

from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubsite.devices import DEVICE_COOKIE_AGE, GRANT_KEY
from members.models import ClubDay, Table
from members.permissions import officer_or_seated
from members.services.days import links_open
from scoring.models import Game
from scoring.play import reads

# In English here; said in the reader's language where shown (DayClosed).
CLOSED_MESSAGE = gettext_noop("This club day is closed; the scores are final.")
LINKS_ENDED_MESSAGE = gettext_noop(
    "This table's link and room code have stopped working for today. "
    "Ask an officer: on the club day's page they can keep the table links working longer."
)


#: The name a table phone was given ("Whose phone is this?": "Betty"), kept on the phone
#: and written with each change it makes ("Betty (Table 2 link)").
PHONE_NAME_COOKIE = "club_phone_name"
PHONE_NAME_MAX = 30


class DayClosed(Exception):
    """The table's club day is closed: grants no longer work, nothing can be scored."""

    def __init__(self, table: Table, message: str = CLOSED_MESSAGE):
        super().__init__(message)
        self.table = table
        self.message = _(message)


@dataclass
class TableAccess:
    """What the viewer of a table page may do, and how they got in."""

    table: Table
    day: ClubDay
    can_edit: bool
    how: str  # "officer", "seated" or "link"
    is_officer: bool
    user: object = None
    phone: str = ""  # the name this phone was given (phone_name), or ""

    @property
    def via(self) -> str:
        """How a change is recorded in the history when nobody is logged in."""
        if self.how == "link":
            link = f"Table {self.table.number} link"  # stored in English: models.games.via_words
            return f"{self.phone} ({link})" if self.phone else link
        return ""

    @property
    def user_for_history(self):
        return self.user if self.how != "link" else None


def require_links_open(table: Table) -> None:
    """Raise :class:`DayClosed` when the table's link and room code no longer work: its
    day is closed, or its links have ended (the end of the date, or an officer's
    extension)."""
    day = table.round.day
    if not day.is_open:
        raise DayClosed(table)
    if not links_open(day):
        raise DayClosed(table, LINKS_ENDED_MESSAGE)


def tables_with_days():
    """Tables with their round and day: every access check reads the day."""
    return Table.objects.select_related("round__day")


def grant_table(request, table: Table) -> None:
    """Let this device score ``table`` on its day (and no other table or day)."""
    request.session.cycle_key()
    request.session[GRANT_KEY] = {"table": table.pk, "day": table.round.day_id}


def access_for_table(request, table: Table) -> TableAccess | None:
    """The viewer's access to ``table``, or None. Raises DayClosed for a device whose
    only way in is a grant to a table of a closed day, or one whose links have ended.
    What the device says (its grant, its name) is read first, then the viewer's roles:
    an officer or a seated player keeps their own way in whatever the device holds."""
    day = table.round.day
    user = request.user
    grant = request.session.get(GRANT_KEY)
    granted = (
        isinstance(grant, dict)
        and grant.get("table") == table.pk
        and grant.get("day") == table.round.day_id
    )
    phone = phone_name(request) if granted else ""
    officer, seated = officer_or_seated(user, table)
    if officer:
        return TableAccess(table, day, True, "officer", True, user)
    if seated:
        return TableAccess(table, day, day.is_open, "seated", False, user)
    if granted:
        require_links_open(table)
        return TableAccess(table, day, True, "link", False, user, phone)
    return None


def table_for_request(request, table_pk, *, edit: bool = False) -> TableAccess:
    """The table and the viewer's access; 404 for anyone without a way in. With
    ``edit=True`` a viewer who may only look gets the closed-day page (DayClosed)."""
    table = reads.one_or_404(reads.table_by_pk, table_pk, Table)
    access = access_for_table(request, table)
    if access is None:
        raise Http404(_("No such table."))
    if edit and not access.can_edit:
        raise DayClosed(table)
    return access


def game_for_request(request, game_pk, *, edit: bool = False) -> tuple[Game, TableAccess]:
    # Not the winner: pages name it from the teams they read (winner_id), not game.winner.
    game = reads.one_or_404(reads.game_by_pk, game_pk, Game)
    table = game.table
    access = access_for_table(request, table)
    if access is None:
        raise Http404(_("No such game."))
    if edit and not access.can_edit:
        raise DayClosed(table)
    return game, access


def tidy_phone_name(raw) -> str:
    """A phone's name as typed: printable characters, single spaces, at most
    :data:`PHONE_NAME_MAX` characters ("" when nothing is left)."""
    if not isinstance(raw, str):
        return ""
    words = "".join(c for c in raw if c.isprintable()).split()
    return " ".join(words)[:PHONE_NAME_MAX].strip()


def phone_name(request) -> str:
    """The name this phone was given, or ""."""
    return tidy_phone_name(request.COOKIES.get(PHONE_NAME_COOKIE, ""))


def remember_phone_name(response, name: str) -> None:
    response.set_cookie(
        PHONE_NAME_COOKIE,
        name,
        max_age=DEVICE_COOKIE_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def shows_closed_day(view):
    """Turn DayClosed into the friendly closed-day page (never a 500)."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except DayClosed as exc:
            return render(
                request,
                "scoring/closed.html",
                {"table": exc.table, "day": exc.table.round.day, "message": exc.message},
                status=410,
            )

    return wrapper
