"""A player's page (``/players/<id>/``): their totals, games, partners, opponents,
charts and bests, for logged-in people only, and its CSV downloads."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import BooleanField, ExpressionWrapper, Q, Value
from django.http import Http404
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from members.models import Person
from members.permissions import belongs_to_club
from scoring.results import charts, ratings
from scoring.results.cache import cached_parts, person_stamp_columns, person_stamp_of
from scoring.results.standings import player as games_of
from scoring.results.standings.periods import current_season
from scoring.results.tables.player import OpponentsTable, PartnersTable, PlayerGamesTable
from scoring.results.views.common import csv_download, paginate, wants_csv

PERSON_FIELDS = (
    "pk",
    "first_name",
    "last_name",
    "kind",
    "membership_number",
    "merged_into",
    "joined",
)


# The page and its CSV downloads build these the same way (their prefix picks their
# sort parameter).
def _partners_table(person):
    return PartnersTable(games_of.partners(person), prefix="p-")


def _opponents_table(person):
    return OpponentsTable(games_of.opponents(person), prefix="o-")


def _games_table(person):
    return PlayerGamesTable(games_of.player_games(person))


def _csv(request, person):
    which = request.GET.get("table")
    if which == "partners":
        table = _partners_table(person)
    elif which == "opponents":
        table = _opponents_table(person)
    else:
        table = _games_table(person)
    stem = which if which in ("partners", "opponents") else "games"
    return csv_download(request, table, f"{stem}-{person.pk}.csv")


def _charts(person, scores, ratings_seen) -> dict:
    return {
        "score_chart": charts.line_chart(
            scores,
            title=_("Game scores of %(name)s") % {"name": person.full_name},
            y_label=_("Game score"),
            noun="game",
        ),
        "rating_chart": charts.line_chart(
            [(day, ratings.display_rating(o)) for day, o in ratings_seen],
            title=_("Rating of %(name)s after each game") % {"name": person.full_name},
            y_label=_("Rating"),
            noun="rated game",
            start=(_("Start"), ratings.NEW_PLAYER_RATING),
            reference=ratings.NEW_PLAYER_RATING,
        ),
    }


def _with_urls(bests: dict) -> dict:
    """Each best of a game or a hand with the address of its day's results (``url``)."""
    for name in ("best_game", "best_hand", "most_canastas", "most_red_threes"):
        if bests.get(name):
            bests[name]["url"] = reverse("scoring:day_result", args=[bests[name]["game"].day_id])
    return bests


def _season_totals(record, season, ratings_seen):
    """The person's stored totals of ``season`` (None: no finished game in it)."""
    if record is None or record.season_stats is None:
        return None
    return games_of.totals_row(record.season_stats, games_of.rating_on(ratings_seen, season.end))


def _body(request, person, is_me: bool) -> dict:
    """Everything the cached part of the page shows: the totals and bests from the
    stored rows, the ratings read once for the charts and the totals, the three
    tables."""
    season = current_season()
    record = games_of.stored_record(person, season)
    ratings_seen = games_of.rating_series(person)
    totals = record and games_of.totals_row(record.stats(), games_of.rating_on(ratings_seen, None))
    tables = {
        "history": paginate(request, _games_table(person)),
        "partners": paginate(request, _partners_table(person)),
        "opponents": paginate(request, _opponents_table(person)),
    }
    return {
        "person": person,
        "is_me": is_me,
        "totals": totals,
        "season": season,
        "season_totals": _season_totals(record, season, ratings_seen),
        **tables,
        "bests": _with_urls(games_of.bests_of(record, ratings_seen)),
        **_charts(person, games_of.score_series(person), ratings_seen),
        "rating_sentence": _(ratings.SENTENCE),
        "rating_how": _(ratings.HOW),
    }


BODY = "results/_player_body.html"


def page_person(pk: int, user) -> Person:
    """The page's person with ``_is_me`` (the viewer's own page) and the parts of
    their page's stamp (:func:`~scoring.results.cache.person_stamp_of`): one query; 404
    when there is none."""
    is_me = Value(False)
    if user.pk is not None:
        is_me = ExpressionWrapper(Q(user_id=user.pk), output_field=BooleanField())
    found = (
        Person.objects.filter(pk=pk)
        .only(*PERSON_FIELDS)
        .annotate(_is_me=is_me, **person_stamp_columns("pk"))
        .first()
    )
    if found is None:
        raise Http404(_("No such person."))
    return found


def _draw(request, person, is_me: bool) -> tuple[str, bool]:
    return render_to_string(BODY, _body(request, person, is_me), request=request), True


@login_required
def player_view(request, pk):
    if not belongs_to_club(request.user):  # a login of another club only
        raise PermissionDenied(_("Only the club's members can see its players' pages."))
    person = page_person(pk, request.user)
    if person.merged_into_id:
        return redirect("scoring:player", pk=person.merged_into_id)
    if wants_csv(request):
        return _csv(request, person)
    is_me = bool(person._is_me)
    # The current season (its totals are on the page) depends on today's date.
    parts = (person.pk, is_me, timezone.localdate())
    html = cached_parts(
        request, BODY, person_stamp_of(person), parts, lambda: _draw(request, person, is_me)
    )
    context = {"person": person, "is_me": is_me, "body": mark_safe(html)}
    return render(request, "results/player.html", context)
