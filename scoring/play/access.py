"""Who may see and score a table: the three ways in, in one place.

1. The table's secret link (``/t/<token>/``) or its room code typed on the front page
   give *this device* a grant, kept in its session, for that table on that day only.
   The grant stops working when the day is closed.
2. Logged-in officers may see and score any table (also after the day is closed, to
   settle a disputed hand).
3. Logged-in members seated at the table (a `Seat` in that round) may see and score it
   while the day is open, and see it afterwards.

Everyone else gets a 404 for table and game pages: a table's existence is not shown to
outsiders. Views call :func:`table_for_request` / :func:`game_for_request` (the pattern
of healthchecks' ``_get_check_for_user``) and never check roles themselves.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import wraps

from django.core.cache import cache
from django.http import Http404
from django.shortcuts import get_object_or_404, render

from members.models import ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH, ClubDay, Seat, Table
from members.permissions import is_officer, person_for
from scoring.models import Game

GRANT_KEY = "scoring_table_grant"
ROOM_FAILS_KEY = "scoring_room_fails"

#: Wrong room codes a device may type before it must wait.
ROOM_CODE_TRIES = 10
#: How long it then waits (seconds).
ROOM_CODE_WAIT = 5 * 60
#: Wrong codes from one network address per hour, whatever the device (cookie-less
#: guessing); generous, since a club's tablets may share one address.
ROOM_CODE_TRIES_PER_ADDRESS = 60

CLOSED_MESSAGE = "This club day is closed; the scores are final."


class DayClosed(Exception):
    """The table's club day is closed: grants no longer work, nothing can be scored."""

    def __init__(self, table: Table, message: str = CLOSED_MESSAGE):
        super().__init__(message)
        self.table = table
        self.message = message


@dataclass
class TableAccess:
    """What the viewer of a table page may do, and how they got in."""

    table: Table
    day: ClubDay
    can_edit: bool
    how: str  # "officer", "seated" or "link"
    is_officer: bool
    user: object = None

    @property
    def via(self) -> str:
        """How a change is recorded in the history when nobody is logged in."""
        if self.how == "link":
            return f"Table {self.table.number} link"
        return ""

    @property
    def user_for_history(self):
        return self.user if self.how != "link" else None


def _tables():
    return Table.objects.select_related("round__day")


def grant_table(request, table: Table) -> None:
    """Let this device score ``table`` on its day (and no other table or day)."""
    request.session.cycle_key()
    request.session[GRANT_KEY] = {"table": table.pk, "day": table.round.day_id}


def _grant_matches(request, table: Table) -> bool:
    grant = request.session.get(GRANT_KEY)
    return (
        isinstance(grant, dict)
        and grant.get("table") == table.pk
        and grant.get("day") == table.round.day_id
    )


def access_for_table(request, table: Table) -> TableAccess | None:
    """The viewer's access to ``table``, or None. Raises DayClosed for a device whose
    only way in is a grant to a table of a closed day."""
    day = table.round.day
    user = request.user
    if is_officer(user):
        return TableAccess(table, day, True, "officer", True, user)
    person = person_for(user)
    if person is not None and Seat.objects.filter(table=table, person=person).exists():
        return TableAccess(table, day, day.is_open, "seated", False, user)
    if _grant_matches(request, table):
        if not day.is_open:
            raise DayClosed(table)
        return TableAccess(table, day, True, "link", False, user)
    return None


def table_for_request(request, table_pk, *, edit: bool = False) -> TableAccess:
    """The table and the viewer's access; 404 for anyone without a way in. With
    ``edit=True`` a viewer who may only look gets the closed-day page (DayClosed)."""
    table = get_object_or_404(_tables(), pk=table_pk)
    access = access_for_table(request, table)
    if access is None:
        raise Http404("No such table.")
    if edit and not access.can_edit:
        raise DayClosed(table)
    return access


def game_for_request(request, game_pk, *, edit: bool = False) -> tuple[Game, TableAccess]:
    game = get_object_or_404(Game.objects.select_related("table__round__day", "winner"), pk=game_pk)
    table = game.table
    access = access_for_table(request, table)
    if access is None:
        raise Http404("No such game.")
    if edit and not access.can_edit:
        raise DayClosed(table)
    return game, access


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


# -- room codes ------------------------------------------------------------------------


def normalise_room_code(text: object) -> str:
    """Upper case, without spaces, dashes or dots: " abc-d3f " -> "ABCD3F"."""
    if not isinstance(text, str):
        return ""
    text = text[:40].upper()
    for junk in (" ", "-", ".", "_", "\t"):
        text = text.replace(junk, "")
    return text


def _client_address(request) -> str:
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def room_code_wait(request) -> int:
    """Seconds this device must still wait before trying another room code (0: none)."""
    fails = request.session.get(ROOM_FAILS_KEY) or {}
    until = fails.get("until") if isinstance(fails, dict) else None
    if isinstance(until, (int, float)) and until > time.time():
        return int(until - time.time()) + 1
    address_key = f"scoring:room-fails:{_client_address(request)}"
    if (cache.get(address_key) or 0) >= ROOM_CODE_TRIES_PER_ADDRESS:
        return ROOM_CODE_WAIT
    return 0


def _count_failure(request) -> None:
    fails = request.session.get(ROOM_FAILS_KEY)
    if not isinstance(fails, dict):
        fails = {}
    count = int(fails.get("count") or 0) + 1
    if count >= ROOM_CODE_TRIES:
        fails = {"count": 0, "until": time.time() + ROOM_CODE_WAIT}
    else:
        fails = {"count": count, "until": fails.get("until")}
    request.session[ROOM_FAILS_KEY] = fails
    address_key = f"scoring:room-fails:{_client_address(request)}"
    try:
        cache.incr(address_key)
    except ValueError:
        cache.set(address_key, 1, 3600)


def _wait_words(seconds: int) -> str:
    minutes = max(1, (seconds + 59) // 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def check_room_code(request, text: object) -> tuple[Table | None, str]:
    """Look up a typed room code; returns (table, "") or (None, a message for the box).
    Wrong codes are counted per device and per address, and too many make it wait."""
    wait = room_code_wait(request)
    if wait:
        return None, (
            f"Too many wrong codes were typed on this device. Wait {_wait_words(wait)}, "
            f"then try again, or ask an officer for the table card."
        )
    code = normalise_room_code(text)
    if not code:
        return None, "Type the six-letter room code from your table card."
    valid = len(code) == ROOM_CODE_LENGTH and all(c in ROOM_CODE_ALPHABET for c in code)
    table = _tables().filter(room_code=code).first() if valid else None
    if table is None:
        _count_failure(request)
        hint = ""
        if len(code) != ROOM_CODE_LENGTH:
            hint = f" A room code has {ROOM_CODE_LENGTH} letters and digits; you typed {len(code)}."
        return None, (
            f"No table has the room code {code[: ROOM_CODE_LENGTH + 4]}.{hint} Check the "
            f"code on your table card and try again."
        )
    if not table.round.day.is_open:
        return None, CLOSED_MESSAGE
    request.session.pop(ROOM_FAILS_KEY, None)
    return table, ""
