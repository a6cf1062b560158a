"""The results cache: the results version, the fingerprints of the data, and the cached
bodies of the results pages.

The results pages keep their drawn bodies in Django's cache (shared by every worker)
under the page's address and a fingerprint of the data (:func:`cached_body`). The pages
of finished games (standings, records) use :func:`results_stamp`, built on the results
version, which goes up only here, through :func:`results_changed`, whenever what those
pages show may have changed (a game finished, a finished game corrected or re-opened, a
person merged, seasons or ranking settings edited), so saving a hand of a game still in
play leaves every cached page valid. A person's own page uses :func:`person_stamp_of`,
which follows that person's stored rows and the changes that reach everyone, so a game
finishing redraws its players' pages only. The day pages, which show games in play too,
use :func:`data_stamp`, which changes with every hand; the room board uses
:func:`day_stamp`, which changes with the hands of its own day only.

Everything here is the active club's (:mod:`members.clubs`): each club has its own
results version, its stamps read its own rows, and every cached body's key carries the
club, so two clubs never share a cached page, even at the same address (two clubs on
host names of their own both have a ``/standings/``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from django.apps import apps
from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Exists, OuterRef, Subquery, Value
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from members.clubs.scope import ScopeError, current_club_id
from members.models import Person
from scoring.models import (
    ClubSettings,
    Game,
    Hand,
    HandConfirmation,
    PersonTotal,
    RatingPoint,
    ResultsVersion,
)

FINISHED = Game.Status.FINISHED

# The time limit of a cached body only bounds memory and changes made behind the
# services' back: the fingerprint is what makes a body stale.
CACHE_SECONDS = 300


def results_changed(every_person: bool = False) -> None:
    """What the results pages show may have changed: the version goes up, so their
    cached bodies are no longer used. Inside a transaction the new number is seen only
    once it commits. ``every_person``: the change reaches every person's own page too
    (seasons, settings, a merge); without it a person's page is drawn
    again only when that person's own stored rows change (:func:`person_stamp_of`)."""
    ResultsVersion.bump(every_person=every_person)


def _newest(queryset, field: str) -> Subquery:
    """The largest ``field`` of ``queryset`` (None when it is empty), as a subquery."""
    return Subquery(queryset.order_by(f"-{field}").values(field)[:1])


def _version(field: str = "number") -> Subquery:
    """The club's results version (``number``), or the one of the changes that reach
    every person's page (``every_person``)."""
    return Subquery(ResultsVersion.objects.values(field)[:1])


def _people_changed() -> Subquery:
    """The last time anyone was renamed, merged or otherwise edited."""
    return _newest(Person.objects.all(), "updated_at")


def _stamp_row(**columns) -> dict:
    """``columns`` (subqueries) read in one query on the club's results version's row,
    which is made first if missing."""
    found = ResultsVersion.objects.values(**columns).first()
    if found is None:
        ResultsVersion.objects.get_or_create()
        return _stamp_row(**columns)
    return found


def data_stamp() -> str:
    """A short fingerprint that changes whenever anything the results pages show may
    have changed: a game started or finished, a hand entered, corrected or undone
    (django-simple-history writes a row for each), ratings rewritten, a person renamed
    or merged. One query of five small lookups. The day pages cache their bodies under it."""
    finished = Game.objects.filter(status=FINISHED).order_by().values("status")
    row = _stamp_row(
        hands=_newest(Hand.history.filter(club_id=current_club_id()), "pk"),
        rated=_newest(RatingPoint.objects.all(), "pk"),
        finished=Subquery(finished.annotate(n=Count("pk")).values("n")),
        games=_newest(Game.objects.all(), "pk"),
        people=_people_changed(),
    )
    return "-".join(str(row[k]) for k in ("hands", "rated", "finished", "games", "people"))


#: The room board's fingerprint in one statement, written out: the board polls every
#: five seconds, and building the same query with the ORM cost more CPU (3.7 ms) than
#: the rest of an unchanged board's poll. The club is in the statement (no scope
#: reaches raw SQL), as it is in every index the statement uses.
DAY_STAMP_SQL = """
SELECT COUNT(*), MAX(g.id), SUM(g.version), SUM(CASE WHEN g.status = %s THEN 1 ELSE 0 END),
       (SELECT MAX(p.updated_at) FROM {person} p WHERE p.club_id = %s),
       (SELECT MAX(e.version) FROM {event} e WHERE e.club_id = %s AND e.day_id = %s)
FROM {game} g WHERE g.club_id = %s AND g.day_id = %s
"""


def _event_table() -> str:
    """The events' table, named through the app registry: the results (which the play
    pages use) do not import the events app."""
    return apps.get_model("tourney", "Event")._meta.db_table


def day_stamp(day_id: int) -> str:
    """A fingerprint of one club day's games, for the room board: it changes when a game
    of that day starts, finishes or has a hand entered, corrected or undone (each bumps
    the game's ``version``), a person is renamed, or the day's event changes (its clock,
    its rounds: each bumps the event's ``version``; the unique index on the event's day
    finds it). A hand at another club day's table
    leaves it alone, so the boards of a busy site are not all drawn again on every save
    anywhere (the club-night benchmark found the boards' redrawing the largest part of the
    servers' time at its limit). One query (:data:`DAY_STAMP_SQL`)."""
    club = current_club_id()
    if club is None:  # as the club's managers refuse outside a club's scope
        raise ScopeError("The room board's fingerprint is read inside a club's scope.")
    sql = DAY_STAMP_SQL.format(
        person=Person._meta.db_table, game=Game._meta.db_table, event=_event_table()
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [FINISHED, club, club, day_id, club, day_id])
        row = cursor.fetchone()
    return "-".join(str(value) for value in row)


def results_stamp() -> str:
    """A fingerprint of what the standings and records pages show, which only reads
    finished games (a person's own page has :func:`person_stamp_of`): it changes when
    a game finishes, a finished game is corrected or re-opened, ratings are rewritten,
    seasons or ranking settings are edited or a person is merged (each bumps
    :class:`ResultsVersion`), or a person is renamed. Hands of games still in play
    leave it alone, so on a busy club day the cached standings stay valid between
    finished games. One query of two lookups."""
    row = _stamp_row(**stamp_columns())
    return _stamp(row["_version"], row["_people"])


@dataclass(frozen=True)
class PageState:
    """What a cached results page needs to know besides its cached parts: the club's
    settings, the :func:`results_stamp`, whether the viewer has a person record ("Find
    my row") and whether any hand anywhere waits for the other team's OK (else the
    "not final yet" note has nothing to look for)."""

    club: ClubSettings
    stamp: str
    has_person: bool
    open_hands: bool


def page_state(user) -> PageState:
    """:class:`PageState` in ONE query (the club's settings row, with the stamp and the
    two questions as subqueries); the settings row is made first if missing."""
    has_person = Value(False)
    if user.is_authenticated:
        has_person = Exists(Person.objects.filter(user_id=user.pk))
    row = ClubSettings.objects.annotate(
        **stamp_columns(),
        _has_person=has_person,
        _open_hands=Exists(HandConfirmation.objects.filter(status__in=HandConfirmation.OPEN)),
    ).first()
    if row is None:
        ClubSettings.load()
        return page_state(user)
    return PageState(
        club=row,
        stamp=stamp_of(row),
        has_person=bool(row._has_person),
        open_hands=bool(row._open_hands),
    )


def cached_body(
    request,
    parts: tuple,
    template: str,
    build: Callable[[], dict],
    *,
    finished_only=True,
    day_id: int | None = None,
    build_with_stamp: bool = False,
) -> SafeString:
    """The HTML of ``template`` rendered with ``build()`` as context, cached under the
    page's address, ``parts`` and the data fingerprint. ``build`` runs only on a miss.

    Pages that show finished games only (standings, records) use
    :func:`results_stamp`, which a hand of a game in play leaves alone; the day pages,
    which show games in play too, use :func:`data_stamp`; a page of one day's games in
    play only (the room board) passes ``day_id`` and uses :func:`day_stamp`.
    ``build_with_stamp``: ``build`` is given the fingerprint (the board reads from it
    whether its day has an event, see :func:`day_has_event`)."""
    if not CACHE_SECONDS and not build_with_stamp:
        return mark_safe(render_to_string(template, build(), request=request))
    if day_id is not None:
        stamp = day_stamp(day_id)
    else:
        stamp = results_stamp() if finished_only else data_stamp()
    if not CACHE_SECONDS:
        return mark_safe(render_to_string(template, build(stamp), request=request))
    key = _key(template, stamp, request, parts)
    html = cache.get(key)
    if html is None:
        context = build(stamp) if build_with_stamp else build()
        html = render_to_string(template, context, request=request)
        cache.set(key, html, CACHE_SECONDS)
    return mark_safe(html)


def day_has_event(stamp: str) -> bool:
    """Whether a :func:`day_stamp` saw an event on its day (its last part is the
    event's version, "None" without one)."""
    return not stamp.endswith("-None")


def _key(name: str, stamp: str, request, parts: tuple) -> str:
    # A page drawn in Spanish is never served to an English reader: the language is
    # part of the key.
    raw = repr(
        (
            current_club_id(),
            name,
            stamp,
            request.get_full_path(),
            translation.get_language(),
            parts,
        )
    )
    return "results:" + hashlib.sha256(raw.encode()).hexdigest()


def cached_parts(request, name: str, stamp: str, parts: tuple, build: Callable[[], tuple]):
    """The drawn parts of a page (a dict of HTML and the little the page around them
    needs), cached under ``name``, the page's address, ``parts`` and ``stamp`` (from
    :func:`page_state`, read with the settings). ``build`` runs only on a miss and
    returns the parts and whether they may be kept (not a form with errors)."""
    if not CACHE_SECONDS:
        return build()[0]
    key = _key(name, stamp, request, parts)
    entry = cache.get(key)
    if entry is None:
        entry, keep = build()
        if keep:
            cache.set(key, entry, CACHE_SECONDS)
    return entry


def stamp_columns() -> dict:
    """The two lookups of :func:`results_stamp` as the annotations ``_version`` and
    ``_people``, for a page that reads its own row with the stamp in one query (see
    :func:`stamp_of`)."""
    return {"_version": _version(), "_people": _people_changed()}


def stamp_of(row) -> str:
    """:func:`results_stamp` from a row read with :func:`stamp_columns`."""
    return _stamp(row._version, row._people)


def _stamp(version, people) -> str:
    return f"r-{version}-{people}"


def person_stamp_columns(person: str = "pk") -> dict:
    """What one person's page shows, as annotations of a query whose ``person`` names
    the person (see :func:`person_stamp_of`):

    - ``_every``: the version of the changes that reach every person's page (seasons,
      settings, merges);
    - ``_people``: the last time anyone was renamed (partners' and opponents' names);
    - ``_record``: the id of the person's all-games row, which the play services
      replace (a new id, never reused) in the transaction that finishes, corrects or
      re-opens any of the person's games, with their season totals;
    - ``_rated``: the id of the person's newest rating point (a game rated after it
      committed; a rating deleted and written again gets a new id)."""
    return {
        "_every": _version("every_person"),
        "_people": _people_changed(),
        "_record": Subquery(PersonTotal.objects.filter(person=OuterRef(person)).values("pk")[:1]),
        "_rated": _newest(RatingPoint.objects.filter(person=OuterRef(person)), "pk"),
    }


def person_stamp_of(row) -> str:
    """The fingerprint of one person's page from a row read with
    :func:`person_stamp_columns`: it changes when anything that page shows may have
    changed, and stays when other people's games finish."""
    return f"p-{row._every}-{row._people}-{row._record}-{row._rated}"
