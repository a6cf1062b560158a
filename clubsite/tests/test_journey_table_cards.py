"""Journey: the table cards print two to an A4 sheet, each filling its half, with a QR
code about 7 cm wide (a phone reads it from across the table)."""

import re

import pytest
from django.utils import timezone

from members.tests.factories import ClubDayFactory, MemberFactory, RoundFactory, TableFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MM = 96 / 25.4  # CSS pixels per millimetre


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_four_table_cards_print_on_two_a4_sheets(journey, officer_user):
    day = ClubDayFactory(date=timezone.localdate())
    round1 = RoundFactory(day=day, number=1)
    for number in range(1, 5):
        TableFactory(round=round1, number=number, seated=[MemberFactory() for _ in range(4)])
    page = journey.page
    journey.login("officer", "officer-pass-123")
    journey.goto(f"/days/{day.pk}/table-cards/")
    journey.step("table cards on a phone")

    page.set_viewport_size({"width": round(210 * MM), "height": round(297 * MM)})
    page.emulate_media(media="print")
    qr = page.locator(".table-card .qr svg").first.bounding_box()
    card = page.locator(".table-card").first.bounding_box()
    assert qr["width"] >= 65 * MM and qr["height"] >= 65 * MM  # not 2 cm
    assert 125 * MM <= card["height"] <= 140 * MM  # half an A4 sheet each
    pdf = page.pdf(format="A4", print_background=True)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 2
    page.emulate_media(media="screen")
