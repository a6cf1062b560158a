"""Writing one club day of the league, in one transaction.

:class:`DayWriter` opens the day with its rule set, signs the people in at the door
(with their history rows), draws one seated round with ``members.draw.draw`` from the
people in the order ``members.services.draw_round`` uses (so the round's stored seed
replays its seating), lays out tables and seats with ``bulk_create``, has every table
play its two games (:mod:`scoring.devtools.league.games`), and closes the day. Times
are derived from the day's date, never read from the clock.
"""

from __future__ import annotations

import base64
import datetime
import random

from django.db import transaction
from simple_history.utils import bulk_create_with_history

from members import draw
from members.clubs.scope import current_club
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
from scoring.devtools.league.dates import DAY_TITLES, PLAY_STARTS
from scoring.devtools.league.games import play_table
from scoring.devtools.league.options import LeagueSummary
from scoring.models import RuleSet
from scoring.play.services import totals
from scoring.play.services.rulesets import set_day_rules


def room_code(rng: random.Random) -> str:
    return "".join(rng.choice(ROOM_CODE_ALPHABET) for _ in range(ROOM_CODE_LENGTH))


def table_token(rng: random.Random) -> str:
    return base64.urlsafe_b64encode(rng.getrandbits(192).to_bytes(24, "big")).decode()


class DayWriter:
    """Writes club days one after another with one ``rng``, adding to one summary."""

    def __init__(self, rng: random.Random, rule_set: RuleSet, *, hand_by_hand: bool):
        self.rng = rng
        self.rule_set = rule_set
        self.hand_by_hand = hand_by_hand
        self.tz = current_club().zone
        # Room codes and table links are unique across the site, not the club: another
        # club's league made with the same seed draws the same ones, and must not reuse
        # them (the base manager reads every club's).
        self.codes = set(Table._base_manager.values_list("room_code", flat=True))
        self.tokens = set(Table._base_manager.values_list("token", flat=True))
        self.summary = LeagueSummary()

    def _code(self) -> str:
        while True:
            code = room_code(self.rng)
            if code not in self.codes:
                self.codes.add(code)
                return code

    def _token(self) -> str:
        while True:
            token = table_token(self.rng)
            if token not in self.tokens:
                self.tokens.add(token)
                return token

    def at(self, date: datetime.date, minutes: float) -> datetime.datetime:
        """The moment ``minutes`` after play starts on ``date`` (before, if negative)."""
        start = datetime.datetime.combine(date, PLAY_STARTS, tzinfo=self.tz)
        return start + datetime.timedelta(minutes=minutes)

    def write_day(self, date: datetime.date, present: list[Person], hosts: dict) -> None:
        """The whole club day ``date`` with ``present`` at the tables (``hosts``: guest
        pk → the member who brought them)."""
        with transaction.atomic():
            # Its games' totals lock their players as each game ends; locking them all
            # now, in id order, means this long transaction never holds some while
            # waiting for others (a deadlock with ``rebuild_totals`` or a live game).
            totals.one_writer_per_person(p.pk for p in present)
            day = ClubDay.objects.create(
                date=date, title=DAY_TITLES[date.weekday()], status=ClubDay.Status.OPEN
            )
            set_day_rules(day, self.rule_set)
            self._sign_in(day, present, hosts)
            round_, seating = self._draw_round(day, present)
            tables = self._seat(round_, seating)
            by_pk = {p.pk: p for p in present}
            for table, (_number, people) in zip(tables, seating.numbered(), strict=True):
                play_table(self, table, [by_pk[pid] for pid in people])
            day.status = ClubDay.Status.CLOSED
            day.closed_at = self.at(date, 6 * 60)
            day.save(update_fields=["status", "closed_at"])
        self.summary.days += 1
        self.summary.sign_ins += len(present)
        self.summary.tables += len(tables)

    def _sign_in(self, day: ClubDay, present: list[Person], hosts: dict) -> None:
        door_opens = self.at(day.date, -30)  # half an hour before play
        bulk_create_with_history(
            [
                SignIn(
                    day=day,
                    person=p,
                    card_shown=self.rng.random() < 0.9,
                    brought_by=hosts.get(p.pk) if p.is_guest else None,
                )
                for p in present
            ],
            SignIn,
            default_date=door_opens,
        )
        # auto_now_add stamps "now"; the door opens half an hour before play.
        SignIn.objects.filter(day=day).update(signed_in_at=door_opens)

    def _draw_round(self, day: ClubDay, present: list[Person]) -> tuple[Round, draw.Draw]:
        draw_seed = self.rng.getrandbits(48)
        # In the order services.draw_round draws them (signed_in_ids), so the
        # round's seed replays this seating.
        order = sorted(p.pk for p in present)
        seating = draw.draw(order, draw.SIT_OUT, random.Random(draw_seed))
        round_ = Round.objects.create(
            day=day,
            number=1,
            started=True,
            remainder=draw.SIT_OUT,
            seed=draw_seed,
            drawn_at=self.at(day.date, -10),
        )
        return round_, seating

    def _seat(self, round_: Round, seating: draw.Draw) -> list[Table]:
        tables = Table.objects.bulk_create(
            [
                Table(
                    round=round_,
                    number=number,
                    room_code=self._code(),
                    token=self._token(),
                )
                for number, _ in seating.numbered()
            ]
        )
        seats = []
        for table, (_number, people) in zip(tables, seating.numbered(), strict=True):
            for position, pid in enumerate(people, start=1):
                seats.append(Seat(round=round_, table=table, person_id=pid, position=position))
        Seat.objects.bulk_create(seats)
        return tables
