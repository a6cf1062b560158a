"""A merge of two records of one person replays the ratings over both records' games."""

import datetime

import pytest

from members import services as member_services
from scoring.models import RatingPoint
from scoring.play import services
from scoring.tests.results import builders as b

pytestmark = pytest.mark.django_db(transaction=True)


def test_merging_two_records_gives_the_kept_one_the_ratings_of_both():
    services.ensure_presets()  # a transactional test starts from a flushed database
    kept = b.person("Rose", "Reed")
    twin = b.person("Rosie", "Reed")
    others = b.people(6)
    day1 = b.club_day(datetime.date(2025, 1, 9), sign_in=[kept, *others[:3]])
    b.win(b.table(day1, [kept, *others[:3]]), [kept, others[0]], others[1:3])
    day2 = b.club_day(datetime.date(2025, 1, 16), sign_in=[twin, *others[3:]])
    b.win(b.table(day2, [twin, *others[3:]]), [twin, others[3]], others[4:6])
    assert RatingPoint.objects.filter(person=kept).count() == 1
    assert RatingPoint.objects.filter(person=twin).count() == 1
    first_rating = RatingPoint.objects.get(person=kept).ordinal

    member_services.merge_people(kept, twin)

    points = list(RatingPoint.objects.filter(person=kept).order_by("played_on"))
    assert [p.played_on for p in points] == [day1.date, day2.date]
    assert not RatingPoint.objects.filter(person=twin).exists()
    # Two wins in a row rate higher than one.
    assert points[1].ordinal > first_rating
