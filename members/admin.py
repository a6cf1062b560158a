"""Django admin for every members model: search, filters, related rows at a glance."""

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from simple_history.admin import SimpleHistoryAdmin

from members.clubs.addresses import clubs_changed, fold_host, host_problem
from members.clubs.moves import record_move
from members.models import (
    Club,
    ClubDay,
    ClubRole,
    ClubSlugRedirect,
    MergeRecord,
    Person,
    Round,
    Seat,
    SignIn,
    Table,
)


class SuperuserOnly:
    """Clubs and their roles are the platform operator's: a superuser's alone, even for
    a staff login given the models' permissions."""

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser

    def has_change_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser

    def has_add_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser

    def has_delete_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser


class OldSlugInline(admin.TabularInline):
    """The club's old addresses, which redirect to its slug now; deleting one ends its
    redirect and frees the slug for another club."""

    model = ClubSlugRedirect
    extra = 0
    fields = ("old_slug", "created_at")
    readonly_fields = ("old_slug", "created_at")
    verbose_name_plural = "old addresses (they redirect here)"

    def has_add_permission(self, request, obj=None):
        return False


class ClubAdminForm(forms.ModelForm):
    """The club's fields; its host name by the site's rule (members.clubs.addresses)."""

    class Meta:
        model = Club
        fields = [
            "name",
            "slug",
            "is_active",
            "time_zone",
            "language_code",
            "results_sender_name",
            "results_reply_to",
            "host",
            "root_links",
        ]

    def clean_host(self):
        host = fold_host(self.cleaned_data.get("host")) or None
        problem = host_problem(host, self.instance)
        if problem:
            raise ValidationError(problem)
        return host


@admin.register(Club)
class ClubAdmin(SuperuserOnly, admin.ModelAdmin):
    """The platform operator's clubs: search, suspend or reopen (the actions, or the
    "Is active" box), rename (its name), move (its slug: the old slug then redirects
    for good). A club is made with ``manage.py create_club`` or the sign-up, which give
    it its settings; it is removed with ``manage.py delete_club``."""

    form = ClubAdminForm
    list_display = ("name", "slug", "host", "is_active", "root_links", "time_zone", "created_at")
    list_filter = ("is_active",)
    search_fields = ("name", "slug", "host")
    readonly_fields = ("created_at",)
    actions = ("suspend_clubs", "reopen_clubs")
    inlines = (OldSlugInline,)

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        return ["name", "slug", "is_active"] + [
            f for f in fields if f not in ("name", "slug", "is_active")
        ]

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.base_fields["slug"].help_text = (
            "The club's part of the addresses: /<slug>/. Changing it moves the club: its "
            "old addresses then lead to the new ones for good, and no other club can take "
            "the old slug."
        )
        return form

    def has_add_permission(self, request, obj=None):
        return False  # manage.py create_club or the sign-up: they make its settings too

    def has_delete_permission(self, request, obj=None):
        return False  # manage.py delete_club: it removes the club's data first

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        old_slug = form.initial.get("slug")
        if change and old_slug and old_slug != obj.slug:
            record_move(obj, old_slug)
            self.message_user(
                request, f"{obj.name} moved: /{old_slug}/ now leads to /{obj.slug}/ for good."
            )

    @admin.action(description="Suspend the selected clubs (their pages show nothing)")
    def suspend_clubs(self, request, queryset):
        count = queryset.filter(is_active=True).update(is_active=False)
        clubs_changed()  # update() sends no signal: every server's kept addresses retire
        self.message_user(
            request,
            f"Suspended {count} club(s): their pages now say so and show nothing else.",
        )

    @admin.action(description="Reopen the selected clubs")
    def reopen_clubs(self, request, queryset):
        count = queryset.filter(is_active=False).update(is_active=True)
        clubs_changed()
        self.message_user(request, f"Reopened {count} club(s).")


@admin.register(ClubSlugRedirect)
class ClubSlugRedirectAdmin(SuperuserOnly, admin.ModelAdmin):
    """Old club addresses. Deleting one ends its redirect and frees the slug."""

    list_display = ("old_slug", "club", "created_at")
    search_fields = ("old_slug", "club__name", "club__slug")
    list_select_related = ("club",)
    readonly_fields = ("old_slug", "club", "created_at")

    def has_add_permission(self, request, obj=None):
        return False  # made by moving a club


@admin.register(ClubRole)
class ClubRoleAdmin(SuperuserOnly, admin.ModelAdmin):
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
