"""Room codes: typed on the front page (a table's) or on a room board, checked with
limits on guessing.

A try with a valid device cookie (the signed ``club_device`` cookie,
:mod:`clubsite.devices`) is judged by that device's own wrong codes and its
session's, never by its network address, so the phones behind one router or proxy keep
working while someone else guesses, and a phone that opens the site always gets a
cookie. A try without one (a script that drops cookies) is counted per network
address, with the other cookie-less tries only, and refused without checking the code
past ROOM_CODE_TRIES_PER_ADDRESS an hour. docs/deploy.md ("Room codes") has the
arithmetic that makes guessing hopeless.

With the cache unreachable the device counters count nothing, so nothing with a valid
device cookie is refused for them (the session's count still holds); cookie-less tries,
which cannot be counted then, are refused with a word to reload the page.
"""

from __future__ import annotations

import time

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from clubsite.devices import DEVICE_TRUST, device_id
from members.clubs.scope import current_club_id
from members.models import ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH, Table
from scoring.play.access import DayClosed, require_links_open, tables_with_days
from scoring.play.devices import (
    ROOM_CODE_TRIES_PER_ADDRESS,
    bump,
    cache_down,
    cache_get,
    cache_set,
    hour_key,
)

ROOM_FAILS_KEY = "scoring_room_fails"

#: Wrong room codes a device (or a session) may type before it must wait.
ROOM_CODE_TRIES = 5
#: How long it then waits (seconds).
ROOM_CODE_WAIT = 10 * 60
#: Wrong room codes one device may type while its cookie is trusted (24 hours).
ROOM_CODE_TRIES_PER_DEVICE = 15

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


def room_code_wait(request) -> int:
    """Seconds this device (or session) must still wait before another try (0: none)."""
    now = time.time()
    waits = [0.0]
    fails = request.session.get(ROOM_FAILS_KEY)
    if isinstance(fails, dict) and isinstance(fails.get("until"), (int, float)):
        waits.append(fails["until"] - now)
    device = device_id(request)
    if device is not None:
        until = cache_get(f"scoring:room:device-wait:{device}")
        if isinstance(until, (int, float)):
            waits.append(until - now)
    longest = max(waits)
    return int(longest) + 1 if longest > 0 else 0


def _count_failure(request) -> None:
    """One wrong code: counted for the session and the device (a cookie-less try was
    counted for its address before it was checked)."""
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
        total = bump(f"scoring:room:device-fails:{device}", DEVICE_TRUST)
        if total is None:  # the cache is down (logged): this device's wrong code is lost
            return
        wait = DEVICE_TRUST if total >= ROOM_CODE_TRIES_PER_DEVICE else ROOM_CODE_WAIT
        if total % ROOM_CODE_TRIES == 0 or total >= ROOM_CODE_TRIES_PER_DEVICE:
            cache_set(f"scoring:room:device-wait:{device}", now + wait, wait)


def _wait_words(seconds: int) -> str:
    if seconds > 90 * 60:
        hours = (seconds + 3599) // 3600
        return ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours}
    minutes = max(1, (seconds + 59) // 60)
    return ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}


def _refusal(request) -> str:
    """Why this try is not checked at all, or "" when it may be."""
    wait = room_code_wait(request)
    if wait:
        return _(
            "Too many wrong codes were typed on this device. Wait %(wait)s, then try "
            "again. The QR code on your table card still works: scan it with the phone's "
            "camera, or ask an officer."
        ) % {"wait": _wait_words(wait)}
    if device_id(request) is not None:
        return ""
    # No device cookie: counted with the other cookie-less tries from this address.
    tries = None if cache_down() else bump(hour_key("cookieless", request), 3600)
    if tries is None:
        return _(
            "This phone's code could not be checked just now. Reload this page and type "
            "the code again, or scan the QR code on your table card with the phone's "
            "camera."
        )
    if tries > ROOM_CODE_TRIES_PER_ADDRESS:
        return _(
            "Too many wrong codes came from your network this hour. Scan the QR code on "
            "your table card with the phone's camera, or reload this page and type the "
            "code again."
        )
    return ""


def check_typed_code(request, text: object, lookup, words: tuple[str, str, str]):
    """Look up a typed code with ``lookup(code)`` (the object or None); returns (object,
    "") or (None, a message for the box). ``words``: what the code is called, what it
    opens and where it is written ("room code", "table", "your table card"). A wrong
    code counts against this device and session; a try without a device cookie counts
    against its address's cookie-less tries (see above)."""
    name, thing, where = (_(word) for word in words)
    refusal = _refusal(request)
    if refusal:
        return None, refusal
    code = normalise_room_code(text)
    if not code:
        return None, _("Type the %(length)s-character %(name)s from %(where)s.") % {
            "length": ROOM_CODE_LENGTH,
            "name": name,
            "where": where,
        }
    valid = len(code) in ROOM_CODE_LENGTHS and all(c in ROOM_CODE_ALPHABET for c in code)
    found = lookup(code) if valid else None
    if found is None:
        _count_failure(request)
        hint = ""
        if len(code) not in ROOM_CODE_LENGTHS:
            hint = " " + _(
                "A %(name)s has %(length)s letters and digits, like ABCD-EFGH; you typed %(typed)s."
            ) % {"name": name, "length": ROOM_CODE_LENGTH, "typed": len(code)}
        words = {
            "thing": thing,
            "name": name,
            "code": format_room_code(code[: ROOM_CODE_LENGTH + 4]),
            "hint": hint,
            "where": where,
        }
        return None, (
            _(
                "No %(thing)s has the %(name)s %(code)s.%(hint)s Check the code on %(where)s "
                "and try again."
            )
            % words
        )
    request.session.pop(ROOM_FAILS_KEY, None)
    return found, ""


def _table_with_code(code: str) -> Table | None:
    """The table with room code ``code``: the club's own, else another club's (codes
    are unique across the site, and a code always leads to its own club's table)."""
    found = tables_with_days().filter(room_code=code).first()
    if found is None:
        found = (
            Table.objects.with_scopes_disabled()
            .select_related("round__day", "club")
            .filter(room_code=code)
            .first()
        )
    return found


def check_room_code(request, text: object) -> tuple[Table | None, str]:
    """A typed table room code: (table, "") or (None, a message for the box). A table
    of another club is returned as it is: its own club's pages check it (the caller
    sends the browser there, :func:`scoring.play.access.elsewhere`)."""
    table, problem = check_typed_code(
        request,
        text,
        _table_with_code,
        (gettext_noop("room code"), gettext_noop("table"), gettext_noop("your table card")),
    )
    if table is None:
        return None, problem
    if table.club_id != current_club_id():
        return table, ""
    try:
        require_links_open(table)
    except DayClosed as closed:
        return None, closed.message
    return table, ""
