"""The club scope: every query on a club's data runs inside one club.

django-scopes (pretix's library) gives every club-owned model a manager that adds
``club = <the active club>`` to each query, and refuses (``ScopeError``) any query made
outside a club: a forgotten filter cannot show one club another's rows. A request
enters its club's scope in ``clubsite.clubs.middleware``; a management command, a test
or a migration enters one with :func:`in_club` (or, for site-wide work such as the
admin, ``scopes_disabled()``).

A club-owned row is made in the active club: its ``club`` field's default is
:func:`current_club_id` (so services and factories need not name it), and outside a
scope that default is empty, which the database refuses.

docs/development.md ("Clubs") says how the pieces fit.
"""

from __future__ import annotations

from django import forms
from django.core.management.base import BaseCommand
from django.db import models
from django.db.models import Q
from django.urls import get_script_prefix, reverse, set_script_prefix
from django.utils import timezone, translation
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
        from members.models import Club

        with scopes_disabled():
            club = Club.objects.get(pk=club)
    return club


def _disabled(queryset_class):
    """django-scopes' refusing queryset, with the model's own named filters (which
    refuse too, as they filter)."""
    if queryset_class is models.QuerySet:
        return DisabledQuerySet
    return type(f"Disabled{queryset_class.__name__}", (DisabledQuerySet, queryset_class), {})


def _scoped_manager(queryset_class, restrict):
    """A manager whose queries are ``restrict(queryset, club)`` inside a club's scope,
    everything with scopes disabled, and refused outside a scope (django-scopes'
    ``ScopedManager``, taught the model's own queryset methods and shared rows)."""
    disabled = _disabled(queryset_class)

    class ClubScopedManager(models.Manager.from_queryset(queryset_class)):
        def get_queryset(self):
            queryset = super().get_queryset()
            found = get_scope()
            if not found.get("_enabled", True):
                return queryset
            if DIMENSION not in found:
                return disabled(self.model, using=self._db, missing_scopes={DIMENSION})
            club = found[DIMENSION]
            if club is None:  # scope(club=None): every club, as django-scopes has it
                return queryset
            return restrict(queryset, club)

        def with_scopes_disabled(self):
            """This manager's queries over every club (the admin, site-wide pages)."""
            return queryset_class(model=self.model, using=self._db)

    return ClubScopedManager()


def _in_list(club) -> bool:
    return isinstance(club, list | tuple)


def club_manager(queryset_class=models.QuerySet, path: str = "club"):
    """The manager of a club-owned model: its queries see the active club's rows only,
    and fail outside a club (``ScopeError``). ``path``: how a row reaches its club."""

    def restrict(queryset, club):
        return queryset.filter(**{f"{path}__in" if _in_list(club) else path: club})

    return _scoped_manager(queryset_class, restrict)


def shared_manager(queryset_class=models.QuerySet):
    """The manager of a model whose rows are a club's own or shared by every club
    (``club`` empty: the shipped rule-set presets): a club sees its own and the shared
    ones, never another club's. Fails outside a club, as :func:`club_manager` does."""

    def restrict(queryset, club):
        own = Q(club__in=club) if _in_list(club) else Q(club=club)
        return queryset.filter(own | Q(club__isnull=True))

    return _scoped_manager(queryset_class, restrict)


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


def command_club(slug: str | None = None):
    """The club a management command works on: ``--club SLUG``, or the site's only
    club (a ``CommandError`` naming the clubs when there are several)."""
    from django.core.management.base import CommandError
    from django.db import DatabaseError

    from members.models import Club

    try:
        if slug:
            found = Club.objects.filter(slug=slug).first()
            if found is None:
                raise CommandError(f"No club has the slug {slug!r}.")
            return found
        clubs = list(Club.objects.order_by("slug")[:21])
    except DatabaseError:
        raise CommandError(
            "The site's database is not set up (or not up to date): run `manage.py migrate` first."
        ) from None
    if len(clubs) == 1:
        return clubs[0]
    if not clubs:
        raise CommandError("The site has no club yet: run `manage.py migrate` first.")
    names = ", ".join(c.slug for c in clubs[:20])
    raise CommandError(f"The site has several clubs; say which with --club ({names}).")


class ClubCommand(BaseCommand):
    """A management command on one club's data: ``--club SLUG`` (optional while the
    site has only one club). It runs inside that club's scope and time zone, as a
    request of the club would."""

    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.add_argument(
            "--club", help="The club's slug (needed when the site has more than one club)."
        )
        return parser

    def execute(self, *args, **options):
        from clubsite.languages import club_language

        club = command_club(options.get("club"))
        # What an officer reads (and writes into files) is in the club's language (read
        # once the club's scope is entered).
        with (
            in_club(club),
            timezone.override(club.time_zone),
            translation.override(club_language()),
        ):
            return super().execute(*args, **options)
