"""The admin lists the bookings' rows for the platform operator."""

import pytest
from django.urls import reverse

from members.bookings.models import Announcement, Booking, BookingSettings, Notice, Substitute
from members.bookings.services import bookings

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", [BookingSettings, Booking, Announcement, Notice, Substitute])
def test_admin_lists_open_and_search(admin_client, model, soon, people, rules):
    made = [bookings.book(soon, p).booking for p in people[:5]]
    bookings.cancel(made[0])  # a promotion and its notice
    Substitute.objects.create(person=people[6])
    url = reverse(f"admin:bookings_{model._meta.model_name}_changelist")
    assert admin_client.get(url).status_code == 200
    assert admin_client.get(url, {"q": "Ann"}).status_code == 200
