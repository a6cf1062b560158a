"""A player's page: their games, the two charts' series, their opponents and
partners, and their personal bests.

Every function reads finished games only and costs a fixed handful of queries however
long the person's history; the totals and the bests are read from the stored
all-games row (:class:`~scoring.models.PersonTotal`, kept by the play services).
"""

from __future__ import annotations

import datetime
import functools
from types import SimpleNamespace

from django.db import connection
from django.db.models import OuterRef, Prefetch, QuerySet, Subquery

from members.models import Person, Table
from scoring.models import Game, GameTeam, PersonTotal, RatingPoint, SeasonTotal, TeamPlayer
from scoring.models.totals import STAT_FIELDS, TEAM_SUMS
from scoring.results.standings.individual import PERSON_FIELDS, person_row
from scoring.results.standings.individual import _finish_row as finish_row
from scoring.results.standings.individual import _pair_rows as pair_rows
from scoring.results.standings.periods import ALL_GAMES, FINISHED, Period, finished_players

NEWEST = ("-game__day_date", "-game__finished_at", "-game_id")


def finished_games_of(person: Person) -> QuerySet[TeamPlayer]:
    """A person's finished games, newest first: what the page's games table sorts and
    pages; a page of it is read with the rating after each game (:func:`games_page`)."""
    return finished_players().filter(person=person).order_by(*NEWEST)


def with_rating_after(seats: QuerySet[TeamPlayer]) -> QuerySet[TeamPlayer]:
    """``seats`` with ``rating_after``, the person's rating after each game."""
    return seats.annotate(
        rating_after=Subquery(
            RatingPoint.objects.filter(person_id=OuterRef("person_id"), game_id=OuterRef("game_id"))
            .order_by()
            .values("ordinal")[:1]
        )
    )


def games_of_person(person: Person) -> QuerySet[TeamPlayer]:
    """A person's finished games, newest first, with the rating after each."""
    return with_rating_after(finished_games_of(person))


def player_games(person: Person) -> QuerySet[TeamPlayer]:
    """:func:`games_of_person` with what a history table shows (the other players
    prefetched: a constant number of queries for any page of it, or for the CSV)."""
    others = Prefetch(
        "game__players",
        queryset=TeamPlayer.objects.select_related("person").order_by("team__index", "seat"),
    )
    return (
        games_of_person(person)
        .select_related("team", "game", "game__table")
        .prefetch_related(others)
    )


class PersonName:
    """A person as a table names them (the model's own name properties), without the
    cost of a model instance."""

    __slots__ = ("pk", "first_name", "last_name", "kind")
    Kind = Person.Kind
    full_name = Person.full_name
    display_name = Person.display_name
    is_guest = Person.is_guest

    def __init__(self, pk: int, first_name: str, last_name: str, kind: str):
        self.pk, self.first_name, self.last_name, self.kind = pk, first_name, last_name, kind


class _Players(list):
    """A game's players, as ``game.players.all()`` gives them."""

    def all(self):
        return self


def games_page(page: QuerySet[TeamPlayer]) -> list[SimpleNamespace]:
    """The rows of one page of the games table (a sliced queryset of seats) as light
    records with the same attributes a table reads from the TeamPlayer (``game``,
    ``game.players.all()``, ``team``, ``rating_after``): the page's seats (their ids
    only), then every seat of their games with what a row shows (:func:`_seats`)."""
    mine = list(page.values_list("pk", "game_id"))
    players: dict[int, _Players] = {}
    rows = {}
    for seat in _seats([game_id for _, game_id in mine]):
        tp_id, game_id, team_id, pid, first, last, kind, *row = seat
        person = PersonName(pid, first, last, kind)
        players.setdefault(game_id, _Players()).append(
            SimpleNamespace(team_id=team_id, person_id=pid, person=person)
        )
        rows[tp_id] = (tp_id, pid, team_id, game_id, *row)
    return [_game_row(rows[pk], players) for pk, _ in mine]


@functools.cache
def _seats_sql(vendor: str) -> str:
    """Every seat of some games (``{games}``: their ids), in the order the players sit,
    with the game, the team and the seat's rating after it (see :func:`_seats`)."""
    q = connection.ops.quote_name
    t = {m.__name__: q(m._meta.db_table) for m in (TeamPlayer, GameTeam, Game, Person)}
    table, rating = q(Table._meta.db_table), q(RatingPoint._meta.db_table)
    return (
        "SELECT tp.id, tp.game_id, tp.team_id, tp.person_id, p.first_name, p.last_name, "
        "p.kind, g.day_id, g.day_date, tb.number, g.number, g.status, t.won, t.total, "
        f"t.points_against, t.hands, rp.ordinal FROM {t['TeamPlayer']} tp "
        f"JOIN {t['GameTeam']} t ON t.id = tp.team_id "
        f"JOIN {t['Person']} p ON p.id = tp.person_id "
        f"JOIN {t['Game']} g ON g.id = tp.game_id JOIN {table} tb ON tb.id = g.table_id "
        f"LEFT JOIN {rating} rp ON rp.game_id = tp.game_id AND rp.person_id = tp.person_id "
        f"WHERE tp.game_id IN ({{games}}) ORDER BY tp.game_id, t.{q('index')}, tp.seat"
    )


def _seats(game_ids: list[int]) -> list[tuple]:
    """(seat, game, team, person, first name, last name, kind, then what a row of the
    games table shows) of every seat of these games: one small read, written out in SQL."""
    if not game_ids:
        return []
    sql = _seats_sql(connection.vendor).format(games=", ".join(["%s"] * len(game_ids)))
    with connection.cursor() as cursor:
        cursor.execute(sql, game_ids)
        return cursor.fetchall()


def _game_row(values, players) -> SimpleNamespace:
    pk, person_id, team_id, game_id, day_id, day_date, table, number, status, *rest = values
    won, total, against, hands, rating_after = rest
    game = SimpleNamespace(
        pk=game_id,
        day_id=day_id,
        day_date=day_date,
        table=SimpleNamespace(number=table),
        number=number,
        is_finished=status == FINISHED,
        players=players.get(game_id, _Players()),
    )
    team = SimpleNamespace(pk=team_id, won=won, total=total, points_against=against, hands=hands)
    return SimpleNamespace(
        pk=pk,
        person_id=person_id,
        team_id=team_id,
        game_id=game_id,
        game=game,
        team=team,
        rating_after=rating_after,
    )


def _rows(sql: str, params: list, period: Period, day: str) -> list[tuple]:
    """The rows of ``sql`` (ending in its WHERE conditions, ``{dates}`` marking where
    the period's limits on the date column ``day`` go) written out in SQL."""
    dates = ""
    for op, limit in ((">=", period.start), ("<=", period.end)):
        if limit:
            dates += f" AND {day} {op} %s"
            params.append(limit)
    with connection.cursor() as cursor:
        cursor.execute(sql.format(dates=dates), params)
        return cursor.fetchall()


def score_series(person: Person, period: Period = ALL_GAMES) -> list[tuple[datetime.date, int]]:
    """(date, game score) of each finished game, oldest first: the game-scores chart.
    One read, written out in SQL."""
    sql = (
        f"SELECT g.day_date, t.total FROM {TeamPlayer._meta.db_table} tp "
        f"JOIN {Game._meta.db_table} g ON g.id = tp.game_id "
        f"JOIN {GameTeam._meta.db_table} t ON t.id = tp.team_id "
        "WHERE g.status = %s AND tp.person_id = %s{dates} "
        "ORDER BY g.day_date, g.finished_at, tp.game_id"
    )
    return _rows(sql, [FINISHED, person.pk], period, "g.day_date")


def rating_series(person: Person, period: Period = ALL_GAMES) -> list[tuple[datetime.date, float]]:
    """(date, rating) after each rated game, oldest first: the rating chart. One read,
    written out in SQL."""
    sql = (
        f"SELECT played_on, ordinal FROM {RatingPoint._meta.db_table} "
        "WHERE person_id = %s{dates} ORDER BY played_on, id"
    )
    return _rows(sql, [person.pk], period, "played_on")


def _aggregate(select: str, joins: str, group: str, person: Person, period: Period) -> list:
    """Rows (dicts) of one aggregate over ``person``'s seats (``me``) in the finished
    games (``g``) of ``period``, with their team (``mt``) and the other person of each
    row (``p``), grouped by ``group``. Written out in SQL: the same numbers the ORM
    would read, without building the query anew for every page drawn."""
    tables = {m.__name__: m._meta.db_table for m in (TeamPlayer, GameTeam, Game, Person)}
    where, params = "", [FINISHED, person.pk]
    for op, day in ((">=", period.start), ("<=", period.end)):
        if day:
            where += f" AND g.day_date {op} %s"
            params.append(day)
    sql = (
        f"SELECT {select}, p.first_name, p.last_name, p.kind FROM {tables['TeamPlayer']} me "
        f"JOIN {tables['Game']} g ON g.id = me.game_id AND g.status = %s "
        f"JOIN {tables['GameTeam']} mt ON mt.id = me.team_id {joins.format(**tables)} "
        f"WHERE me.person_id = %s{where} GROUP BY {group}, p.first_name, p.last_name, p.kind"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


_WINS = "COUNT(*) AS games, SUM(CASE WHEN mt.won THEN 1 ELSE 0 END) AS wins"


def opponents(person: Person, period: Period = ALL_GAMES) -> list[dict]:
    """Everyone who played against ``person``: games against them, ``person``'s record
    (wins, losses) and points for and against in those games. One aggregate query: the
    person's seats joined to the other sides' seats of the same games."""
    aggregated = _aggregate(
        f"o.person_id AS person_id, {_WINS}, "
        "SUM(mt.total) AS points_for, SUM(ot.total) AS points_against",
        "JOIN {TeamPlayer} o ON o.game_id = me.game_id AND o.team_id <> me.team_id "
        "JOIN {GameTeam} ot ON ot.id = o.team_id JOIN {Person} p ON p.id = o.person_id",
        "o.person_id",
        person,
        period,
    )
    rows = []
    for values in aggregated:
        pid = values.pop("person_id")
        row = person_row(values, pid, "")
        row.update(values)
        row["losses"] = row["games"] - row["wins"]
        row["win_pct"] = round(100 * row["wins"] / row["games"], 1) if row["games"] else 0.0
        row["differential"] = (row["points_for"] or 0) - (row["points_against"] or 0)
        rows.append(row)
    rows.sort(key=lambda r: (-r["games"], r["sort_name"]))
    return rows


def partners(person: Person, period: Period = ALL_GAMES) -> list[dict]:
    """Everyone who partnered ``person``, with their record together (the rows of
    :func:`~scoring.results.standings.individual.partnerships` of ``person``): one
    aggregate query, the person's seats joined to their partners' seats."""
    sums = ", ".join(f"SUM(mt.{field}) AS {key}" for key, field in TEAM_SUMS.items())
    aggregated = _aggregate(
        f"pt.person_id AS b_id, {_WINS}, {sums}, "
        "MAX(mt.total) AS best_game, MAX(mt.best_hand) AS best_hand",
        "JOIN {TeamPlayer} pt ON pt.team_id = me.team_id AND pt.person_id <> me.person_id "
        "JOIN {Person} p ON p.id = pt.person_id",
        "pt.person_id",
        person,
        period,
    )
    me = {f"a_{f}": getattr(person, f) for f in PERSON_FIELDS}
    for item in aggregated:
        for f in PERSON_FIELDS:
            item[f"b_{f}"] = item.pop(f)
        item.update(me, person_id=person.pk)
    rows = pair_rows(aggregated, False)
    for row in rows:
        row["partner"] = row["b"]
    rows.sort(key=lambda r: (-r["games"], r["partner"]["sort_name"]))
    return rows


def stored_record(person: Person, season=None) -> SimpleNamespace | None:
    """``person``'s stored all-games row (:class:`~scoring.models.PersonTotal`: totals,
    bests, streak) with the day of each best's game, and their stored totals of
    ``season`` (:class:`~scoring.models.SeasonTotal`): one small read, written out in
    SQL, whatever the length of their history. ``stats`` holds :data:`STAT_FIELDS`;
    ``season_stats`` too, or None (no finished game in the season, or no season)."""
    game = Game._meta.db_table
    joins = " ".join(
        f"LEFT JOIN {game} g{i} ON g{i}.id = r.{name}_id" for i, name in enumerate(BEST_GAMES)
    )
    days = ", ".join(f"g{i}.id, g{i}.day_id, g{i}.day_date" for i in range(len(BEST_GAMES)))
    fields = ", ".join(f"r.{name}" for name in (*STAT_FIELDS, *RECORD_FIELDS))
    in_season = ", ".join(f"s.{name}" for name in STAT_FIELDS)
    sql = (
        f"SELECT {fields}, {in_season}, {days} FROM {PersonTotal._meta.db_table} r {joins} "
        f"LEFT JOIN {SeasonTotal._meta.db_table} s ON s.person_id = r.person_id "
        "AND s.season_id = %s AND s.games > 0 WHERE r.person_id = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [season.pk if season else None, person.pk])
        found = cursor.fetchone()
    if found is None:
        return None
    names = (*STAT_FIELDS, *RECORD_FIELDS)
    values = dict(zip(names, found, strict=False))
    record = SimpleNamespace(stats={name: values[name] for name in STAT_FIELDS}, **values)
    season_values = found[len(names) : len(names) + len(STAT_FIELDS)]
    record.season_stats = None
    if season_values[0] is not None:  # games: never null in a stored row
        record.season_stats = dict(zip(STAT_FIELDS, season_values, strict=True))
    games = found[len(names) + len(STAT_FIELDS) :]
    for i, name in enumerate(BEST_GAMES):
        game_id, day_id, day_date = games[3 * i : 3 * i + 3]
        found_game = game_id and SimpleNamespace(pk=game_id, day_id=day_id, day_date=day_date)
        setattr(record, name, found_game)
    return record


BEST_GAMES = ("best_game_in", "best_hand_in", "most_canastas_in", "most_red_threes_in")
RECORD_FIELDS = (
    "best_hand_number",
    "most_canastas",
    "most_red_threes",
    "most_red_threes_number",
    "streak",
    "streak_start",
    "streak_end",
)


def rating_on(ratings: list[tuple[datetime.date, float]], day: datetime.date | None):
    """The rating (rounded as the standings round it) after the last rated game up to
    ``day`` (None: the latest), from :func:`rating_series`."""
    found = None
    for played_on, ordinal in ratings:
        if day is not None and played_on > day:
            break
        found = ordinal
    return None if found is None else round(found, 1)


def totals_row(stats: dict, rating) -> dict:
    """A row of :func:`~scoring.results.standings.individual.individual` from stored
    statistics (``Stats.stats()``) and the rating."""
    row = finish_row(dict(stats))
    row["rating"] = rating
    return row


def bests_of(record: SimpleNamespace | None, ratings: list[tuple[datetime.date, float]]) -> dict:
    """Best game, best hand, most canastas in a game, most red threes in a hand, the
    longest winning streak (all from the stored row) and the best rating (the first
    time the highest was reached, from :func:`rating_series`), each with the game or
    day it happened in."""
    best_rating = None
    for played_on, ordinal in ratings:
        if best_rating is None or ordinal > best_rating[1]:
            best_rating = (played_on, ordinal)
    bests = dict.fromkeys(("best_game", "best_hand", "most_canastas", "most_red_threes"))
    bests["streak"] = None
    if best_rating:
        bests["best_rating"] = {
            "value": round(best_rating[1], 1),
            "game": {"day_date": best_rating[0]},
        }
    else:
        bests["best_rating"] = None
    if record is None:
        return bests
    r = record
    bests["best_game"] = r.best_game_in and {"value": r.best_game, "game": r.best_game_in}
    if r.best_hand_in:
        bests["best_hand"] = {
            "value": r.best_hand,
            "game": r.best_hand_in,
            "hand": r.best_hand_number,
        }
    if r.most_canastas and r.most_canastas_in:
        bests["most_canastas"] = {"value": r.most_canastas, "game": r.most_canastas_in}
    if r.most_red_threes and r.most_red_threes_in:
        bests["most_red_threes"] = {
            "value": r.most_red_threes,
            "game": r.most_red_threes_in,
            "hand": r.most_red_threes_number,
        }
    if r.streak:
        bests["streak"] = {"length": r.streak, "start": r.streak_start, "end": r.streak_end}
    return bests


def personal_bests(person: Person) -> dict:
    """:func:`bests_of` ``person``: two queries (the stored row, the ratings)."""
    return bests_of(stored_record(person), rating_series(person))
