"""Who may do what. One place for the role checks every view uses."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from members.models import OFFICERS_GROUP


def is_officer(user) -> bool:
    if not user or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    cached = getattr(user, "_is_officer", None)
    if cached is None:
        cached = user.groups.filter(name=OFFICERS_GROUP).exists()
        user._is_officer = cached
    return cached


def person_for(user):
    """The Person record of a logged-in user, or None."""
    if not user or not user.is_authenticated:
        return None
    return getattr(user, "person", None)


def officer_required(view):
    """Outsiders go to the login page; logged-in non-officers get 403."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_officer(request.user):
            raise PermissionDenied("Only club officers can do this.")
        return view(request, *args, **kwargs)

    return wrapper
