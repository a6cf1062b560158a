"""Who may see and score a table: the three ways in, in one place.

1. The table's secret link (``/t/<token>/``) or its room code typed on the front page
   give *this device* a grant, kept in its session, for that table on that day only.
   The grant stops working when the day is closed or its links end (the end of the
   day's date in the club's time zone, unless an officer kept them working longer).
2. Logged-in officers may see and score any table (also after the day is closed, to
   settle a disputed hand).
3. Logged-in members seated at the table (a `Seat` in that round) may see and score it
   while the day is open, and see it afterwards.

Everyone else gets a 404 for table and game pages: a table's existence is not shown to
outsiders. Views call :func:`table_for_request` / :func:`game_for_request` (the pattern
of healthchecks' ``_get_check_for_user``) and never check roles themselves.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from functools import wraps

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.http import Http404
from django.shortcuts import render

from members.models import ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH, ClubDay, Table
from members.permissions import officer_or_seated
from members.services.days import links_open
from scoring.models import Game
from scoring.play import reads

GRANT_KEY = "scoring_table_grant"
ROOM_FAILS_KEY = "scoring_room_fails"

CLOSED_MESSAGE = "This club day is closed; the scores are final."
LINKS_ENDED_MESSAGE = (
    "This table's link and room code have stopped working for today. "
    "Ask an officer: on the club day's page they can keep the table links working longer."
)


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


def _grant_matches(request, table: Table) -> bool:
    grant = request.session.get(GRANT_KEY)
    return (
        isinstance(grant, dict)
        and grant.get("table") == table.pk
        and grant.get("day") == table.round.day_id
    )


def access_for_table(request, table: Table) -> TableAccess | None:
    """The viewer's access to ``table``, or None. Raises DayClosed for a device whose
    only way in is a grant to a table of a closed day, or one whose links have ended."""
    day = table.round.day
    user = request.user
    officer, seated = officer_or_seated(user, table)
    if officer:
        return TableAccess(table, day, True, "officer", True, user)
    if seated:
        return TableAccess(table, day, day.is_open, "seated", False, user)
    if _grant_matches(request, table):
        require_links_open(table)
        return TableAccess(table, day, True, "link", False, user)
    return None


def table_for_request(request, table_pk, *, edit: bool = False) -> TableAccess:
    """The table and the viewer's access; 404 for anyone without a way in. With
    ``edit=True`` a viewer who may only look gets the closed-day page (DayClosed)."""
    table = reads.one_or_404(reads.table_by_pk, table_pk, Table)
    access = access_for_table(request, table)
    if access is None:
        raise Http404("No such table.")
    if edit and not access.can_edit:
        raise DayClosed(table)
    return access


def game_for_request(request, game_pk, *, edit: bool = False) -> tuple[Game, TableAccess]:
    # Not the winner: pages name it from the teams they read (winner_id), not game.winner.
    game = reads.one_or_404(reads.game_by_pk, game_pk, Game)
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
#
# Guessing is counted three ways (see the README, "Room codes", for the arithmetic):
# per device (the signed ``club_device`` cookie), per session, and per network address.
# A POST that carries a device cookie is judged by its own device and session counters
# only, never by the address, so a club's phones behind one router keep working while
# someone else guesses. A POST without one (a script that drops cookies) is refused
# without checking the code once its address has had too many wrong codes this hour.

DEVICE_COOKIE = "club_device"
DEVICE_SALT = "scoring.play.access.device"
#: The browser keeps its device cookie this long (seconds).
DEVICE_COOKIE_AGE = 365 * 24 * 3600
#: A device id counts for room codes this long after it was issued: older cookies are
#: treated as none, so nobody can pile up devices over weeks.
DEVICE_TRUST = 24 * 3600
#: A drawn page gives a cookie older than this a new one (inside the trust window).
DEVICE_REFRESH = 12 * 3600
#: New device cookies one address may be given per hour.
DEVICES_PER_ADDRESS_HOUR = 300

#: Wrong room codes a device (or a session) may type before it must wait.
ROOM_CODE_TRIES = 5
#: How long it then waits (seconds).
ROOM_CODE_WAIT = 10 * 60
#: Wrong room codes one device may type while its cookie is trusted (24 hours).
ROOM_CODE_TRIES_PER_DEVICE = 15
#: Wrong codes from one network address per hour before cookie-less tries are refused.
ROOM_CODE_TRIES_PER_ADDRESS = 30

LEGACY_ROOM_CODE_LENGTH = 6
ROOM_CODE_LENGTHS = (ROOM_CODE_LENGTH, LEGACY_ROOM_CODE_LENGTH)


def normalise_room_code(text: object) -> str:
    """Upper case, without spaces, dashes or dots: " abcd-e3fg " -> "ABCDE3FG"."""
    if not isinstance(text, str):
        return ""
    text = text[:40].upper()
    for junk in (" ", "-", ".", "_", "\t"):
        text = text.replace(junk, "")
    return text


def format_room_code(code: str) -> str:
    """Eight characters are shown as two groups of four ("ABCD-EFGH"), easier to read
    out and type; older six-character codes are shown as they are."""
    if len(code) == 8:
        return f"{code[:4]}-{code[4:]}"
    return code


def _client_address(request) -> str:
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def _hour_key(kind: str, request) -> str:
    """A fixed one-hour window per address: the hour's number is part of the key."""
    return f"scoring:room:{kind}:{_client_address(request)}:{int(time.time() // 3600)}"


def _bump(key: str, timeout: int) -> int:
    """Add one to a shared counter and return it. ``touch`` keeps the timeout, since
    the database cache's ``incr`` would reset it to the default."""
    cache.add(key, 0, timeout)
    try:
        value = cache.incr(key)
    except ValueError:  # it expired between add and incr
        cache.set(key, 1, timeout)
        value = 1
    cache.touch(key, timeout)
    return value


def _read_device(request) -> tuple[str, float] | None:
    """The device id and issue time of this browser's cookie, if valid and trusted."""
    try:
        data = signing.loads(
            request.COOKIES.get(DEVICE_COOKIE, ""), salt=DEVICE_SALT, max_age=DEVICE_COOKIE_AGE
        )
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    device, issued = data.get("id"), data.get("t")
    if not isinstance(device, str) or not isinstance(issued, (int, float)):
        return None
    if not 0 <= time.time() - issued < DEVICE_TRUST:
        return None
    return device, issued


def device_id(request) -> str | None:
    """This browser's trusted device id, or None (no cookie, forged, or too old)."""
    found = _read_device(request)
    return found[0] if found else None


def remember_device(request, response) -> None:
    """Give this browser a device cookie when a page with the room-code box is drawn,
    unless it has a recent one; at most DEVICES_PER_ADDRESS_HOUR new ones per address.
    An answer to a room-code POST gives none once the address is over its limit, so a
    script that drops cookies cannot spend the address's new devices."""
    found = _read_device(request)
    if found and time.time() - found[1] < DEVICE_REFRESH:
        return
    if request.method == "POST" and _address_over_limit(request):
        return
    if _bump(_hour_key("devices", request), 3600) > DEVICES_PER_ADDRESS_HOUR:
        return
    value = signing.dumps({"id": secrets.token_urlsafe(16), "t": time.time()}, salt=DEVICE_SALT)
    response.set_cookie(
        DEVICE_COOKIE,
        value,
        max_age=DEVICE_COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


def room_code_wait(request) -> int:
    """Seconds this device (or session) must still wait before another try (0: none)."""
    now = time.time()
    waits = [0.0]
    fails = request.session.get(ROOM_FAILS_KEY)
    if isinstance(fails, dict) and isinstance(fails.get("until"), (int, float)):
        waits.append(fails["until"] - now)
    device = device_id(request)
    if device is not None:
        until = cache.get(f"scoring:room:device-wait:{device}")
        if isinstance(until, (int, float)):
            waits.append(until - now)
    longest = max(waits)
    return int(longest) + 1 if longest > 0 else 0


def _address_over_limit(request) -> bool:
    return (cache.get(_hour_key("fails", request)) or 0) >= ROOM_CODE_TRIES_PER_ADDRESS


def _count_failure(request) -> None:
    """One wrong code: counted for the session, the device and the address."""
    now = time.time()
    fails = request.session.get(ROOM_FAILS_KEY)
    count = int(fails.get("count") or 0) + 1 if isinstance(fails, dict) else 1
    if count >= ROOM_CODE_TRIES:
        fails = {"count": 0, "until": now + ROOM_CODE_WAIT}
    else:
        fails = {"count": count, "until": fails.get("until") if isinstance(fails, dict) else None}
    request.session[ROOM_FAILS_KEY] = fails
    device = device_id(request)
    if device is not None:
        total = _bump(f"scoring:room:device-fails:{device}", DEVICE_TRUST)
        wait = DEVICE_TRUST if total >= ROOM_CODE_TRIES_PER_DEVICE else ROOM_CODE_WAIT
        if total % ROOM_CODE_TRIES == 0 or total >= ROOM_CODE_TRIES_PER_DEVICE:
            cache.set(f"scoring:room:device-wait:{device}", now + wait, wait)
    _bump(_hour_key("fails", request), 3600)


def _wait_words(seconds: int) -> str:
    if seconds > 90 * 60:
        hours = (seconds + 3599) // 3600
        return f"{hours} hour{'s' if hours != 1 else ''}"
    minutes = max(1, (seconds + 59) // 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def _refusal(request) -> str:
    """Why this try is not checked at all, or "" when it may be."""
    wait = room_code_wait(request)
    if wait:
        return (
            f"Too many wrong codes were typed on this device. Wait {_wait_words(wait)}, "
            f"then try again. The QR code on your table card still works: scan it with "
            f"the phone's camera, or ask an officer."
        )
    if device_id(request) is None and _address_over_limit(request):
        return (
            "Too many wrong codes came from your network this hour. Scan the QR code on "
            "your table card with the phone's camera, or reload this page and type the "
            "code again."
        )
    return ""


def check_typed_code(request, text: object, lookup, words: tuple[str, str, str]):
    """Look up a typed code with ``lookup(code)`` (the object or None); returns (object,
    "") or (None, a message for the box). ``words``: what the code is called, what it
    opens and where it is written ("room code", "table", "your table card"). A wrong
    code counts against this device, session and address (see above)."""
    name, thing, where = words
    refusal = _refusal(request)
    if refusal:
        return None, refusal
    code = normalise_room_code(text)
    if not code:
        return None, f"Type the {ROOM_CODE_LENGTH}-character {name} from {where}."
    valid = len(code) in ROOM_CODE_LENGTHS and all(c in ROOM_CODE_ALPHABET for c in code)
    found = lookup(code) if valid else None
    if found is None:
        _count_failure(request)
        hint = ""
        if len(code) not in ROOM_CODE_LENGTHS:
            hint = (
                f" A {name} has {ROOM_CODE_LENGTH} letters and digits, like ABCD-EFGH;"
                f" you typed {len(code)}."
            )
        return None, (
            f"No {thing} has the {name} {format_room_code(code[: ROOM_CODE_LENGTH + 4])}."
            f"{hint} Check the code on {where} and try again."
        )
    request.session.pop(ROOM_FAILS_KEY, None)
    return found, ""


def check_room_code(request, text: object) -> tuple[Table | None, str]:
    """A typed table room code: (table, "") or (None, a message for the box)."""
    table, problem = check_typed_code(
        request,
        text,
        lambda code: tables_with_days().filter(room_code=code).first(),
        ("room code", "table", "your table card"),
    )
    if table is None:
        return None, problem
    try:
        require_links_open(table)
    except DayClosed as closed:
        return None, closed.message
    return table, ""
