"""The club scope: every query on a club's data runs inside one club.

The scope is django-scopes' (pretix's library): every club-owned model's manager (made
here, and its history's, :mod:`.history`) adds ``club = <the active club>`` to each
query, and refuses (``ScopeError``) any query made outside a club: a forgotten filter
cannot show one club another's rows. The managers are the project's own, built on two
private parts of django-scopes 2.1.0 (its ``DisabledQuerySet`` and the ``_enabled`` key
of ``get_scope()``), since its public ``ScopedManager`` cannot refuse a model's named
filters with ``ScopeError`` nor show a club its own rows and the shared ones;
docs/development.md ("Scoping") says so, and ``clubsite/tests/test_club_scope.py``
pins the behaviour an upgrade must keep. A request
enters its club's scope in ``members.clubs.middleware``; a management command, a test
or a migration enters one with :func:`in_club` (or, for site-wide work such as the
admin, ``scopes_disabled()``).

A club-owned row is made in the active club: its ``club`` field's default is
:func:`current_club_id` (so services and factories need not name it), and outside a
scope that default is empty, which the database refuses.

docs/development.md ("Clubs") says how the pieces fit.
"""

from __future__ import annotations

from django import forms
from django.apps import apps
from django.db import models
from django.db.models import Q
from django.urls import get_script_prefix, reverse, set_script_prefix
from django_scopes import ScopeError, get_scope, scope, scopes_disabled
from django_scopes.manager import DisabledQuerySet

__all__ = [
    "ScopeError",
    "club_manager",
    "current_club",
    "current_club_id",
    "in_club",
    "scopes_disabled",
    "shared_manager",
]

#: The scope's one dimension.
DIMENSION = "club"


def in_club(club):
    """Enter ``club``'s scope (a context manager): queries of club data see its rows."""
    return scope(**{DIMENSION: club})


def _scoped_club():
    found = get_scope()
    if not found.get("_enabled", True):
        return None
    return found.get(DIMENSION)


def current_club_id() -> int | None:
    """The active club's id, or None outside a club's scope. The default of every
    club-owned row's ``club`` field."""
    club = _scoped_club()
    if isinstance(club, list | tuple):
        return None
    return getattr(club, "pk", club)


def current_club():
    """The active club (a ``Club``); ``ScopeError`` outside a club's scope."""
    club = _scoped_club()
    if club is None or isinstance(club, list | tuple):
        raise ScopeError("This needs a club: run it inside in_club(club).")
    if not isinstance(club, models.Model):
        # By name: the club's models module imports this one (its managers).
        with scopes_disabled():
            club = apps.get_model("members", "Club").objects.get(pk=club)
    return club


def refusing(queryset_class):
    """django-scopes' refusing queryset, with the model's own named filters (which
    refuse too, as they filter)."""
    if queryset_class is models.QuerySet:
        return DisabledQuerySet
    return type(f"Disabled{queryset_class.__name__}", (DisabledQuerySet, queryset_class), {})


def scoped(queryset, restrict, disabled):
    """``queryset`` as the active scope allows: ``restrict(queryset, club)`` inside a
    club's scope, all of it with scopes disabled, and a ``disabled`` one (refusing with
    ``ScopeError``) outside any scope. The one place the managers read the scope."""
    found = get_scope()
    if not found.get("_enabled", True):
        return queryset
    if DIMENSION not in found:
        return disabled(queryset.model, using=queryset.db, missing_scopes={DIMENSION})
    club = found[DIMENSION]
    if club is None:  # scope(club=None): every club, as django-scopes has it
        return queryset
    return restrict(queryset, club)


class ClubScoped:
    """Marks a manager whose queries are club-scoped (``clubsite/tests/test_club_scope.py``
    checks that every model with a ``club`` field has one)."""


def _scoped_manager(queryset_class, restrict):
    """A manager whose queries are ``restrict(queryset, club)`` inside a club's scope,
    everything with scopes disabled, and refused outside a scope (what django-scopes'
    ``ScopedManager`` does, taught the model's own queryset methods and shared rows;
    docs/development.md says why it is not ``ScopedManager`` itself)."""
    disabled = refusing(queryset_class)

    class ClubScopedManager(ClubScoped, models.Manager.from_queryset(queryset_class)):
        def get_queryset(self):
            return scoped(super().get_queryset(), restrict, disabled)

        def with_scopes_disabled(self):
            """This manager's queries over every club (the admin, site-wide pages)."""
            return queryset_class(model=self.model, using=self._db)

    return ClubScopedManager()


def _in_list(club) -> bool:
    return isinstance(club, list | tuple)


def club_rows(path: str = "club"):
    """The filter of a club's own rows: ``restrict(queryset, club)``."""

    def restrict(queryset, club):
        return queryset.filter(**{f"{path}__in" if _in_list(club) else path: club})

    return restrict


def own_or_shared_rows(queryset, club):
    """The filter of a club's own rows and the shared ones (``club`` empty)."""
    own = Q(club__in=club) if _in_list(club) else Q(club=club)
    return queryset.filter(own | Q(club__isnull=True))


def club_manager(queryset_class=models.QuerySet, path: str = "club"):
    """The manager of a club-owned model: its queries see the active club's rows only,
    and fail outside a club (``ScopeError``). ``path``: how a row reaches its club."""
    return _scoped_manager(queryset_class, club_rows(path))


def shared_manager(queryset_class=models.QuerySet):
    """The manager of a model whose rows are a club's own or shared by every club
    (``club`` empty: the shipped rule-set presets): a club sees its own and the shared
    ones, never another club's. Fails outside a club, as :func:`club_manager` does."""
    return _scoped_manager(queryset_class, own_or_shared_rows)


class ClubChoiceField(forms.ModelChoiceField):
    """A choice among the active club's rows. ``rows`` (a function giving a queryset)
    is asked each time a form is made, inside the request's club: a queryset made when
    the form class is defined would be outside any club."""

    def __init__(self, rows, **kwargs):
        self.rows = rows
        super().__init__(queryset=None, **kwargs)

    def __deepcopy__(self, memo):
        result = super().__deepcopy__(memo)
        result.queryset = self.rows()
        return result


def club_path(request, club, name: str, *args, **kwargs) -> str:
    """The address of page ``name`` of ``club`` (another club than the request's, e.g.
    where a room code typed anywhere leads): always ``/<slug>/…``, which works on every
    host of the site."""
    base = getattr(request, "site_prefix", None) or get_script_prefix()
    current = get_script_prefix()
    set_script_prefix(f"{base}{club.slug}/")
    try:
        return reverse(name, args=args, kwargs=kwargs)
    finally:
        set_script_prefix(current)


def club_home(request, club) -> str:
    """Where a club's pages start, seen from ``request``: ``/`` for the club this
    request is already at the root of, else ``/<slug>/``."""
    here = getattr(request, "club", None)
    if here is not None and here.pk == club.pk:
        return reverse("home")
    return club_path(request, club, "home")
