from django.apps import AppConfig


class BookingsConfig(AppConfig):
    """The club's week around its nights: bookings of club days, the waiting list, a
    partner, the substitutes and the club's announcements (docs/officers.md)."""

    name = "members.bookings"
    label = "bookings"
    verbose_name = "Bookings and the club's news"
