"""Journey: a member's own page on a narrow phone, in Spanish, with "Larger" on.

Long labels in large print ("Correo electrónico") once took the width of "My details",
leaving the e-mail address a letter a line and the page scrolling sideways at 320 px.
The page, its bookings card included, must fit and keep every control 48 px or more.
"""

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clubsite.tests.test_journey_display import assert_large_controls, no_sideways_scroll
from members.tests.factories import ClubDayFactory, MemberFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_my_page_fits_a_narrow_phone_in_large_print(journey, django_user_model):
    user = django_user_model.objects.create_user("ana", password="pass-123-secret")
    MemberFactory(
        first_name="Ana",
        last_name="Socia",
        membership_number="1001",
        email="ana.socia.de.la.canasta@example.org",
        language="es",
        user=user,
    )
    ClubDayFactory(date=timezone.localdate() + datetime.timedelta(days=7), title="Jueves")
    page = journey.page
    journey.login("ana", "pass-123-secret")
    journey.goto("/")
    page.locator(".display-switch button[name=larger]").click()
    page.wait_for_load_state()
    expect(page.locator("html")).to_have_class("larger")
    for width in (320, 390):
        page.set_viewport_size({"width": width, "height": 844})
        journey.goto("/me/")
        expect(page.get_by_role("heading", name="Reservar un día de club")).to_be_visible()
        expect(page.locator(".details dd").first).to_have_text(
            "ana.socia.de.la.canasta@example.org"
        )
        where = f"my page, es, larger, {width} px"
        no_sideways_scroll(page, width, where)
        assert_large_controls(page, where)
        journey.step(where)
