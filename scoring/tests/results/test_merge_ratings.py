"""A merge of two records of one person replays the ratings over both records' games."""

import datetime

import pytest

from members import services as member_services
from members.tests.factories import ClubDayFactory, MemberFactory, TableFactory
from scoring.models import RatingPoint
from scoring.tests import games

pytestmark = pytest.mark.django_db(transaction=True)


def test_merging_two_records_gives_the_kept_one_the_ratings_of_both():
    kept = MemberFactory(first_name="Rose", last_name="Reed")
    twin = MemberFactory(first_name="Rosie", last_name="Reed")
    others = games.people(6)
    day1 = ClubDayFactory(date=datetime.date(2025, 1, 9), signed_in=[kept, *others[:3]])
    games.win(
        TableFactory(round__day=day1, seated=[kept, *others[:3]]), [kept, others[0]], others[1:3]
    )
    day2 = ClubDayFactory(date=datetime.date(2025, 1, 16), signed_in=[twin, *others[3:]])
    games.win(
        TableFactory(round__day=day2, seated=[twin, *others[3:]]), [twin, others[3]], others[4:6]
    )
    assert RatingPoint.objects.filter(person=kept).count() == 1
    assert RatingPoint.objects.filter(person=twin).count() == 1
    first_rating = RatingPoint.objects.get(person=kept).ordinal

    member_services.merge_people(kept, twin)

    points = list(RatingPoint.objects.filter(person=kept).order_by("played_on"))
    assert [p.played_on for p in points] == [day1.date, day2.date]
    assert not RatingPoint.objects.filter(person=twin).exists()
    # Two wins in a row rate higher than one.
    assert points[1].ordinal > first_rating
