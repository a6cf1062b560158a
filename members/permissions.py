"""Who may do what. One place for the role checks every view uses."""

from functools import wraps

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef

from members.models import OFFICERS_GROUP, Seat


def is_officer(user) -> bool:
    """Whether ``user`` is a club officer (a superuser, or in the officers' group). The
    answer is kept on the user object, which lives for one request: the menu of the page
    and the view ask once between them."""
    if not user or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    if not hasattr(user, "_is_officer"):
        user._is_officer = user.groups.filter(name=OFFICERS_GROUP).exists()
    return user._is_officer


def officer_or_seated(user, table) -> tuple[bool, bool]:
    """(is an officer, is seated at ``table``) for the viewer of a table: one query for
    a logged-in user (both answers together, or the seat alone when the officer answer is
    known already), none for a visitor. The officer answer is kept on the user, as
    :func:`is_officer` keeps it, so the page's menu does not ask again."""
    if not user or not user.is_authenticated:
        return False, False
    if user.is_superuser or getattr(user, "_is_officer", False):
        return True, False
    if hasattr(user, "_is_officer"):
        return False, Seat.objects.filter(table=table, person__user=user).exists()
    answers = (
        get_user_model()
        .objects.filter(pk=user.pk)
        .annotate(
            officer=Exists(Group.objects.filter(user=OuterRef("pk"), name=OFFICERS_GROUP)),
            seated=Exists(Seat.objects.filter(table=table, person__user=OuterRef("pk"))),
        )
    )
    officer, seated = answers.values_list("officer", "seated").get()
    user._is_officer = bool(officer)
    return user._is_officer, bool(seated)


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
