"""Who may do what. One place for the role checks every view uses.

Every answer is about the active club (the request's, :mod:`members.clubs`): an
officer or member of one club is nobody at another. A superuser (the platform
operator) is an officer of every club."""

from functools import wraps

from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext

from members.clubs.scope import current_club_id
from members.models import ClubRole, Person, Seat

OFFICER = ClubRole.Role.OFFICER


def _known(user, name: str):
    """An answer kept on the user object for the active club, or None. The user object
    lives for one request: the menu of the page and the view ask once between them."""
    kept = getattr(user, name, None)
    if isinstance(kept, tuple) and kept[0] == current_club_id():
        return kept
    return None


def _keep(user, name: str, value) -> None:
    setattr(user, name, (current_club_id(), value))


def is_officer(user) -> bool:
    """Whether ``user`` is an officer of the active club (a superuser is one of every
    club); never outside a club."""
    if not user or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    if current_club_id() is None:
        return False
    kept = _known(user, "_is_officer")
    if kept is None:
        # One query for every role of the login here (the treasurer's is kept too).
        roles = set(ClubRole.objects.filter(user=user).values_list("role", flat=True))
        _keep(user, "_is_officer", OFFICER in roles)
        _keep(user, "_is_treasurer", ClubRole.Role.TREASURER in roles)
        kept = _known(user, "_is_officer")
    return kept[1]


def officer_or_seated(user, table) -> tuple[bool, bool]:
    """(is an officer, is seated at ``table``) for the viewer of a table: one query for
    a logged-in user (both answers together, or the seat alone when the officer answer is
    known already), none for a visitor. The officer answer is kept on the user, as
    :func:`is_officer` keeps it, so the page's menu does not ask again."""
    if not user or not user.is_authenticated:
        return False, False
    known = _known(user, "_is_officer")
    if user.is_superuser or (known and known[1]):
        return True, False
    if known is not None:
        return False, Seat.objects.filter(table=table, person__user=user).exists()
    answers = (
        get_user_model()
        .objects.filter(pk=user.pk)
        .annotate(
            officer=Exists(ClubRole.objects.filter(user=OuterRef("pk"), role=OFFICER)),
            treasurer=Exists(
                ClubRole.objects.filter(user=OuterRef("pk"), role=ClubRole.Role.TREASURER)
            ),
            seated=Exists(Seat.objects.filter(table=table, person__user=OuterRef("pk"))),
        )
    )
    officer, treasurer, seated = answers.values_list("officer", "treasurer", "seated").get()
    _keep(user, "_is_officer", bool(officer))
    _keep(user, "_is_treasurer", bool(treasurer))
    return bool(officer), bool(seated)


def person_for(user, people=None):
    """The active club's Person record of a logged-in user, or None (kept on the user
    object for the request). ``people``: the queryset to read it through the first time
    (a page that needs more of the person than its fields, read in the same query)."""
    if not user or not user.is_authenticated or current_club_id() is None:
        return None
    kept = _known(user, "_club_person")
    if kept is None:
        people = Person.objects if people is None else people
        _keep(user, "_club_person", people.filter(user=user).first())
        kept = _known(user, "_club_person")
    return kept[1]


def own_person(user, people=None):
    """The person a login stands for in the active club, following a merge to the record
    kept (None: no record here); ``people`` as for :func:`person_for`."""
    person = person_for(user, people)
    if person is not None and person.is_merged:
        person = person.merged_into
    return person


def belongs_to_club(user) -> bool:
    """Whether a logged-in ``user`` is someone at the active club: an officer, or a
    person on its records (a member, or a guest given a login). A login of other clubs
    only is an outsider here, as a visitor is: it reads no more of this club than a
    visitor may (issue 24: a member of club A is nobody at club B)."""
    if not user or not user.is_authenticated or current_club_id() is None:
        return False
    return is_officer(user) or person_for(user) is not None


def make_officer(user, club=None) -> ClubRole:
    """Make ``user`` an officer of ``club`` (the active club when None)."""
    if club is None:
        role, _ = ClubRole.objects.get_or_create(user=user, role=OFFICER)
    else:
        role, _ = ClubRole.objects.with_scopes_disabled().get_or_create(
            club=club, user=user, role=OFFICER
        )
    return role


def officer_required(view):
    """Outsiders go to the login page; logged-in non-officers get 403."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_officer(request.user):
            raise PermissionDenied(gettext("Only club officers can do this."))
        return view(request, *args, **kwargs)

    return wrapper
