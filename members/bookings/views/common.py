"""What the bookings views share: the member behind a login, the club's address for
the links in e-mails, a fresh form key."""

from __future__ import annotations

import secrets
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext

from members.permissions import own_person


def root(request) -> str:
    """The site's scheme and host as the reader sees them (links in e-mails)."""
    return request.build_absolute_uri("/").rstrip("/")


def new_key() -> str:
    return secrets.token_urlsafe(24)


def member_required(view):
    """The club's members only: a visitor goes to the login page; a login that is not
    a member of this club (another club's, an officer without a record) gets 403."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        person = own_person(request.user)
        if person is None or not person.is_member:
            raise PermissionDenied(gettext("Only the club's members can book club days."))
        request.person = person
        return view(request, *args, **kwargs)

    return wrapper
