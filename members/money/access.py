"""Who may see and record money: a club's treasurers and officers (a superuser is an
officer of every club). A member sees only their own account."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext

from members.models import ClubRole
from members.permissions import _keep, _known, is_officer

TREASURER = ClubRole.Role.TREASURER


def is_treasurer(user) -> bool:
    """Whether ``user`` may see and record the active club's money: a treasurer or an
    officer of it."""
    if is_officer(user):
        return True
    if not user or not user.is_authenticated:
        return False
    kept = _known(user, "_is_treasurer")
    if kept is None:
        _keep(user, "_is_treasurer", ClubRole.objects.filter(user=user, role=TREASURER).exists())
        kept = _known(user, "_is_treasurer")
    return kept[1]


def make_treasurer(user) -> ClubRole:
    """Make ``user`` a treasurer of the active club."""
    role, _ = ClubRole.objects.get_or_create(user=user, role=TREASURER)
    return role


def treasurer_required(view):
    """Outsiders go to the login page; logged-in people who are neither treasurer nor
    officer get 403."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_treasurer(request.user):
            raise PermissionDenied(gettext("Only the club's treasurer and officers can do this."))
        return view(request, *args, **kwargs)

    return wrapper


def set_treasurer(person, on: bool) -> bool:
    """Give ``person``'s login the treasurer role of the active club, or take it away.
    Pressing twice changes nothing more. Returns whether the login is treasurer now."""
    from members.money.services.errors import MoneyRefused

    if person.user_id is None:
        raise MoneyRefused(
            gettext("%(name)s has no login yet; make one on their page first.")
            % {"name": person.full_name}
        )
    roles = ClubRole.objects.filter(user_id=person.user_id, role=TREASURER)
    if on:
        make_treasurer(person.user)
    else:
        roles.delete()
    return on
