"""Django admin for every scoring model (the platform operator's: it sees every club,
``members.clubs.middleware`` runs it with the club scopes disabled).

Scores are written only by `scoring.play.services` (one transaction per hand, derived rows
rebuilt from the raw inputs), so the admin shows hands, teams and results read-only:
correct a hand on the game page, or run `manage.py rebuild_totals`.
"""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from scoring.models import (
    ClubSettings,
    DayRules,
    Game,
    GameTeam,
    Hand,
    HandConfirmation,
    KeeperChange,
    RatingPoint,
    RuleSet,
    Season,
    TeamHand,
    TeamPlayer,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Derived score rows: look, never edit here (the services keep them consistent)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class NeverDeletedAdmin(ReadOnlyAdmin):
    """Derived rows nothing in the admin may delete, not even by deleting what they
    belong to: a hand's team rows (hands are never deleted here) and ratings.
    (Teams and seats stay deletable only as part of a game started by mistake.)"""

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(RuleSet)
class RuleSetAdmin(SimpleHistoryAdmin):
    list_display = ("name", "slug", "club", "based_on", "is_preset", "updated_at")
    list_filter = ("is_preset", "club", "based_on")
    search_fields = ("name", "slug", "description")
    readonly_fields = ("created_at", "updated_at")

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.is_preset:
            fields += ["name", "slug", "based_on", "is_preset", "settings"]
        return fields


@admin.register(DayRules)
class DayRulesAdmin(admin.ModelAdmin):
    list_display = ("day", "rule_set")
    list_filter = ("rule_set",)
    search_fields = ("day__title", "rule_set__name")
    list_select_related = ("day", "rule_set")
    raw_id_fields = ("day",)


class GameTeamInline(admin.TabularInline):
    model = GameTeam
    extra = 0
    can_delete = False
    fields = ("index", "total", "minimum", "hands", "won")
    readonly_fields = fields
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "__str__",
        "day_date",
        "table",
        "number",
        "status",
        "hand_count",
        "rules_name",
        "started_at",
        "finished_at",
    )
    list_filter = ("status", "rules_name", "day_date")
    search_fields = ("rules_name", "players__person__first_name", "players__person__last_name")
    list_select_related = ("table", "day")
    date_hierarchy = "day_date"
    inlines = [GameTeamInline]
    readonly_fields = (
        "table",
        "day",
        "day_date",
        "number",
        "rule_set",
        "rules",
        "rules_name",
        "status",
        "winner",
        "hand_count",
        "started_at",
        "finished_at",
        "version",
        "score_keeper",
        "first_dealer",
    )

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        """Only a game started by mistake, before its first hand: a game with hands is
        undone hand by hand through the table page, so the totals, ratings and results
        follow (deleting it here would leave them counting it)."""
        return (
            obj is not None and obj.hand_count == 0 and super().has_delete_permission(request, obj)
        )


@admin.register(GameTeam)
class GameTeamAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "index", "total", "minimum", "hands", "won")
    list_filter = ("won", "game__status")
    search_fields = ("players__first_name", "players__last_name")
    list_select_related = ("game__table", "game__day")


@admin.register(TeamPlayer)
class TeamPlayerAdmin(ReadOnlyAdmin):
    list_display = ("person", "team", "seat")
    search_fields = ("person__first_name", "person__last_name")
    list_select_related = ("person", "team__game__table", "team__game__day")


class TeamHandInline(admin.TabularInline):
    model = TeamHand
    extra = 0
    can_delete = False
    fields = (
        "team",
        "hand_score",
        "score_before",
        "score_after",
        "minimum_before",
        "minimum_next",
        "breakdown",
    )
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Hand)
class HandAdmin(SimpleHistoryAdmin):
    list_display = ("__str__", "number", "entered_by", "entered_via", "version", "updated_at")
    list_filter = ("game__day_date",)
    search_fields = ("entered_via", "entered_by__username")
    list_select_related = ("game__table", "game__day", "entered_by")
    readonly_fields = (
        "game",
        "number",
        "inputs",
        "dealer",
        "entered_by",
        "entered_via",
        "version",
        "created_at",
        "updated_at",
    )
    inlines = [TeamHandInline]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(TeamHand)
class TeamHandAdmin(NeverDeletedAdmin):
    list_display = ("__str__", "hand_score", "score_after", "went_out", "red_threes")
    list_filter = ("went_out", "perfect_cut")
    list_select_related = ("hand__game__table", "hand__game__day", "team")


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "start", "end")
    search_fields = ("name",)


@admin.register(ClubSettings)
class ClubSettingsAdmin(admin.ModelAdmin):
    list_display = ("club", "default_rule_set", "public_standings", "min_games_to_rank")


@admin.register(RatingPoint)
class RatingPointAdmin(NeverDeletedAdmin):
    """Worked out from the games (``manage.py rebuild_ratings`` writes them again)."""

    list_display = ("person", "game", "played_on", "mu", "sigma", "ordinal")
    list_filter = ("played_on",)
    search_fields = ("person__first_name", "person__last_name")
    list_select_related = ("person", "game__table", "game__day")
    raw_id_fields = ("person", "game")


@admin.register(HandConfirmation)
class HandConfirmationAdmin(SimpleHistoryAdmin):
    """The other team's OK of each hand: written by the play services only (settle a
    hand on the club day's page)."""

    list_display = ("__str__", "status", "person", "officer", "via", "updated_at")
    list_filter = ("status", "game__day_date")
    search_fields = ("reason", "via", "person__last_name", "officer__username")
    list_select_related = ("hand__game__table", "hand__game__day", "person", "officer")
    readonly_fields = (
        "hand",
        "game",
        "status",
        "hand_version",
        "keeper_team",
        "person",
        "officer",
        "reason",
        "via",
        "updated_at",
    )

    def has_add_permission(self, request):
        return False


@admin.register(KeeperChange)
class KeeperChangeAdmin(admin.ModelAdmin):
    """Who named a game's score keeper after it started (the table asks when nobody was
    named and hands need the other team's OK): written by the play services only."""

    list_display = ("__str__", "named_by", "via", "at")
    list_filter = ("game__day_date",)
    list_select_related = ("game__table", "game__day", "person", "named_by")
    readonly_fields = ("game", "person", "named_by", "via", "at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
