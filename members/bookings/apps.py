from django.apps import AppConfig


class BookingsConfig(AppConfig):
    """The club's week around its nights: bookings of club days, the waiting list, a
    partner, the substitutes and the club's announcements (docs/officers.md)."""

    name = "members.bookings"
    label = "bookings"
    verbose_name = "Bookings and the club's news"

    def ready(self):
        from django.db.models.signals import post_delete, post_save

        from members.bookings.models import Booking, BookingSettings
        from members.bookings.reads import days_changed_by
        from members.models import ClubDay, Person

        # A member's next days are kept in the shared cache (members.bookings.reads):
        # a change to what they show retires the club's copies.
        for model in (Booking, BookingSettings, ClubDay, Person):
            for signal in (post_save, post_delete):
                signal.connect(
                    days_changed_by, sender=model, dispatch_uid=f"bookings-days-{model.__name__}"
                )
