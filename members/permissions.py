"""Who may do what. One place for the role checks every view uses."""

from functools import wraps

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef

from members.models import OFFICERS_GROUP, Seat


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


def officer_or_seated(user, table) -> tuple[bool, bool]:
    """(is an officer, is seated at ``table``) for the viewer of a table: one query for
    a logged-in user (the seat alone when the officer check is known already), none for
    a visitor. The officer answer is kept on the user, as :func:`is_officer` keeps it,
    so the page's menu does not ask again."""
    if not user or not user.is_authenticated:
        return False, False
    known = True if user.is_superuser else getattr(user, "_is_officer", None)
    if known:
        return True, False
    if known is False:
        return False, Seat.objects.filter(table=table, person__user=user).exists()
    seats = Seat.objects.filter(table=table, person__user=OuterRef("pk"))
    groups = Group.objects.filter(user=OuterRef("pk"), name=OFFICERS_GROUP)
    officer, seated = (
        get_user_model()
        .objects.filter(pk=user.pk)
        .annotate(officer=Exists(groups), seated=Exists(seats))
        .values_list("officer", "seated")
        .get()
    )
    user._is_officer = bool(officer)
    return bool(officer), bool(seated)


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
