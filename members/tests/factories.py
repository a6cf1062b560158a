"""factory-boy factories for people, club days and sign-ins."""

import datetime as dt

import factory

from members.models import ClubDay, Person, SignIn


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


class GuestFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Person

    kind = Person.Kind.GUEST
    membership_number = None
    first_name = factory.Sequence(lambda n: f"Guest{n}")
    last_name = "Visitor"
    brought_by = factory.SubFactory(MemberFactory)


class ClubDayFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ClubDay

    date = dt.date(2026, 11, 19)
    title = "Thursday"
    status = ClubDay.Status.OPEN


class SignInFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = SignIn

    day = factory.SubFactory(ClubDayFactory)
    person = factory.SubFactory(MemberFactory)
    card_shown = True
