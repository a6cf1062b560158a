"""Django admin for every members model: search, filters, related rows at a glance."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from members.models import Club, ClubDay, ClubRole, MergeRecord, Person, Round, Seat, SignIn, Table


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    """The platform operator's (a superuser's) list of clubs."""

    list_display = ("name", "slug", "host", "is_active", "root_links", "time_zone", "created_at")
    list_filter = ("is_active",)
    search_fields = ("name", "slug", "host")
    readonly_fields = ("created_at",)


@admin.register(ClubRole)
class ClubRoleAdmin(admin.ModelAdmin):
    list_display = ("user", "club", "role", "created_at")
    list_filter = ("role", "club")
    search_fields = ("user__username", "user__email", "club__name", "club__slug")
    list_select_related = ("user", "club")
    raw_id_fields = ("user",)


@admin.register(Person)
class PersonAdmin(SimpleHistoryAdmin):
    list_display = (
        "last_name",
        "first_name",
        "kind",
        "membership_number",
        "status",
        "email",
        "phone",
        "joined",
        "brought_by",
        "merged_into",
    )
    list_display_links = ("last_name", "first_name")
    list_filter = ("kind", "status", ("merged_into", admin.EmptyFieldListFilter), "joined")
    search_fields = ("first_name", "last_name", "membership_number", "email", "phone")
    list_select_related = ("brought_by", "merged_into")
    raw_id_fields = ("brought_by", "user")
    # Merging goes through the People pages (members.services.merge_people), which moves
    # sign-ins, seats and games and keeps a MergeRecord; never by setting this field.
    readonly_fields = ("merged_into", "created_at", "updated_at")
    date_hierarchy = "joined"


@admin.register(MergeRecord)
class MergeRecordAdmin(admin.ModelAdmin):
    list_display = ("merged_at", "kept", "removed", "merged_by")
    list_filter = ("merged_at",)
    search_fields = (
        "kept__first_name",
        "kept__last_name",
        "kept__membership_number",
        "removed__first_name",
        "removed__last_name",
    )
    list_select_related = ("kept", "removed", "merged_by")
    raw_id_fields = ("kept", "removed")
    readonly_fields = ("merged_at",)


@admin.register(ClubDay)
class ClubDayAdmin(admin.ModelAdmin):
    list_display = ("date", "title", "status", "closed_at")
    list_filter = ("status", "date")
    search_fields = ("title", "date")
    date_hierarchy = "date"
    readonly_fields = ("created_at",)


@admin.register(SignIn)
class SignInAdmin(SimpleHistoryAdmin):
    list_display = ("day", "person", "card_shown", "brought_by", "signed_in_at", "signed_in_by")
    list_filter = ("card_shown", "day__status", "person__kind", "day")
    search_fields = (
        "person__first_name",
        "person__last_name",
        "person__membership_number",
        "day__title",
    )
    list_select_related = ("day", "person", "brought_by", "signed_in_by")
    raw_id_fields = ("day", "person", "brought_by", "signed_in_by")


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    readonly_fields = ("room_code", "token")


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("day", "number", "started", "remainder", "drawn_at")
    list_filter = ("started", "remainder", "day__status")
    search_fields = ("day__title", "day__date")
    list_select_related = ("day",)
    raw_id_fields = ("day",)
    inlines = [TableInline]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("number", "round", "room_code")
    list_filter = ("round__started", "round__day")
    search_fields = ("room_code", "round__day__title")
    list_select_related = ("round__day",)
    raw_id_fields = ("round",)
    readonly_fields = ("token",)


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("person", "table", "position", "round")
    list_filter = ("round__started", "round__day")
    search_fields = ("person__first_name", "person__last_name", "person__membership_number")
    list_select_related = ("person", "table", "round__day")
    raw_id_fields = ("round", "table", "person")
