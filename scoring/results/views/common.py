"""What the results pages share: who may see them, pagination and CSV downloads."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django_tables2 import RequestConfig

from scoring.models import ClubSettings
from scoring.results.cache import page_state
from scoring.results.tables.base import csv_response

CSV = "csv"


def results_page(view):
    """Logged-in users always; visitors only when public standings are switched on
    (otherwise they are sent to the login page). Passes the club settings on."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        club = ClubSettings.load()
        if not request.user.is_authenticated and not club.public_standings:
            return redirect_to_login(request.get_full_path())
        return view(request, club, *args, **kwargs)

    return wrapper


def stated_results_page(view):
    """As :func:`results_page`, passing the page's
    :class:`~scoring.results.cache.PageState` (the settings, the results stamp and what
    the page asks about the viewer, in one query) instead of the settings alone."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        state = page_state(request.user)
        if not request.user.is_authenticated and not state.club.public_standings:
            return redirect_to_login(request.get_full_path())
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
