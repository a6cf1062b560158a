"""What the benchmark's measurements need in its throwaway database: the generated
league (built once, then reused while a marker file says it is the one asked for), an
officer to log in as, the latest season with games, the busiest member, and an open
club day with a game in progress.

Everything is made through the league generator and the scoring services, and reused
by later runs.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from dataclasses import asdict
from importlib import import_module
from pathlib import Path

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db.models import Count, Max

from members.models import OFFICERS_GROUP, ClubDay, Person, Round, Seat, SignIn, Table
from scoring.devtools.league.generate import generate_league
from scoring.devtools.league.options import GENERATOR_VERSION, LeagueOptions
from scoring.models import Game, RuleSet, Season, TeamPlayer
from scoring.play.services.games import start_game
from scoring.play.services.hands import record_hand
from scoring.play.services.rulesets import set_day_rules

BENCH_DAY_TITLE = "Benchmark day (made by manage.py benchmark)"
OFFICER_USERNAME = "bench-officer"

# Hands of the benchmark game (club rules): small ones before, one big one saved.
SMALL = {
    "melded_points": 120,
    "natural_canastas": 0,
    "mixed_canastas": 0,
    "hand_points": 40,
    "red_threes": 0,
    "went_out": "none",
}
BIG = {
    "melded_points": 400,
    "natural_canastas": 1,
    "mixed_canastas": 1,
    "hand_points": 0,
    "red_threes": 1,
    "went_out": "out",
}
# Saved over and over over HTTP: nobody scores, so the game never ends.
ZERO = {**SMALL, "melded_points": 0, "hand_points": 0}
HANDS_BEFORE = 3
#: The benchmark officer's password (a throwaway database; the HTTP client logs in).
OFFICER_PASSWORD = "bench-officer-password-not-secret"


class BenchError(Exception):
    pass


# ---------------------------------------------------------------------------------------
# The league


def league_params(opts: LeagueOptions) -> dict:
    data = asdict(opts)
    data["start"] = opts.start.isoformat()
    data["generator"] = GENERATOR_VERSION
    return data


def marker_path(marker_dir: Path, name: str) -> Path:
    return Path(marker_dir) / f"{name}.league.json"


def read_marker(path: Path | None) -> dict | None:
    if path is None or not Path(path).exists():
        return None
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return None


def ensure_league(
    opts: LeagueOptions,
    marker: Path | None,
    *,
    rebuild: bool = False,
    may_wipe: bool = True,
    log: Callable[[str], None] = print,
) -> dict:
    """Migrate, then reuse the league the marker file describes, or build it (wiping the
    database first when it holds another one and ``may_wipe``). Returns the marker."""
    call_command("migrate", verbosity=0, interactive=False)
    wanted = league_params(opts)
    found = read_marker(marker)
    has_games = Game.objects.exists()
    if not rebuild and has_games and found and found.get("params") == wanted:
        log(f"Reusing the league in this database ({found['summary_line']}).")
        return {**found, "reused": True}
    if has_games:
        if not may_wipe:
            raise BenchError(
                "The benchmark database already holds games, but not the league asked for. "
                "Run with --rebuild to wipe it and build the league again."
            )
        log("Wiping the benchmark database (another league was in it).")
        call_command("flush", interactive=False, verbosity=0)
        # The flush took the rule-set presets the migrations made: make them again.
        import_module("scoring.migrations.0002_presets").create_presets(apps, None)
    log(
        f"Building the league: {opts.people} people, {opts.years} years, seed {opts.seed}, "
        f"{opts.days_per_year} days a year, {opts.tables_min}–{opts.tables_max} tables a day "
        "(the first run takes a while)."
    )
    summary = generate_league(opts, progress=log)
    data = {
        "params": wanted,
        "summary": asdict(summary),
        "summary_line": summary.line(),
        "built_seconds": round(summary.seconds, 1),
    }
    if marker is not None:
        Path(marker).parent.mkdir(parents=True, exist_ok=True)
        Path(marker).write_text(json.dumps(data, indent=2))
    return {**data, "reused": False}


# ---------------------------------------------------------------------------------------
# What the pages need: an officer, a season, a member, an open day with a game


def officer_user():
    User = get_user_model()
    user, created = User.objects.get_or_create(
        username=OFFICER_USERNAME, defaults={"first_name": "Bench", "last_name": "Officer"}
    )
    if created or not user.check_password(OFFICER_PASSWORD):
        user.set_password(OFFICER_PASSWORD)
        user.save()
    group, _ = Group.objects.get_or_create(name=OFFICERS_GROUP)
    user.groups.add(group)
    return user


def latest_season_with_games() -> Season:
    for season in Season.objects.order_by("-start", "-pk"):
        if Game.objects.finished().between(season.start, season.end).exists():
            return season
    raise BenchError("The benchmark database has no season with finished games.")


def busiest_member() -> Person:
    """The active member who played the most games (ties: the lowest id)."""
    row = (
        TeamPlayer.objects.filter(
            person__kind=Person.Kind.MEMBER,
            person__status=Person.Status.ACTIVE,
            person__merged_into__isnull=True,
        )
        .values("person_id")
        .annotate(games=Count("pk"))
        .order_by("-games", "person_id")
        .first()
    )
    if row is None:
        raise BenchError("The benchmark database has no member who played.")
    return Person.objects.get(pk=row["person_id"])


def game_in_progress(now=None) -> Game:
    """A game in progress (hands 1–3 played) at a table of the open benchmark day, made
    through the services the first time and reused by later runs (the measurements put
    it back as it was). The day is dated after the league's last day, so it never
    changes the season's standings."""
    reuse = (
        Game.objects.filter(
            day__title=BENCH_DAY_TITLE, status=Game.Status.PLAYING, hand_count=HANDS_BEFORE
        )
        .order_by("-pk")
        .first()
    )
    if reuse is not None:
        _reopen(reuse.day)
        return reuse
    day = _bench_day()
    rule_set = RuleSet.objects.club_default() or RuleSet.objects.get(slug="club")
    set_day_rules(day, rule_set)
    number = (day.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
    round_ = Round.objects.create(day=day, number=number, started=True)
    people = list(Person.objects.members().active().order_by("membership_number", "pk")[:4])
    if len(people) < 4:
        raise BenchError("The benchmark database needs four active members.")
    table = Table.objects.create(round=round_, number=1)
    for position, person in enumerate(people, start=1):
        SignIn.objects.get_or_create(day=day, person=person)
        Seat.objects.create(round=round_, table=table, person=person, position=position)
    a, b, c, d = people
    game = start_game(
        table, [[a, c], [b, d]], rule_set=rule_set, score_keeper=a, first_dealer=a, now=now
    )
    for number in range(1, HANDS_BEFORE + 1):
        record_hand(game, [SMALL, SMALL], number=number, now=now)
    return game


def _bench_day() -> ClubDay:
    """The open benchmark day: the one made before, or a new one the day after the
    league's last."""
    day = ClubDay.objects.filter(title=BENCH_DAY_TITLE).order_by("-pk").first()
    if day is None:
        last = ClubDay.objects.aggregate(last=Max("date"))["last"] or datetime.date(2021, 1, 1)
        day = ClubDay.objects.create(date=last + datetime.timedelta(days=1), title=BENCH_DAY_TITLE)
    _reopen(day)
    return day


def _reopen(day: ClubDay) -> None:
    if not day.is_open:
        day.status, day.closed_at = ClubDay.Status.OPEN, None
        day.save(update_fields=["status", "closed_at"])


def games_for_saving(count: int, now=None) -> list[Game]:
    """``count`` games in progress at the tables of a new round of the benchmark day
    (four different members each, as many as the league has), for hands saved over
    HTTP; the hands saved score nothing, so the games never end."""
    day = _bench_day()
    rule_set = RuleSet.objects.club_default() or RuleSet.objects.get(slug="club")
    number = (day.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
    round_ = Round.objects.create(day=day, number=number, started=True)
    people = list(Person.objects.members().active().order_by("membership_number", "pk"))
    games = []
    for index in range(min(count, len(people) // 4)):
        four = people[4 * index : 4 * index + 4]
        table = Table.objects.create(round=round_, number=index + 1)
        for position, person in enumerate(four, start=1):
            SignIn.objects.get_or_create(day=day, person=person)
            Seat.objects.create(round=round_, table=table, person=person, position=position)
        a, b, c, d = four
        games.append(
            start_game(
                table, [[a, c], [b, d]], rule_set=rule_set, score_keeper=a, first_dealer=a, now=now
            )
        )
    if not games:
        raise BenchError("The benchmark database needs four active members.")
    return games
