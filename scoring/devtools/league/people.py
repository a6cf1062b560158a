"""The league's people and who comes on a given day.

:func:`make_people` writes the members (a few of them lapsed) and the guests each
brought by a member, with their history rows (``bulk_create_with_history``);
:func:`attendance` picks the people at the tables on one club day. How keen a person is
(their weight) decides how often they come.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

from simple_history.utils import bulk_create_with_history

from members.models import Person
from scoring.devtools.league.options import LeagueOptions

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


@dataclass
class Member:
    person: Person
    weight: float  # how keen: relative chance of coming on a given day
    first_day: datetime.date
    last_day: datetime.date | None


@dataclass
class Guest:
    person: Person
    weight: float


class _Names:
    """First and last names drawn at random, a pair used twice only when 50 draws in a
    row found no new one."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.used: set[tuple[str, str]] = set()

    def draw(self) -> tuple[str, str]:
        for _ in range(50):
            pair = (self.rng.choice(FIRST_NAMES), self.rng.choice(LAST_NAMES))
            if pair not in self.used:
                break
        self.used.add(pair)
        return pair


def make_people(rng: random.Random, opts: LeagueOptions) -> tuple[list[Member], list[Guest]]:
    """Write about 80% members and 20% guests (all members when that leaves fewer than
    eight), with their history rows."""
    n_guests = max(1, round(opts.people * 0.2))
    n_members = opts.people - n_guests
    if n_members < 8:
        n_members, n_guests = opts.people, 0
    names = _Names(rng)
    members = _make_members(rng, opts, names, n_members)
    bulk_create_with_history([m.person for m in members], Person)
    guests = _make_guests(rng, members, names, n_guests)
    bulk_create_with_history([g.person for g in guests], Person)
    return members, guests


def _make_members(
    rng: random.Random, opts: LeagueOptions, names: _Names, count: int
) -> list[Member]:
    """Members joined before the league (70%) or during it; 8% lapse on a random day."""
    span_days = (opts.end - opts.start).days
    members: list[Member] = []
    for number in _next_membership_numbers(count):
        first, last = names.draw()
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
        members.append(Member(person, weight, max(joined, opts.start), last_day))
    return members


def _make_guests(
    rng: random.Random, members: list[Member], names: _Names, count: int
) -> list[Guest]:
    """Guests, each brought by a member who has not lapsed (any member if all have)."""
    guests: list[Guest] = []
    hosts = [m for m in members if m.last_day is None] or members
    for _ in range(count):
        first, last = names.draw()
        host = rng.choice(hosts)
        person = Person(
            kind=Person.Kind.GUEST,
            first_name=first,
            last_name=last,
            brought_by=host.person,
        )
        guests.append(Guest(person, 0.2 + rng.random()))
    return guests


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


def weighted_sample(rng: random.Random, items: list, weights: list[float], k: int) -> list:
    """``k`` distinct items, each drawn with probability growing with its weight
    (Efraimidis–Spirakis keys); deterministic for a given ``rng`` state."""
    if k <= 0 or not items:
        return []
    keyed = [(rng.random() ** (1.0 / w), i) for i, w in enumerate(weights)]
    keyed.sort(reverse=True)
    return [items[i] for _, i in keyed[:k]]


def attendance(
    rng: random.Random,
    day: datetime.date,
    members: list[Member],
    guests_by_host: dict[int, list[Guest]],
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
