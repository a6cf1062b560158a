"""Ratings with OpenSkill (Plackett–Luce, team-aware).

Each person has a skill estimate ``mu`` and an uncertainty ``sigma`` (everyone starts at
25 and 25/3). After every finished game the teams are ranked — the winner first, the
others by their final totals — and OpenSkill updates every player's estimate: partners
share their team's result, a surprising result moves ratings more. The stored number is
the cautious ``ordinal`` = mu − 3σ (0 for a newcomer), shown to people on a friendly
scale by :func:`display_rating` (1,000 for a newcomer), stored as one `RatingPoint` per
person per game, so charts and "rating at the end of a season" are plain reads.

`scoring.play.services` calls :func:`game_finished` when a game ends and :func:`game_changed`
when a finished game's hands are corrected or undone (both on commit). Ratings depend
on the order of games — (day date, finished time, id) — so anything that is not simply
"the newest game" replays every game from that date on (:func:`replay_from`); the
``rebuild_ratings`` management command replays everything (:func:`rebuild`).
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable, Iterator

from django.db import connection, transaction
from django.db.models import F, OuterRef, Q, Subquery
from django.utils.translation import gettext_noop

from members.models import Person
from scoring.models import Game, RatingPoint, TeamPlayer
from scoring.results.cache import results_changed
from scoring.results.standings.ranking import positions

log = logging.getLogger(__name__)

MU = 25.0
SIGMA = 25.0 / 3.0
BATCH = 2000

# The rating people see: a new player shows 1,000, and one point of the openskill
# ordinal (mu − 3σ) is 20 points of it, so a game moves it by about 10 to 50.
NEW_PLAYER_RATING = 1000
POINTS_PER_ORDINAL = 20

SENTENCE = gettext_noop(
    "The rating shows how strongly someone plays compared with the rest of the club: "
    "everyone starts at 1,000, a win raises it and a loss lowers it, and beating stronger "
    "pairs raises it more (losing to weaker ones lowers it more)."
)
#: The rest of "About the rating" for members, in plain words (how it is worked out,
#: with OpenSkill's mu and sigma, is in docs/officers.md).
HOW = gettext_noop(
    "Partners share the result of their side. The first games move a rating the most; "
    "the more games someone plays, the steadier it becomes. The rating of a new player "
    "is held low while the club knows little of their play, so after the first games it "
    "can go up even after a loss: the site is surer of them."
)


def display_rating(ordinal: float | None) -> int | None:
    """The rating shown on every page and in the workbook: 1,000 for a new player, 20 per
    point of the openskill ordinal (mu − 3σ), never below 0; None stays None (no rated
    game yet). Ranking still uses the stored ordinal: the mapping keeps the order."""
    if ordinal is None:
        return None
    return max(0, round(NEW_PLAYER_RATING + POINTS_PER_ORDINAL * ordinal))


def as_shown(ordinal: float | None) -> float | None:
    """The ordinal rounded to the step the rating is shown in (one point of
    :func:`display_rating`), so that a page rounding it again shows the same number as
    every other page, and standings tie exactly the ratings people see as equal.
    (Rounding it to 0.1 first, as before, showed 1,048 where the games showed 1,049.)"""
    if ordinal is None:
        return None
    return round(ordinal * POINTS_PER_ORDINAL) / POINTS_PER_ORDINAL


def model():
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA)


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def team_ranks(teams: list[tuple[bool, int]]) -> list[int]:
    """Ranks (1 = best) of a game's teams from (won, total): the winner first, the
    others by total, equal totals sharing a rank. With no winner recorded, by total."""
    order = sorted(range(len(teams)), key=lambda i: (not teams[i][0], -teams[i][1]))
    ranks = [0] * len(teams)
    keys = [(teams[i][0], teams[i][1]) for i in order]
    for i, position in zip(order, positions(keys), strict=True):
        ranks[i] = position
    return ranks


def rate_game(
    engine, prior: dict[int, tuple[float, float]], teams: list[dict]
) -> dict[int, tuple[float, float]]:
    """New (mu, sigma) of every player of one game. ``teams``: dicts with ``won``,
    ``total`` and ``people`` (person ids); ``prior`` maps person id → (mu, sigma) and
    is not changed."""
    teams = [t for t in teams if t["people"]]
    if len(teams) < 2:
        return {}
    ratings = [
        [engine.rating(*prior.get(pid, (MU, SIGMA))) for pid in team["people"]] for team in teams
    ]
    ranks = team_ranks([(team["won"], team["total"]) for team in teams])
    result = engine.rate(ratings, ranks=[float(r) for r in ranks])
    out = {}
    for team, rated in zip(teams, result, strict=True):
        for pid, rating in zip(team["people"], rated, strict=True):
            out[pid] = (rating.mu, rating.sigma)
    return out


# ---------------------------------------------------------------------------------------
# Loading


def _game_rows(games) -> Iterator[tuple]:
    """(game_id, day_date, team_id, won, total, person_id) of the players of finished
    ``games`` (a Game queryset), in rating order."""
    return (
        TeamPlayer.objects.filter(game__in=games, game__status=Game.Status.FINISHED)
        .order_by(
            "game__day_date",
            F("game__finished_at").asc(nulls_last=True),
            "game_id",
            "team__index",
            "seat",
            "pk",
        )
        .values_list(
            "game_id", "game__day_date", "team_id", "team__won", "team__total", "person_id"
        )
        .iterator(chunk_size=BATCH)
    )


def _grouped(rows: Iterable[tuple]) -> Iterator[tuple[int, datetime.date, list[dict]]]:
    """Group consecutive rows by game: (game_id, date, teams)."""
    current = None
    day = None
    teams: dict[int, dict] = {}
    for game_id, day_date, team_id, won, total, person_id in rows:
        if game_id != current:
            if current is not None:
                yield current, day, list(teams.values())
            current, day, teams = game_id, day_date, {}
        team = teams.setdefault(team_id, {"won": won, "total": total, "people": []})
        team["people"].append(person_id)
    if current is not None:
        yield current, day, list(teams.values())


def _priors(person_ids: Iterable[int] | None, before: datetime.date | None) -> dict:
    """Each person's latest (mu, sigma) from games before a date (``None``: from any
    game): one query."""
    latest = RatingPoint.objects.filter(person=OuterRef("pk"))
    if before is not None:
        latest = latest.filter(played_on__lt=before)
    latest = latest.order_by("-played_on", "-pk")
    people = Person.objects.all()
    if person_ids is not None:
        people = people.filter(pk__in=person_ids)
    rows = (
        people.annotate(
            mu=Subquery(latest.values("mu")[:1]), sigma=Subquery(latest.values("sigma")[:1])
        )
        .filter(mu__isnull=False)
        .values_list("pk", "mu", "sigma")
        .order_by()
    )
    return {pk: (mu, sigma) for pk, mu, sigma in rows}


# ---------------------------------------------------------------------------------------
# Entry points


def _points(game_id: int, day: datetime.date, new: dict) -> list[RatingPoint]:
    """The rating rows of one rated game: {person_id: (mu, sigma)} → RatingPoints."""
    return [
        RatingPoint(
            person_id=pid,
            game_id=game_id,
            played_on=day,
            mu=mu,
            sigma=sigma,
            ordinal=ordinal(mu, sigma),
        )
        for pid, (mu, sigma) in new.items()
    ]


#: The PostgreSQL advisory lock that rating writers take in turn ("rate" in ASCII).
RATINGS_LOCK = 0x72617465


def one_writer_at_a_time() -> None:
    """Call first in a transaction that writes ratings: the next one waits until this
    one ends (PostgreSQL: an advisory lock held to the end of the transaction; SQLite
    lets one writer in at a time anyway). A game finishing while a correction replays
    the ratings is then rated from the replayed ratings, not from the ones being
    rewritten, and rating points become visible in the order of their ids, which a
    person's page relies on (:func:`scoring.results.cache.person_stamp_of`).

    Not a lock on a table row the hand saves also write: a replay holds this one for
    as long as it runs, and a save that finishes or corrects a game must never wait
    for it (nor hold its game while it waits, which with the replay waiting for that
    game's row would be a deadlock)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [RATINGS_LOCK])


def replay_from(start: datetime.date | None) -> int:
    """Delete every rating from ``start`` on (all of them with None) and rate every
    finished game from that date again, in order. Returns the number of games rated.
    Memory stays flat: rows are streamed and written in batches."""
    engine = model()
    with transaction.atomic():
        one_writer_at_a_time()
        points = RatingPoint.objects.all()
        games = Game.objects.filter(status=Game.Status.FINISHED)
        if start is not None:
            points = points.filter(played_on__gte=start)
            games = games.filter(day_date__gte=start)
        points.delete()
        players = (
            TeamPlayer.objects.filter(game__in=games).values_list("person_id", flat=True).distinct()
        )
        state = _priors(players, start) if start is not None else {}
        pending: list[RatingPoint] = []
        count = 0
        for game_id, day, teams in _grouped(_game_rows(games)):
            new = rate_game(engine, state, teams)
            state.update(new)
            count += 1
            pending += _points(game_id, day, new)
            if len(pending) >= BATCH:
                RatingPoint.objects.bulk_create(pending)
                pending = []
        if pending:
            RatingPoint.objects.bulk_create(pending)
        # Every rewritten point has a new id, and a person whose points were only
        # deleted falls back to an older newest one: their own stamps move
        # (cache.person_stamp_of), so the other members' pages stay valid.
        results_changed()
    return count


def rebuild() -> int:
    """Recompute every rating from the first game on."""
    return replay_from(None)


def _has_later_points(game: Game, person_ids: list[int]) -> bool:
    """Does any of these people have a rating from a game that comes after ``game`` in
    rating order (a later day, or the same day finished later)?"""
    later = Q(played_on__gt=game.day_date)
    same_day = Q(played_on=game.day_date)
    if game.finished_at is not None:
        same_day &= Q(game__finished_at__gt=game.finished_at) | Q(
            game__finished_at=game.finished_at, game_id__gt=game.pk
        )
    else:
        same_day &= Q(game_id__gt=game.pk)
    return (
        RatingPoint.objects.filter(person_id__in=person_ids)
        .exclude(game_id=game.pk)
        .filter(later | same_day)
        .exists()
    )


def game_finished(game: Game) -> None:
    """Rate a game that has just finished. The usual case (the newest game of its
    players) reads each player's latest rating and adds one point per player; a game
    entered out of order (older than ratings already stored) replays from its date."""
    fresh = Game.objects.filter(pk=game.pk).first()
    if fresh is None:
        return
    if fresh.status != Game.Status.FINISHED:
        game_changed(fresh)
        return
    rows = list(_game_rows(Game.objects.filter(pk=fresh.pk)))
    person_ids = [row[5] for row in rows]
    if not person_ids:
        return
    engine = model()
    with transaction.atomic():
        one_writer_at_a_time()
        # Asked once it is this writer's turn: a replay may have just rated later games.
        later = _has_later_points(fresh, person_ids)
        if not later:
            RatingPoint.objects.filter(game_id=fresh.pk).delete()
            state = _priors(person_ids, None)
            for game_id, day, teams in _grouped(rows):
                points = _points(game_id, day, rate_game(engine, state, teams))
                RatingPoint.objects.bulk_create(points)
            results_changed()
    if later:
        replay_from(fresh.day_date)


def game_changed(game: Game) -> None:
    """A finished game was corrected, or re-opened by an undo: its ratings and every
    rating after it are redone."""
    day = game.day_date
    if day is None:
        fresh = Game.objects.filter(pk=game.pk).values_list("day_date", flat=True).first()
        if fresh is None:
            return
        day = fresh
    replay_from(day)
