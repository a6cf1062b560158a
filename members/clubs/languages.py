"""Which language a page is drawn in, and which paper the club prints on: decided here
and nowhere else.

The order (:func:`language_for`): a member's own choice (their page, stored on their
Person record) > the phone's remembered choice (the one-tap switch on the table page,
a cookie) > the club's language (:func:`club_language`). The middleware
``members.clubs.middleware.language`` activates it for every request.

The club's language is its own (``Club.language_code``, on its settings page); the
``CLUB_LANGUAGE`` setting is a new club's, and the site's own pages' (no club).
A member's choice is read from their Person record once per login session and kept in
the session (no query per page); saving a new choice updates both.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import get_language_info

#: The session key that keeps a logged-in member's own choice in a club (each club has
#: its own Person record): [user pk, club pk, code or ""].
MEMBER_KEY = "member_language"

#: Paper sizes: what CSS's ``@page { size }`` and the workbook's print setup call them.
A4 = "A4"
LETTER = "Letter"


def codes() -> list[str]:
    """The site's language codes, English first."""
    return [code for code, _name in settings.LANGUAGES]


def valid(code: object) -> str | None:
    """``code`` when it is one of the site's languages (any case), else None."""
    if not isinstance(code, str):
        return None
    code = code.strip().lower().replace("_", "-")
    return code if code in codes() else None


def club_language(request=None) -> str:
    """The club's language: what tables, the board and anyone who has not chosen read.

    The request's club's (``request.club.language_code``, set on its settings page);
    without a request, the club whose scope is active (the results e-mail); else, and
    for the site's own pages (no club), the ``CLUB_LANGUAGE`` setting."""
    club = getattr(request, "club", None) if request is not None else _scoped_club()
    code = valid(getattr(club, "language_code", None)) if club is not None else None
    return code or valid(settings.CLUB_LANGUAGE) or settings.LANGUAGE_CODE


def _scoped_club():
    """The club of the active scope, if any (no error outside one)."""
    from django_scopes import ScopeError

    from members.clubs.scope import current_club

    try:
        return current_club()
    except (ScopeError, LookupError):
        return None


def paper_size(request=None) -> str:
    """``"A4"`` or ``"Letter"``: the club's paper (``Club.paper``, on its settings page;
    the request's club, else the club whose scope is active); for the site's own pages
    (no club), a new club's (``CLUB_PAPER``, else its language's usual paper)."""
    from members.models import Paper, default_paper

    club = getattr(request, "club", None) if request is not None else _scoped_club()
    paper = getattr(club, "paper", None)
    return paper if paper in Paper.values else default_paper()


def phone_language(request) -> str | None:
    """The language this phone chose with the switch (a cookie), if any."""
    return valid(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))


def member_language(request) -> str | None:
    """A logged-in member's own choice, if they made one (from the session, or their
    Person record once per session)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    session = getattr(request, "session", None)
    club = _club_id()
    kept = session.get(MEMBER_KEY) if session is not None else None
    if isinstance(kept, list) and len(kept) == 3 and kept[:2] == [user.pk, club]:
        return valid(kept[2])
    code = _person_language(user)
    if session is not None:
        session[MEMBER_KEY] = [user.pk, club, code]
    return code or None


def _club_id() -> int | None:
    from members.clubs.scope import current_club_id

    return current_club_id()


def _person_language(user) -> str:
    """The language on the user's Person record in the active club ("" if none)."""
    from members.permissions import person_for

    return valid(getattr(person_for(user), "language", "")) or ""


def remember_at_login(sender, request, user, **kwargs) -> None:
    """At login (``user_logged_in``): keep the member's own choice in the new session, so
    no page reads it again."""
    if request is None or getattr(request, "session", None) is None:
        return
    request.session[MEMBER_KEY] = [user.pk, _club_id(), _person_language(user)]


def remember_member_language(request, code: str) -> None:
    """Keep a member's new choice in their session (after saving it on their record)."""
    if request.user.is_authenticated:
        request.session[MEMBER_KEY] = [request.user.pk, _club_id(), valid(code) or ""]


def language_for(request) -> str:
    """The language of this request: member's choice > phone's choice > club's."""
    return member_language(request) or phone_language(request) or club_language(request)


def language_name(code: str) -> str:
    """A language's own name ("Español"), as the switch shows it."""
    return dict(settings.LANGUAGES).get(code) or get_language_info(code)["name_local"]


def switch_choices(current: str) -> list[dict]:
    """The languages a phone can switch to, with the current one marked."""
    return [
        {"code": code, "name": name, "current": code == current}
        for code, name in settings.LANGUAGES
    ]
