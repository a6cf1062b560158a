"""The bookings app's rows: a club's booking settings, the bookings of its days, the
mail choices and the outbox of this app's e-mails, the substitutes, the partner
messages and the announcements. Every row is club-owned (``club_field``) and read
through the club scope (``club_manager``)."""

from members.bookings.models.bookings import Booking, BookingQuerySet, BookingSettings
from members.bookings.models.mail import MailChoice, Notice
from members.bookings.models.news import (
    Announcement,
    AnnouncementQuerySet,
    PartnerMessage,
    Substitute,
    SubstituteCall,
)

__all__ = [
    "Announcement",
    "AnnouncementQuerySet",
    "Booking",
    "BookingQuerySet",
    "BookingSettings",
    "MailChoice",
    "Notice",
    "PartnerMessage",
    "Substitute",
    "SubstituteCall",
]
