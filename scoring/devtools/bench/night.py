"""The benchmark's database side, run inside the throwaway database: the league, the
open club day with its tables playing, the scene file the Locust users read, and the
workbook and engine figures."""

from __future__ import annotations

import hashlib
import json
import math
import random
import resource
import sqlite3
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from members.models import ClubDay, Person, Round, Seat, SignIn, Table
from scoring import engine
from scoring.devtools.bench.hands import random_hand
from scoring.devtools.league.generate import generate_league
from scoring.devtools.league.options import LeagueOptions
from scoring.devtools.simulate import play_game
from scoring.models import Game, Hand, RuleSet, Season
from scoring.play.services.games import next_game, start_game
from scoring.play.services.hands import record_hand
from scoring.results import exports, standings

DAY_TITLE = "Club night (manage.py benchmark)"
HAND_SECONDS, BOARD_SECONDS, MEMBER_SECONDS = 180, 5, 60  # at a real club
TABLES_PER_BOARD, TABLES_PER_MEMBER = 25, 5


def league_key(opts: LeagueOptions) -> str:
    """Names the league built with these options under these migrations."""
    migrations = sorted(p.name for p in Path(settings.BASE_DIR).glob("*/migrations/0*.py"))
    digest = hashlib.sha1(json.dumps(migrations).encode()).hexdigest()[:10]
    return f"league-{opts.people}-{opts.years}-{opts.seed}-{digest}"


def ensure_league(opts: LeagueOptions, keep_as: Path | str | None, log=print) -> None:
    """Build the league unless the database holds one already; then keep a copy for
    the next run (an SQLite file at ``keep_as``; PostgreSQL: a template database)."""
    if Game.objects.exists():
        log("Reusing the league kept by an earlier run.")
        analyze()
        return
    log(f"Building the league ({opts.people} people, {opts.years} year(s))…")
    log(generate_league(opts).line())
    analyze()
    if keep_as:
        keep(keep_as)


def analyze() -> None:
    """The planner's statistics of a league just written, as a club's long-lived
    database has them: the site keeps them on SQLite (``PRAGMA optimize`` when a
    connection closes, :mod:`clubsite.sqlite.base`) and PostgreSQL's autovacuum does.
    Without them SQLite before 3.46 (Python 3.11's own is 3.40) plans the first
    minute of a benchmark's requests with no statistics at all, as no club's database
    runs: ``PRAGMA optimize`` at a connection's opening analyzes a table never
    analyzed only from 3.46 on. Kept leagues from before this get them here too."""
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def keep(keep_as: Path | str) -> None:
    """A copy of the throwaway database for the next run: an SQLite file at
    ``keep_as``, or a PostgreSQL template database of that name."""
    db = connection.settings_dict
    connection.close()
    if connection.vendor == "sqlite":
        Path(keep_as).parent.mkdir(parents=True, exist_ok=True)
        with sqlite3.connect(db["NAME"]) as src, sqlite3.connect(keep_as) as dst:
            src.backup(dst)
    else:
        import psycopg

        with psycopg.connect(dbname="postgres", **_pg(db), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{keep_as}"')
            admin.execute(f'CREATE DATABASE "{keep_as}" TEMPLATE "{db["NAME"]}"')


def _pg(db: dict) -> dict:
    return {k.lower(): db[k] for k in ("USER", "PASSWORD", "HOST", "PORT") if db[k]}


def _day(number: int) -> ClubDay:
    """Today's open club day ``number`` (table links and boards work on their day
    only): one per 25 real tables, as at a host of many clubs, each with its board."""
    day, _ = ClubDay.objects.get_or_create(date=timezone.localdate(), title=f"{DAY_TITLE} {number}")
    return day


def _people(count: int) -> list[Person]:
    """``count`` active people: the league's members, then guests made for the night."""
    people = list(Person.objects.members().active().order_by("pk")[:count])
    missing = count - len(people)
    if missing > 0:
        Person.objects.bulk_create(
            Person(kind=Person.Kind.GUEST, first_name=f"Guest {i}", last_name="Bench")
            for i in range(missing)
        )
        people += list(Person.objects.filter(last_name="Bench").order_by("-pk")[:missing])
    return people


def tables_playing(count: int, per_day: int) -> list[Game]:
    """``count`` tables playing, ``per_day`` to a club day, each with its game in play:
    the tables of an earlier step keep the game their phone left (or, when it had just
    finished one, the next game is started, as the phone would), then tables are added
    with a game started."""
    rule_set = RuleSet.objects.club_default() or RuleSet.objects.get(slug="club")
    tables = Table.objects.filter(
        round__day__title__startswith=DAY_TITLE, round__day__date=timezone.localdate()
    )
    games = [_in_play(table) for table in tables.order_by("pk")[:count]]
    if len(games) < count:
        people = _people(4 * count)
        for index in range(len(games), count):
            day = _day(index // per_day + 1)
            round_, _ = Round.objects.get_or_create(day=day, number=1, defaults={"started": True})
            four = people[4 * index : 4 * index + 4]
            table = Table.objects.create(round=round_, number=index + 1)
            for position, person in enumerate(four, start=1):
                SignIn.objects.get_or_create(day=day, person=person)
                Seat.objects.create(round=round_, table=table, person=person, position=position)
            a, b, c, d = four
            game = start_game(
                table, [[a, c], [b, d]], rule_set=rule_set, score_keeper=a, first_dealer=a
            )
            games.append(_played_into(game, random.Random(index)))
    return games


def _played_into(game: Game, rng: random.Random) -> Game:
    """``game`` with a few hands saved already (none to a game's usual length), so that
    the tables of a night are at every point of their games and finish them at a
    steady rate from the first step on, as at a club in full swing (tables that all
    started at 0 would all finish together, an hour later)."""
    for _ in range(rng.randrange(18)):
        number = game.hand_count + 1
        record_hand(game, random_hand(rng), number=number)
        game.refresh_from_db()
        if game.is_finished:
            game = _in_play(game.table)
    return game


def _in_play(table: Table) -> Game:
    """The table's latest game, or the next one started when it is finished."""
    game = Game.objects.filter(table=table).order_by("-number").first()
    if not game.is_finished:
        return game
    a, b, c, d = (seat.person for seat in table.seats.order_by("position"))
    return next_game(game, [[a, c], [b, d]], score_keeper=a)


def _member_sessions(count: int) -> list[dict]:
    """Session cookies of ``count`` members with an account (made when missing)."""
    User = get_user_model()
    people = list(Person.objects.members().active().order_by("pk")[:count])
    found = []
    for index in range(count if people else 0):
        # A small league has fewer members than a big night has readers: they take turns.
        person = people[index % len(people)]
        if person.user_id is None:
            person.user = User.objects.create_user(f"bench-member-{person.pk}")
            person.save(update_fields=["user"])
        client = Client()
        client.force_login(person.user)
        found.append(
            {"person": person.pk, "session": client.cookies[settings.SESSION_COOKIE_NAME].value}
        )
    return found


def scene(tables: int, speed: float, prefix: str = "") -> dict:
    """What the Locust users of a night of ``tables`` real tables need. Phones and
    members run ``speed`` times faster with as many times fewer users (each kind one at
    least); every club day (25 real tables) has its own board, polling in real time.
    ``prefix``: the club's ``/<slug>`` on a shared site (each user's item carries it,
    with its own pace, so that the scenes of several clubs can be put together)."""

    def users(real: float) -> tuple[int, float]:
        count = max(1, math.ceil(real / speed))
        return count, real / count  # users, and how many real ones each stands for

    phones, per_phone = users(tables)
    members, per_member = users(tables / TABLES_PER_MEMBER)
    per_day = max(1, math.ceil(TABLES_PER_BOARD / per_phone))
    games = tables_playing(phones, per_day)
    days = {game.day_id: game.day for game in games}.values()
    season = Season.objects.order_by("-start").first()
    hand_seconds, member_seconds = HAND_SECONDS / per_phone, MEMBER_SECONDS / per_member
    standings_path = reverse("scoring:standings") + (f"?season={season.pk}" if season else "")
    return {
        "tables": [
            {
                "token": g.table.token,
                "game": g.pk,
                "next": g.hand_count + 1,
                "prefix": prefix,
                "hand_seconds": hand_seconds,
            }
            for g in games
        ],
        "hand_seconds": hand_seconds,
        "boards": [{"code": day.board_code, "day": day.pk, "prefix": prefix} for day in days],
        "board_seconds": BOARD_SECONDS,
        "members": [
            {
                **member,
                "prefix": prefix,
                "member_seconds": member_seconds,
                "standings": prefix + standings_path,
            }
            for member in _member_sessions(members)
        ],
        "member_seconds": member_seconds,
        "standings": prefix + standings_path,
        "session_cookie": settings.SESSION_COOKIE_NAME,
    }


def bench_clubs(count: int) -> list:
    """The clubs of a many-club night: club-01 … (made when missing), each served at
    ``/<slug>/`` on a shared site."""
    from members.clubs.scope import scopes_disabled
    from members.clubs.services import create_club
    from members.models import Club

    clubs = []
    for number in range(1, count + 1):
        slug = f"club-{number:02d}"
        with scopes_disabled():
            club = Club.objects.filter(slug=slug).first()
        clubs.append(club or create_club(slug, f"Club {number:02d}"))
    return clubs


def ensure_clubs(opts: LeagueOptions, count: int, keep_as: Path | str | None, log=print) -> None:
    """:func:`ensure_league` for ``count`` clubs, each with a league of its own (seed,
    seed + 1, …); the copy is kept once every club has its league."""
    from dataclasses import replace

    from members.clubs.scope import in_club

    built = False
    for index, club in enumerate(bench_clubs(count)):
        with in_club(club), timezone.override(club.time_zone):
            if not Game.objects.exists():
                log(f"{club.name} ({club.slug}):")
                ensure_league(replace(opts, seed=opts.seed + index), None, log=log)
                built = True
    if built and keep_as:
        keep(keep_as)
    elif not built:
        log("Reusing the clubs' leagues kept by an earlier run.")


def clubs_scene(tables: int, speed: float, count: int) -> dict:
    """The scene of ``tables`` real tables split across ``count`` clubs (as evenly as
    they go), each club's users at its own ``/<slug>/`` addresses."""
    from members.clubs.scope import in_club

    together: dict = {}
    for index, club in enumerate(bench_clubs(count)):
        share = tables // count + (1 if index < tables % count else 0)
        if not share:
            continue
        with in_club(club), timezone.override(club.time_zone):
            part = scene(share, speed, prefix=f"/{club.slug}")
        if not together:
            together = part
            continue
        for key in ("tables", "boards", "members"):
            together[key] += part[key]
    return together


def workbook_figure() -> str:
    """Time and memory of the workbook of the season with the most hands: the wall and
    CPU seconds, and the process's peak memory (with what it held before, Django and the
    site loaded). Run it in a process of its own (the benchmark does), or the peak may
    be an earlier one's."""
    season = max(
        Season.objects.all(),
        key=lambda s: Hand.objects.filter(game__day_date__range=(s.start, s.end)).count(),
    )
    hands = Hand.objects.filter(game__day_date__range=(season.start, season.end)).count()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    began, cpu = time.perf_counter(), time.process_time()
    with tempfile.TemporaryFile() as handle:
        exports.write_league_workbook(handle, standings.season_period(season))
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return (
        f"Workbook of season {season.name} ({hands:,} hands): {seconds:.1f} s ({cpu:.1f} s "
        f"of CPU), peak memory {peak:.0f} MB ({before:.0f} MB before it)"
    )


def engine_figure(seconds: float = 1.0) -> str:
    rules, rng, hands = engine.PRESETS["club"], random.Random(1), []
    while len(hands) < 2000:
        hands += [(inputs, before) for inputs, before, _ in play_game(rng, rules)]
    done, began = 0, time.perf_counter()
    while time.perf_counter() - began < seconds:
        for inputs, before in hands:
            engine.score_hand(rules, inputs, before)
        done += len(hands) * rules.teams
    return f"Engine: {done / (time.perf_counter() - began):,.0f} team-hands/s"
