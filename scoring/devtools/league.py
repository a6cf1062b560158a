"""A realistic, reproducible club history, for trying the site out and for the benchmark.

:func:`generate_league` writes people (members, a few lapsed, and guests brought by
members), club days (two a week, closed once played), sign-ins at the door, one seated
round per day, the day's rule set, and at every table two games of four players — the
second with new partnerships drawn the club's way (:func:`services.club_partnerships`).
Every game is started and every hand is scored through :mod:`scoring.play.services` (the
only code that writes scores), with plausible inputs from :mod:`scoring.devtools.simulate`, so
every stored hand is one the engine accepts and every total is the services' own.

One ``random.Random(seed)`` drives everything and no value depends on today's date or
the clock (times are derived from the day's date), so the same options give the same
league, row for row — apart from the automatic "created at" stamps of rows and history.
Each club day is written in one transaction.

People and sign-ins are written with ``bulk_create_with_history`` (their history rows
too), rounds, tables and seats with ``bulk_create``; a round is drawn by
``members.draw.draw`` from the people in the order ``members.services.draw_round``
uses, so its stored seed replays its seating. A game's hands are written at once by
``services.record_played_game`` (the same rows as ``services.record_hand`` hand by hand,
which ``hand_by_hand=True`` uses; a test compares the two).
"""

from __future__ import annotations

import base64
import datetime
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import transaction
from simple_history.utils import bulk_create_with_history

from members import draw as seating
from members.models import (
    ROOM_CODE_ALPHABET,
    ROOM_CODE_LENGTH,
    ClubDay,
    Person,
    Round,
    Seat,
    SignIn,
    Table,
)
from scoring.devtools.simulate import play_game
from scoring.models import Game, RuleSet, Season
from scoring.play import services
from scoring.results import ratings

DEFAULT_START = datetime.date(2021, 1, 1)
# Bump when a change here makes the same options give another league (the benchmark
# then rebuilds its cached league).
GENERATOR_VERSION = 2

_FIRST_NAMES = (
    "Ann Barbara Carol Diane Edith Frances Gloria Helen Irene Joan Karen Linda Margaret "
    "Nancy Olive Patricia Ruth Sandra Teresa Ursula Vera Wendy Yvonne Alice Betty Clara "
    "Dorothy Eleanor Florence Grace Hazel Ida Janet Kathleen Lois Marion Norma Phyllis "
    "Rose Shirley Alan Bernard Charles David Edward Frank George Harold Ivan James Kenneth "
    "Leonard Michael Norman Oscar Peter Raymond Stanley Thomas Victor Walter Albert Bruce "
    "Carl Dennis Eugene Fred Gerald Howard Jack Louis Martin Paul Roger Samuel Ted"
)
FIRST_NAMES = tuple(_FIRST_NAMES.split())

_LAST_NAMES = (
    "Abbott Adams Baker Barnes Bell Bennett Brooks Burke Campbell Carter Clark Cohen Cole "
    "Collins Cook Cooper Cruz Davis Diaz Dunn Edwards Ellis Evans Fisher Flores Ford Foster "
    "Garcia Gibson Gordon Graham Grant Gray Green Hall Hamilton Harris Hayes Henderson Hill "
    "Holmes Howard Hughes Hunt Jackson James Jenkins Johnson Jordan Kelly Kennedy King "
    "Knight Lee Lewis Long Lopez Marshall Martin Mason Meyer Miller Mills Moore Morgan "
    "Murphy Murray Nelson Owens Palmer Parker Perry Porter Powell Price Reed Reyes Rivera "
    "Roberts Rogers Ross Russell Sanders Scott Shaw Simmons Snyder Stewart Sullivan Taylor "
    "Thomas Torres Turner Walker Wallace Ward Warren Watson Wells West White Wood Young"
)
LAST_NAMES = tuple(_LAST_NAMES.split())

# Club days: Tuesdays and Thursdays first, other weekdays only when more days are asked.
WEEKDAY_PREFERENCE = (1, 3, 5, 0, 2, 4, 6)
DAY_TITLES = {
    0: "Monday afternoon",
    1: "Tuesday afternoon",
    2: "Wednesday afternoon",
    3: "Thursday afternoon",
    4: "Friday afternoon",
    5: "Saturday club day",
    6: "Sunday social",
}
PLAY_STARTS = datetime.time(13, 0)
MINUTES_PER_HAND = (8, 16)


class LeagueError(Exception):
    """The league cannot be generated as asked; the message says what to change."""


@dataclass
class LeagueOptions:
    people: int = 400
    years: int = 5
    seed: int = 1
    days_per_year: int = 100
    tables_min: int = 20
    tables_max: int = 30
    start: datetime.date = DEFAULT_START
    guest_share: float = 0.10  # of the people at the tables on a day
    rule_set_slug: str = ""  # default: the club default rule set

    def check(self) -> None:
        if self.people < 8:
            raise LeagueError("A league needs at least 8 people (two tables of four).")
        if self.years < 1:
            raise LeagueError("--years must be 1 or more.")
        if not 1 <= self.days_per_year <= 365:
            raise LeagueError("--days-per-year must be between 1 and 365.")
        if self.tables_min < 1 or self.tables_max < self.tables_min:
            raise LeagueError("Give 1 ≤ --tables-min ≤ --tables-max.")

    @property
    def end(self) -> datetime.date:
        return datetime.date(self.start.year + self.years, self.start.month, 1) - (
            datetime.timedelta(days=1)
        )


@dataclass
class LeagueSummary:
    people: int = 0
    members: int = 0
    guests: int = 0
    days: int = 0
    sign_ins: int = 0
    tables: int = 0
    games: int = 0
    hands: int = 0
    seconds: float = 0.0

    def line(self) -> str:
        return (
            f"{self.people:,} people ({self.members:,} members, {self.guests:,} guests), "
            f"{self.days:,} club days, {self.sign_ins:,} sign-ins, {self.tables:,} tables, "
            f"{self.games:,} games, {self.hands:,} hands in {self.seconds:,.1f} s"
        )


# ---------------------------------------------------------------------------------------
# Pure helpers (no database)


def club_dates(rng: random.Random, year_start: datetime.date, count: int) -> list[datetime.date]:
    """``count`` club days in the year from ``year_start``: Tuesdays and Thursdays,
    adding other weekdays only when more days are asked than those give."""
    year_end = _add_years(year_start, 1)
    all_days = [
        year_start + datetime.timedelta(days=k) for k in range((year_end - year_start).days)
    ]
    candidates: list[datetime.date] = []
    for k, weekday in enumerate(WEEKDAY_PREFERENCE):
        candidates += [d for d in all_days if d.weekday() == weekday]
        if k >= 1 and len(candidates) >= count:
            break
    return sorted(rng.sample(candidates, min(count, len(candidates))))


def _add_years(day: datetime.date, years: int) -> datetime.date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February
        return day.replace(year=day.year + years, day=28)


def weighted_sample(rng: random.Random, items: list, weights: list[float], k: int) -> list:
    """``k`` distinct items, each drawn with probability growing with its weight
    (Efraimidis–Spirakis keys); deterministic for a given ``rng`` state."""
    if k <= 0 or not items:
        return []
    keyed = [(rng.random() ** (1.0 / w), i) for i, w in enumerate(weights)]
    keyed.sort(reverse=True)
    return [items[i] for _, i in keyed[:k]]


def room_code(rng: random.Random) -> str:
    return "".join(rng.choice(ROOM_CODE_ALPHABET) for _ in range(ROOM_CODE_LENGTH))


def table_token(rng: random.Random) -> str:
    return base64.urlsafe_b64encode(rng.getrandbits(192).to_bytes(24, "big")).decode()


# ---------------------------------------------------------------------------------------
# People


@dataclass
class _Member:
    person: Person
    weight: float  # how keen: relative chance of coming on a given day
    first_day: datetime.date
    last_day: datetime.date | None


@dataclass
class _Guest:
    person: Person
    weight: float


def _make_people(rng: random.Random, opts: LeagueOptions) -> tuple[list[_Member], list[_Guest]]:
    n_guests = max(1, round(opts.people * 0.2))
    n_members = opts.people - n_guests
    if n_members < 8:
        n_members, n_guests = opts.people, 0
    span_days = (opts.end - opts.start).days
    numbers = _next_membership_numbers(n_members)
    used_names: set[tuple[str, str]] = set()

    def name() -> tuple[str, str]:
        for _ in range(50):
            pair = (rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES))
            if pair not in used_names:
                break
        used_names.add(pair)
        return pair

    members: list[_Member] = []
    for number in numbers:
        first, last = name()
        if rng.random() < 0.7:
            joined = opts.start - datetime.timedelta(days=rng.randrange(30, 3650))
        else:
            joined = opts.start + datetime.timedelta(days=rng.randrange(max(span_days, 1)))
        lapsed = rng.random() < 0.08
        last_day = None
        if lapsed:
            begin = max(joined, opts.start)
            last_day = begin + datetime.timedelta(
                days=rng.randrange(max((opts.end - begin).days, 1))
            )
        person = Person(
            kind=Person.Kind.MEMBER,
            membership_number=number,
            first_name=first,
            last_name=last,
            email=f"{first}.{last}.{number}@example.org".lower(),
            phone=f"555-{rng.randrange(10000):04d}",
            status=Person.Status.LAPSED if lapsed else Person.Status.ACTIVE,
            joined=joined,
        )
        weight = 0.15 + rng.betavariate(2, 2)
        members.append(_Member(person, weight, max(joined, opts.start), last_day))
    bulk_create_with_history([m.person for m in members], Person)

    guests: list[_Guest] = []
    hosts = [m for m in members if m.last_day is None] or members
    for _ in range(n_guests):
        first, last = name()
        host = rng.choice(hosts)
        person = Person(
            kind=Person.Kind.GUEST,
            first_name=first,
            last_name=last,
            brought_by=host.person,
        )
        guests.append(_Guest(person, 0.2 + rng.random()))
    bulk_create_with_history([g.person for g in guests], Person)
    return members, guests


def _next_membership_numbers(count: int) -> list[str]:
    """Numbers after the highest numeric membership number already used (so
    ``--append`` never collides)."""
    highest = 1000
    for number in Person.objects.exclude(membership_number__isnull=True).values_list(
        "membership_number", flat=True
    ):
        if number.isdigit():
            highest = max(highest, int(number))
    return [str(highest + 1 + k) for k in range(count)]


def _attendance(
    rng: random.Random,
    day: datetime.date,
    members: list[_Member],
    guests_by_host: dict[int, list[_Guest]],
    opts: LeagueOptions,
) -> tuple[list[Person], dict[int, Person]]:
    """Who comes on ``day``: 4 × tables people, members mostly, about ``guest_share``
    guests each brought by a member who came. Returns (people, guest pk → host)."""
    available = [
        m for m in members if m.first_day <= day and (m.last_day is None or day <= m.last_day)
    ]
    tables = rng.randint(opts.tables_min, opts.tables_max)
    tables = min(tables, (len(available) + sum(len(v) for v in guests_by_host.values())) // 4)
    if tables < 1:
        return [], {}
    seats = 4 * tables
    n_guests = sum(1 for _ in range(seats) if rng.random() < opts.guest_share)
    n_members = min(seats - n_guests, len(available))
    chosen = weighted_sample(rng, available, [m.weight for m in available], n_members)
    present = [m.person for m in chosen]
    eligible = [g for m in chosen for g in guests_by_host.get(m.person.pk, ())]
    need = seats - len(present)
    guests = weighted_sample(rng, eligible, [g.weight for g in eligible], need)
    hosts = {g.person.pk: g.person.brought_by for g in guests}
    present += [g.person for g in guests]
    if len(present) < seats:
        # Not enough guests came with the members present: more members, if any.
        taken = {id(m) for m in chosen}
        rest = [m for m in available if id(m) not in taken]
        extra = weighted_sample(rng, rest, [m.weight for m in rest], seats - len(present))
        present += [m.person for m in extra]
    usable = len(present) - len(present) % 4
    if usable < len(present):
        dropped = present[usable:]
        present = present[:usable]
        for p in dropped:
            hosts.pop(p.pk, None)
    return present, hosts


# ---------------------------------------------------------------------------------------
# Writing one club day


class _Writer:
    def __init__(self, rng: random.Random, rule_set: RuleSet, *, hand_by_hand: bool):
        self.rng = rng
        self.rule_set = rule_set
        self.hand_by_hand = hand_by_hand
        self.tz = ZoneInfo(settings.TIME_ZONE)
        self.codes = set(Table.objects.values_list("room_code", flat=True))
        self.summary = LeagueSummary()

    def _code(self) -> str:
        while True:
            code = room_code(self.rng)
            if code not in self.codes:
                self.codes.add(code)
                return code

    def _at(self, date: datetime.date, minutes: float) -> datetime.datetime:
        start = datetime.datetime.combine(date, PLAY_STARTS, tzinfo=self.tz)
        return start + datetime.timedelta(minutes=minutes)

    def write_day(self, date: datetime.date, present: list[Person], hosts: dict) -> None:
        rng = self.rng
        with transaction.atomic():
            day = ClubDay.objects.create(
                date=date, title=DAY_TITLES[date.weekday()], status=ClubDay.Status.OPEN
            )
            services.set_day_rules(day, self.rule_set)
            bulk_create_with_history(
                [
                    SignIn(
                        day=day,
                        person=p,
                        card_shown=rng.random() < 0.9,
                        brought_by=hosts.get(p.pk) if p.is_guest else None,
                    )
                    for p in present
                ],
                SignIn,
                default_date=self._at(date, -30),
            )
            # auto_now_add stamps "now"; the door opens half an hour before play.
            SignIn.objects.filter(day=day).update(signed_in_at=self._at(date, -30))
            draw_seed = rng.getrandbits(48)
            # In the order services.draw_round draws them (signed_in_ids), so the
            # round's seed replays this seating.
            order = sorted(p.pk for p in present)
            draw = seating.draw(order, seating.SIT_OUT, random.Random(draw_seed))
            round_ = Round.objects.create(
                day=day,
                number=1,
                started=True,
                remainder=seating.SIT_OUT,
                seed=draw_seed,
                drawn_at=self._at(date, -10),
            )
            tables = Table.objects.bulk_create(
                [
                    Table(
                        round=round_,
                        number=number,
                        room_code=self._code(),
                        token=table_token(rng),
                    )
                    for number, _ in draw.numbered()
                ]
            )
            by_pk = {p.pk: p for p in present}
            seats = []
            for table, (_number, people) in zip(tables, draw.numbered(), strict=True):
                for position, pid in enumerate(people, start=1):
                    seats.append(Seat(round=round_, table=table, person_id=pid, position=position))
            Seat.objects.bulk_create(seats)
            for table, (_number, people) in zip(tables, draw.numbered(), strict=True):
                self._play_table(table, [by_pk[pid] for pid in people])
            day.status = ClubDay.Status.CLOSED
            day.closed_at = self._at(date, 6 * 60)
            day.save(update_fields=["status", "closed_at"])
        self.summary.days += 1
        self.summary.sign_ins += len(present)
        self.summary.tables += len(tables)

    def _play_table(self, table: Table, people: list[Person]) -> None:
        """Two games of four at the table: partners opposite (seats 1 & 3, 2 & 4), then
        new partnerships drawn the club's way."""
        rng = self.rng
        a, b, c, d = people
        keeper = rng.choice(people)
        clock = rng.uniform(0, 10)
        game = services.start_game(
            table,
            [[a, c], [b, d]],
            rule_set=self.rule_set,
            score_keeper=keeper,
            first_dealer=rng.choice(people),
            now=self._at(table.round.day.date, clock),
        )
        clock = self._play_game(game, table, clock)
        left, right = services.keeper_neighbours(people, keeper)
        teams = services.club_partnerships(people, keeper, rng.choice((left, right)))
        clock += rng.uniform(3, 10)
        second = services.next_game(
            game,
            teams,
            score_keeper=keeper,
            first_dealer=rng.choice(people),
            now=self._at(table.round.day.date, clock),
        )
        self._play_game(second, table, clock)

    def _play_game(self, game: Game, table: Table, clock: float) -> float:
        rng = self.rng
        inputs_list, times = [], []
        date = table.round.day.date
        for inputs, _before, _outcome in play_game(rng, game.engine_rules()):
            clock += rng.uniform(*MINUTES_PER_HAND)
            inputs_list.append(inputs)
            times.append(self._at(date, clock))
        via = f"Table {table.number} link"
        if not self.hand_by_hand:
            # Ratings are replayed once a year (the same numbers, much faster).
            services.record_played_game(game, inputs_list, times=times, via=via, rate=False)
        else:
            for number, (inputs, moment) in enumerate(zip(inputs_list, times, strict=True), 1):
                services.record_hand(game, inputs, number=number, via=via, now=moment)
        self.summary.games += 1
        self.summary.hands += len(inputs_list)
        return clock


# ---------------------------------------------------------------------------------------
# Entry point


def league_rule_set(slug: str = "") -> RuleSet:
    services.ensure_presets()
    if slug:
        rule_set = RuleSet.objects.filter(slug=slug).first()
        if rule_set is None:
            raise LeagueError(f"There is no rule set '{slug}'.")
    else:
        rule_set = RuleSet.objects.club_default() or RuleSet.objects.get(slug="club")
    rules = rule_set.as_engine()
    if rules.players != 4 or rules.teams != 2:
        raise LeagueError(
            f"The generated league plays tables of four in two partnerships; "
            f"'{rule_set.name}' is for {rules.players} players."
        )
    return rule_set


def generate_league(
    opts: LeagueOptions | None = None,
    *,
    progress: Callable[[str], None] | None = None,
    hand_by_hand: bool = False,
) -> LeagueSummary:
    """Write a whole league (see the module docstring). ``progress`` is called with one
    line per year. ``hand_by_hand``: record every hand with ``services.record_hand``
    (ratings as each game ends) instead of a game at a time with
    ``services.record_played_game``; slower, and the rows must be the same (a test
    compares them)."""
    opts = opts or LeagueOptions()
    opts.check()
    began = time.perf_counter()
    rng = random.Random(opts.seed)
    rule_set = league_rule_set(opts.rule_set_slug)
    with transaction.atomic():
        members, guests = _make_people(rng, opts)
        for year in range(opts.years):
            year_start = _add_years(opts.start, year)
            year_end = _add_years(opts.start, year + 1) - datetime.timedelta(days=1)
            Season.objects.get_or_create(
                name=_season_name(year_start, year_end),
                defaults={"start": year_start, "end": year_end},
            )
    guests_by_host: dict[int, list[_Guest]] = {}
    for g in guests:
        guests_by_host.setdefault(g.person.brought_by_id, []).append(g)
    writer = _Writer(rng, rule_set, hand_by_hand=hand_by_hand)
    summary = writer.summary
    summary.members, summary.guests = len(members), len(guests)
    summary.people = len(members) + len(guests)
    for year in range(opts.years):
        year_start = _add_years(opts.start, year)
        before = (summary.days, summary.games, summary.hands, time.perf_counter())
        dates = club_dates(rng, year_start, opts.days_per_year)
        for date in dates:
            present, hosts = _attendance(rng, date, members, guests_by_host, opts)
            if present:
                writer.write_day(date, present, hosts)
        if not hand_by_hand and dates:
            ratings.replay_from(dates[0])
        days, games, hands = (
            summary.days - before[0],
            summary.games - before[1],
            summary.hands - before[2],
        )
        seconds = time.perf_counter() - before[3]
        if progress:
            progress(
                f"Year {year + 1}/{opts.years} (from {year_start.isoformat()}): {days} club "
                f"days, {games:,} games, {hands:,} hands in {seconds:,.1f} s"
            )
    summary.seconds = time.perf_counter() - began
    return summary


def _season_name(start: datetime.date, end: datetime.date) -> str:
    if start.month == 1 and start.day == 1:
        return str(start.year)
    return f"{start.year}–{end.year}"


# ---------------------------------------------------------------------------------------
# A canonical dump, to compare two leagues (same seed → same rows)


def canonical_rows() -> dict[str, list]:
    """Every generated row as plain tuples keyed by natural keys (names, dates, numbers),
    never by database ids or "created at" stamps, so two runs can be compared."""
    from scoring.models import GameTeam, Hand, RatingPoint, TeamHand, TeamPlayer

    people = {
        p.pk: (p.kind, p.membership_number or "", p.first_name, p.last_name)
        for p in Person.objects.all()
    }
    person_rows = sorted(
        (*people[p.pk], p.status, str(p.joined), p.email, p.phone, people.get(p.brought_by_id))
        for p in Person.objects.all()
    )
    days = {d.pk: str(d.date) for d in ClubDay.objects.all()}
    day_rows = sorted(
        (str(d.date), d.title, d.status, str(d.closed_at)) for d in ClubDay.objects.all()
    )
    signins = sorted(
        (days[s.day_id], people[s.person_id], s.card_shown, people.get(s.brought_by_id))
        for s in SignIn.objects.all()
    )
    tables = {}
    table_rows = []
    for t in Table.objects.select_related("round"):
        tables[t.pk] = (days[t.round.day_id], t.round.number, t.number)
        table_rows.append((*tables[t.pk], t.room_code, t.token, t.round.seed))
    seats = sorted(
        (tables[s.table_id], s.position, people[s.person_id]) for s in Seat.objects.all()
    )
    games = {}
    game_rows = []
    for g in Game.objects.all():
        games[g.pk] = (tables[g.table_id], g.number)
        game_rows.append(
            (
                games[g.pk],
                g.rules_name,
                g.status,
                people.get(g.score_keeper_id),
                people.get(g.first_dealer_id),
                g.hand_count,
                g.version,
                str(g.started_at),
                str(g.finished_at),
            )
        )
    teams = {}
    team_rows = []
    for t in GameTeam.objects.all():
        teams[t.pk] = (games[t.game_id], t.index)
        team_rows.append(
            (
                teams[t.pk],
                t.total,
                t.minimum,
                t.points_against,
                t.hands,
                t.natural_canastas,
                t.mixed_canastas,
                t.red_threes,
                t.times_out,
                t.concealed_outs,
                t.perfect_cuts,
                t.best_hand,
                t.won,
            )
        )
    winners = sorted((games[g.pk], teams.get(g.winner_id)) for g in Game.objects.all())
    players = sorted(
        (teams[p.team_id], p.seat, people[p.person_id]) for p in TeamPlayer.objects.all()
    )
    hands = {}
    hand_rows = []
    for h in Hand.objects.all():
        hands[h.pk] = (games[h.game_id], h.number)
        hand_rows.append(
            (
                hands[h.pk],
                repr(h.inputs),
                people.get(h.dealer_id),
                h.entered_via,
                h.version,
                str(h.created_at),
            )
        )
    team_hand_rows = sorted(
        (
            hands[r.hand_id],
            teams[r.team_id],
            r.melded_points,
            r.natural_canastas,
            r.mixed_canastas,
            r.red_threes,
            r.went_out,
            r.hand_points,
            r.perfect_cut,
            r.penalty_points,
            repr(sorted(r.breakdown.items())),
            r.hand_score,
            r.score_before,
            r.score_after,
            r.minimum_before,
            r.minimum_next,
        )
        for r in TeamHand.objects.all()
    )
    rating_rows = sorted(
        (people[r.person_id], games[r.game_id], str(r.played_on), round(r.ordinal, 9))
        for r in RatingPoint.objects.all()
    )
    return {
        "people": person_rows,
        "days": day_rows,
        "signins": signins,
        "tables": sorted(table_rows),
        "seats": seats,
        "games": sorted(game_rows),
        "winners": winners,
        "teams": sorted(team_rows),
        "players": players,
        "hands": sorted(hand_rows),
        "team_hands": team_hand_rows,
        "ratings": rating_rows,
        "seasons": sorted((s.name, str(s.start), str(s.end)) for s in Season.objects.all()),
    }
