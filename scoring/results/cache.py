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
use :func:`data_stamp`, which changes with every hand.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from django.core.cache import cache
from django.db import connection
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

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


def data_stamp() -> str:
    """A short fingerprint that changes whenever anything the results pages show may
    have changed: a game started or finished, a hand entered, corrected or undone
    (django-simple-history writes a row for each), ratings rewritten, a person renamed
    or merged. One query of five small lookups. The day pages cache their bodies under it."""
    q = connection.ops.quote_name
    history = Hand.history.model._meta
    sql = (
        f"SELECT (SELECT MAX({q(history.pk.column)}) FROM {q(history.db_table)}), "
        f"(SELECT MAX({q('id')}) FROM {q(RatingPoint._meta.db_table)}), "
        f"(SELECT COUNT(*) FROM {q(Game._meta.db_table)} WHERE {q('status')} = %s), "
        f"(SELECT MAX({q('id')}) FROM {q(Game._meta.db_table)}), "
        f"(SELECT MAX({q('updated_at')}) FROM {q(Person._meta.db_table)})"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [FINISHED])
        row = cursor.fetchone()
    return "-".join(str(v) for v in row)


def _version_sql(column: str = "number") -> str:
    """The results version (``number``), or the one of the changes that reach every
    person's page (``every_person``), as a sub-select."""
    q = connection.ops.quote_name
    return f"SELECT {q(column)} FROM {q(ResultsVersion._meta.db_table)} WHERE {q('id')} = 1"


def _people_sql() -> str:
    q = connection.ops.quote_name
    return f"SELECT MAX({q('updated_at')}) FROM {q(Person._meta.db_table)}"


def results_stamp() -> str:
    """A fingerprint of what the standings and records pages show, which only reads
    finished games (a person's own page has :func:`person_stamp_of`): it changes when
    a game finishes, a finished game is corrected or re-opened, ratings are rewritten,
    seasons or ranking settings are edited or a person is merged (each bumps
    :class:`ResultsVersion`), or a person is renamed. Hands of games still in play
    leave it alone, so on a busy club day the cached standings stay valid between
    finished games. One query of two lookups."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {stamp_columns()}")
        return _stamp(*cursor.fetchone())


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


@functools.cache
def _page_state_sql(vendor: str) -> str:
    """The SQL of :func:`page_state` (written once per process and database)."""
    q = connection.ops.quote_name
    club = ClubSettings._meta
    columns = ", ".join(f"{q(club.db_table)}.{q(f.column)}" for f in club.concrete_fields)
    people = q(Person._meta.db_table)
    hands = q(HandConfirmation._meta.db_table)
    open_statuses = ", ".join(["%s"] * len(HandConfirmation.OPEN))
    return (
        f"SELECT {columns}, {stamp_columns()}, "
        f"EXISTS(SELECT 1 FROM {people} WHERE {q('user_id')} = %s) AS _has_person, "
        f"EXISTS(SELECT 1 FROM {hands} WHERE {q('status')} IN ({open_statuses})) AS _open_hands "
        f"FROM {q(club.db_table)} WHERE {q('id')} = 1"
    )


def page_state(user) -> PageState:
    """:class:`PageState` in ONE query (the settings row, with the stamp and the two
    questions as sub-selects; a raw query, as compiling it through the ORM cost more
    than running it); the settings row is made first if missing."""
    params = [user.pk if user.is_authenticated else None, *HandConfirmation.OPEN]
    found = list(ClubSettings.objects.raw(_page_state_sql(connection.vendor), params))
    if not found:
        ClubSettings.load()
        return page_state(user)
    row = found[0]
    return PageState(
        club=row,
        stamp=stamp_of(row),
        has_person=bool(row._has_person),
        open_hands=bool(row._open_hands),
    )


def cached_body(
    request, parts: tuple, template: str, build: Callable[[], dict], *, finished_only=True
) -> SafeString:
    """The HTML of ``template`` rendered with ``build()`` as context, cached under the
    page's address, ``parts`` and the data fingerprint. ``build`` runs only on a miss.

    Pages that show finished games only (standings, records) use
    :func:`results_stamp`, which a hand of a game in play leaves alone; the day pages,
    which show games in play too, use :func:`data_stamp`."""
    if not CACHE_SECONDS:
        return mark_safe(render_to_string(template, build(), request=request))
    stamp = results_stamp() if finished_only else data_stamp()
    key = _key(template, stamp, request, parts)
    html = cache.get(key)
    if html is None:
        html = render_to_string(template, build(), request=request)
        cache.set(key, html, CACHE_SECONDS)
    return mark_safe(html)


def _key(name: str, stamp: str, request, parts: tuple) -> str:
    raw = repr((name, stamp, request.get_full_path(), parts))
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


# Fragments kept in this process's memory (see kept_fragment): the last ones drawn.
FRAGMENTS_KEPT = 256
_fragments: OrderedDict[str, str] = OrderedDict()
_fragments_lock = threading.Lock()


def kept_fragment(request, name: str, parts: tuple, draw: Callable[[], str]) -> SafeString:
    """HTML drawn by ``draw()`` that depends only on the page's address and ``parts``,
    which must name everything else it shows (so it can never be stale): kept in this
    process's memory, the last :data:`FRAGMENTS_KEPT` of them, so a finished game does
    not draw it again, and reading it costs no query."""
    key = _key(name, "", request, parts)
    with _fragments_lock:
        html = _fragments.get(key)
        if html is not None:
            _fragments.move_to_end(key)
            return mark_safe(html)
    html = draw()
    with _fragments_lock:
        _fragments[key] = html
        while len(_fragments) > FRAGMENTS_KEPT:
            _fragments.popitem(last=False)
    return mark_safe(html)


def stamp_columns() -> str:
    """The two lookups of :func:`results_stamp` as the columns ``_version`` and
    ``_people``, for a page that reads its own row with the stamp in one query (see
    :func:`stamp_of`)."""
    return f"({_version_sql()}) AS _version, ({_people_sql()}) AS _people"


def stamp_of(row) -> str:
    """:func:`results_stamp` from a row read with :func:`stamp_columns`."""
    return _stamp(row._version, row._people)


def _stamp(version, people) -> str:
    return f"r-{version}-{people}"


def person_stamp_columns(person_id_column: str) -> str:
    """What one person's page shows, as columns of a query on ``Person`` (whose id is
    ``person_id_column``; see :func:`person_stamp_of`):

    - ``_every``: the version of the changes that reach every person's page (seasons,
      settings, merges);
    - ``_people``: the last time anyone was renamed (partners' and opponents' names);
    - ``_record``: the id of the person's all-games row, which the play services
      replace (a new id, never reused) in the transaction that finishes, corrects or
      re-opens any of the person's games, with their season totals;
    - ``_rated``: the id of the person's newest rating point (a game rated after it
      committed; a rating deleted and written again gets a new id)."""
    q = connection.ops.quote_name
    record = PersonTotal._meta
    rating = RatingPoint._meta
    return (
        f"({_version_sql('every_person')}) AS _every, "
        f"({_people_sql()}) AS _people, "
        f"(SELECT {q(record.pk.column)} FROM {q(record.db_table)} "
        f"WHERE {q('person_id')} = {person_id_column}) AS _record, "
        f"(SELECT MAX({q(rating.pk.column)}) FROM {q(rating.db_table)} "
        f"WHERE {q('person_id')} = {person_id_column}) AS _rated"
    )


def person_stamp_of(row) -> str:
    """The fingerprint of one person's page from a row read with
    :func:`person_stamp_columns`: it changes when anything that page shows may have
    changed, and stays when other people's games finish."""
    return f"p-{row._every}-{row._people}-{row._record}-{row._rated}"
