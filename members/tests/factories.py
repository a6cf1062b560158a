"""factory-boy factories: the one way tests build the stored rows of `members`.

People (members and guests), club days, sign-ins, rounds, tables and seats. The
`scoring` tests build their club days and tables with these too; games and hands are
never made here, only through the play services (`scoring.tests.games`).

Two shortcuts say what a test means in one call:

- ``ClubDayFactory(date=..., signed_in=[ann, bob])``: those people signed in at the
  door (a member with the card shown, a guest without).
- ``TableFactory(round__day=day, seated=[a, b, c, d])``: a table of round 1 of ``day``
  (the round is made if missing) with ``a, b, c, d`` at positions 1, 2, 3, 4, so the
  partners of a four-player game sit at 1 & 3 and 2 & 4.
"""

import datetime as dt

import factory

from members.models import ClubDay, Person, Round, Seat, SignIn, Table


class MemberFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Person

    kind = Person.Kind.MEMBER
    membership_number = factory.Sequence(lambda n: str(2000 + n))
    first_name = factory.Sequence(lambda n: f"First{n}")
    last_name = factory.Sequence(lambda n: f"Last{n}")
    email = factory.LazyAttribute(lambda p: f"{p.first_name.lower()}@example.org")
    phone = "555-0000"
    status = Person.Status.ACTIVE
    joined = dt.date(2020, 1, 1)

    class Params:
        # Nothing on record but a name and a number, as on an old paper roster (the
        # results tests check what such a member shows as).
        name_only = factory.Trait(email="", phone="", joined=None)


class GuestFactory(factory.django.DjangoModelFactory):
    """A guest; pass ``brought_by=None`` for a guest nobody is recorded as bringing
    (otherwise a member is made to have brought them)."""

    class Meta:
        model = Person

    kind = Person.Kind.GUEST
    membership_number = None
    first_name = factory.Sequence(lambda n: f"Guest{n}")
    last_name = "Visitor"
    brought_by = factory.SubFactory(MemberFactory)


class SignInFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = SignIn

    day = factory.SubFactory("members.tests.factories.ClubDayFactory")
    person = factory.SubFactory(MemberFactory)
    card_shown = True


class ClubDayFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ClubDay
        skip_postgeneration_save = True

    date = dt.date(2026, 11, 19)
    title = "Thursday"
    status = ClubDay.Status.OPEN

    @factory.post_generation
    def signed_in(day, create, people, **kwargs):
        """Sign ``people`` in at the door, as an officer would: a member's card is seen,
        a guest has none to show."""
        if not create:
            return
        for person in people or ():
            SignInFactory(day=day, person=person, card_shown=not person.is_guest)


class RoundFactory(factory.django.DjangoModelFactory):
    """A round of a club day; asking again for the same (day, number) gives the same
    round, so several tables can be put in one round without building it first."""

    class Meta:
        model = Round
        django_get_or_create = ("day", "number")

    day = factory.SubFactory(ClubDayFactory)
    number = 1


class TableFactory(factory.django.DjangoModelFactory):
    """A table numbered after the round's last one (a random room code and token, as
    the app makes them); ``seated=[...]`` puts people at positions 1, 2, 3, ..."""

    class Meta:
        model = Table
        skip_postgeneration_save = True

    round = factory.SubFactory(RoundFactory)
    number = factory.LazyAttribute(lambda t: t.round.tables.count() + 1)

    @factory.post_generation
    def seated(table, create, people, **kwargs):
        if not create:
            return
        for position, person in enumerate(people or (), start=1):
            SeatFactory(table=table, person=person, position=position)


class SeatFactory(factory.django.DjangoModelFactory):
    """A person at a table, in the table's round, at the next free position."""

    class Meta:
        model = Seat

    table = factory.SubFactory(TableFactory)
    round = factory.SelfAttribute("table.round")
    person = factory.SubFactory(MemberFactory)
    position = factory.LazyAttribute(lambda s: s.table.seats.count() + 1)
