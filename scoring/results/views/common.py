"""What the results pages share: who may see them, pagination and CSV downloads."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext
from django_tables2 import RequestConfig

from members.permissions import belongs_to_club, is_officer
from scoring.models import ClubSettings
from scoring.results.cache import page_state
from scoring.results.tables.base import csv_response

CSV = "csv"


def _outsider(request, public: bool, in_club: bool):
    """The answer to someone who is not of the club when the results are not public:
    a visitor goes to the login page; a login of another club only is refused (the
    same login page would only send them back). None when they may read on."""
    request.in_club = in_club  # the views link players' pages for the club's own only
    if in_club or public:
        return None
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied(gettext("Only the club's members can see its results."))


def results_page(view):
    """The club's own people (officers, and members and guests with a login) always;
    visitors, and logins of other clubs only, when public standings are switched on
    (otherwise a visitor is sent to the login page, another club's login refused).
    Passes the club settings on; ``request.in_club`` says whether the viewer is the
    club's own."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        club = ClubSettings.load()
        refusal = _outsider(request, club.public_standings, belongs_to_club(request.user))
        if refusal is not None:
            return refusal
        return view(request, club, *args, **kwargs)

    return wrapper


def stated_results_page(view):
    """As :func:`results_page`, passing the page's
    :class:`~scoring.results.cache.PageState` (the settings, the results stamp and what
    the page asks about the viewer, in one query) instead of the settings alone."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        state = page_state(request.user)
        in_club = request.user.is_authenticated and (state.has_person or is_officer(request.user))
        refusal = _outsider(request, state.club.public_standings, in_club)
        if refusal is not None:
            return refusal
        return view(request, state, *args, **kwargs)

    return wrapper


def wants_csv(request) -> bool:
    return request.GET.get("_export") == CSV


def paginate(request, table):
    RequestConfig(request, paginate=True).configure(table)
    return table


def csv_download(request, table, filename: str):
    """Every row of ``table`` as a CSV download, sorted as the page shows it (the
    table's own prefix picks its ``sort`` parameter)."""
    RequestConfig(request, paginate=False).configure(table)
    return csv_response(table, filename)
