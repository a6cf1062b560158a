"""Numbers arrive as text in query strings and hidden fields. Text that only looks like
digits ("²", "٣") or is far too long gets a normal answer, never an error page."""

import pytest
from django.urls import reverse
from django.utils import timezone

from clubsite.params import whole_number
from members.models import ClubDay, Person, Round, Seat, Table
from scoring.models import RuleSet
from scoring.play.forms import hand_form_data
from scoring.play.services.games import start_game
from scoring.play.services.hands import failed_meld_counts
from scoring.tests.samples import SMALL

pytestmark = pytest.mark.django_db

ODD = ["²", "٣", "9" * 5000, "-1", "1.5", " 1", ""]


@pytest.mark.parametrize("raw", ODD)
def test_whole_number_refuses_what_is_not_plain_digits(raw):
    assert whole_number(raw, default="none") == "none"


def test_whole_number_reads_plain_digits_up_to_the_limit():
    assert whole_number("0042") == 42
    assert whole_number("12345", digits=5) == 12345
    assert whole_number("123456", digits=5) is None
    assert whole_number(None) is None and whole_number(7) is None


@pytest.fixture
def game(db):
    day = ClubDay.objects.create(date=timezone.localdate(), title="Odd numbers")
    round_ = Round.objects.create(day=day, number=1, started=True)
    table = Table.objects.create(round=round_, number=1)
    people = [
        Person.objects.create(first_name=n, last_name="Odd", membership_number=str(900 + i))
        for i, n in enumerate("ABCD")
    ]
    for position, person in enumerate(people, start=1):
        Seat.objects.create(round=round_, table=table, person=person, position=position)
    a, b, c, d = people
    return start_game(
        table, [[a, c], [b, d]], rule_set=RuleSet.objects.get(slug="club"), score_keeper=a
    )


@pytest.mark.parametrize("raw", ODD)
def test_odd_numbers_in_requests_never_give_an_error_page(officer_client, game, raw):
    day = game.day
    hand_new = reverse("scoring:hand_new", args=[game.pk])
    responses = {
        "rule set to copy": officer_client.get(reverse("scoring:ruleset_new"), {"from": raw}),
        "rule set at a table": officer_client.get(
            reverse("scoring:game_start", args=[game.table_id]), {"rule_set": raw}
        ),
        "merge": officer_client.get(reverse("members:merge"), {"a": raw, "b": raw}),
        "seating round": officer_client.get(
            reverse("members:seating", args=[day.pk]), {"round": raw}
        ),
        "start a round": officer_client.post(
            reverse("members:seating_start", args=[day.pk]), {"round": raw}
        ),
        "failed meld": officer_client.post(hand_new, {"number": "1", "action": f"failed-{raw}"}),
        "save as hand": officer_client.post(
            hand_new, {**hand_form_data([SMALL, SMALL], 1), "as_number": raw}
        ),
        "undo": officer_client.post(
            reverse("scoring:hand_undo", args=[game.pk]), {"hand_count": raw}
        ),
    }
    for what, response in responses.items():
        assert response.status_code < 500, what
    assert responses["start a round"].status_code == 404  # no such round
    game.refresh_from_db()
    # An odd "save as hand N" falls back to the form's own number; an odd hand count
    # undoes nothing; an odd team counts no failed meld.
    assert game.hand_count == 1 and failed_meld_counts(game) == [0, 0]
