"""Django admin for the bookings app (the platform operator's: the admin runs with the
club scope disabled, clubsite/admin.py). Clubs manage their bookings on their pages."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from members.bookings.models import (
    Announcement,
    Booking,
    BookingSettings,
    Notice,
    Substitute,
)


@admin.register(BookingSettings)
class BookingSettingsAdmin(SimpleHistoryAdmin):
    list_display = ("club", "table_cap", "play_time", "cutoff", "guests_allowed")
    list_filter = ("cutoff", "guests_allowed", "seat_partners_together")
    search_fields = ("club__name", "club__slug")


@admin.register(Booking)
class BookingAdmin(SimpleHistoryAdmin):
    list_display = ("day", "person", "partner", "guest_name", "status", "queued_at", "no_show")
    list_filter = ("status", "no_show", "day")
    search_fields = ("person__first_name", "person__last_name", "guest_name", "day__title")
    list_select_related = ("day", "person", "partner")
    raw_id_fields = ("day", "person", "partner", "guest", "created_by", "changed_by")


@admin.register(Announcement)
class AnnouncementAdmin(SimpleHistoryAdmin):
    list_display = ("title", "kind", "first_day", "last_day", "created_at")
    list_filter = ("kind", "first_day")
    search_fields = ("title", "body")
    raw_id_fields = ("created_by",)


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    """The bookings' e-mails: one row per person per event, and whether it went."""

    list_display = ("event", "person", "email", "status", "created_at", "sent_at")
    list_filter = ("status", "kind", "created_at")
    search_fields = ("event", "email", "person__first_name", "person__last_name")
    list_select_related = ("person",)
    raw_id_fields = ("person",)
    readonly_fields = ("created_at", "sent_at")


@admin.register(Substitute)
class SubstituteAdmin(admin.ModelAdmin):
    list_display = ("person", "note", "added_at")
    list_filter = ("added_at",)
    search_fields = ("person__first_name", "person__last_name", "note")
    raw_id_fields = ("person",)
