"""Which language a page is drawn in, and which paper the club prints on: decided here
and nowhere else.

The order (:func:`language_for`): a member's own choice (their page, stored on their
Person record) > the phone's remembered choice (the one-tap switch on the table page,
a cookie) > the club's language (:func:`club_language`). The middleware
``clubsite.middleware.language`` activates it for every request.

The club's language is the ``CLUB_LANGUAGE`` setting for now; when the club becomes a
row of its own, :func:`club_language` reads it from there and nothing else changes.
A member's choice is read from their Person record once per login session and kept in
the session (no query per page); saving a new choice updates both.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import get_language_info

#: The session key that keeps a logged-in member's own choice: [user pk, code or ""].
MEMBER_KEY = "member_language"

#: Paper sizes: what CSS's ``@page { size }`` and the workbook's print setup call them.
A4 = "A4"
LETTER = "Letter"
_PAPER_BY_LANGUAGE = {"en": LETTER, "es": A4, "pt-br": A4}


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
    """The club's language: what tables, the board and anyone who has not chosen read."""
    return valid(settings.CLUB_LANGUAGE) or settings.LANGUAGE_CODE


def paper_size(request=None) -> str:
    """``"A4"`` or ``"Letter"``: the ``CLUB_PAPER`` setting, else the club's language's
    usual paper (Letter in English, for a club in the United States; A4 elsewhere)."""
    chosen = (settings.CLUB_PAPER or "").strip().lower()
    if chosen == "a4":
        return A4
    if chosen == "letter":
        return LETTER
    return _PAPER_BY_LANGUAGE.get(club_language(request), A4)


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
    kept = session.get(MEMBER_KEY) if session is not None else None
    if isinstance(kept, list) and len(kept) == 2 and kept[0] == user.pk:
        return valid(kept[1])
    person = getattr(user, "person", None)
    code = valid(getattr(person, "language", "")) or ""
    if session is not None:
        session[MEMBER_KEY] = [user.pk, code]
    return code or None


def remember_at_login(sender, request, user, **kwargs) -> None:
    """At login (``user_logged_in``): keep the member's own choice in the new session, so
    no page reads it again."""
    if request is None or getattr(request, "session", None) is None:
        return
    person = getattr(user, "person", None)
    request.session[MEMBER_KEY] = [user.pk, valid(getattr(person, "language", "")) or ""]


def remember_member_language(request, code: str) -> None:
    """Keep a member's new choice in their session (after saving it on their record)."""
    if request.user.is_authenticated:
        request.session[MEMBER_KEY] = [request.user.pk, valid(code) or ""]


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
