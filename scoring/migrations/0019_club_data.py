"""Clubs (data): every scoring row goes to the site's first club (made by members
0009), but the shipped presets, which every club shares (``club`` empty). The club's
settings and results version are the rows there were (the single rows of before), and
its default rule set the one that was flagged the club default."""

from django.db import migrations

#: The scoring models whose rows belong to a club (their history too).
CLUB_OWNED = (
    "DayRules",
    "Game",
    "GameTeam",
    "TeamPlayer",
    "Hand",
    "HistoricalHand",
    "TeamHand",
    "HandConfirmation",
    "HistoricalHandConfirmation",
    "KeeperChange",
    "Submission",
    "Season",
    "RatingPoint",
    "PersonTotal",
    "SeasonTotal",
    "PartnershipTotal",
    "ResultsMailing",
    "ResultsMessage",
)


def first_club_settings(apps, club):
    """The club's one settings row and results version (made if missing); a new
    club's default rule set is the shipped house rules."""
    RuleSet = apps.get_model("scoring", "RuleSet")
    ClubSettings = apps.get_model("scoring", "ClubSettings")
    ResultsVersion = apps.get_model("scoring", "ResultsVersion")
    for model in (ClubSettings, ResultsVersion):
        if not model.objects.filter(club=club).exists():
            row = model.objects.filter(club__isnull=True).order_by("pk").first()
            if row is None:
                model.objects.create(club=club)
            else:
                row.club = club
                row.save()
        model.objects.filter(club__isnull=True).delete()
    settings = ClubSettings.objects.get(club=club)
    if settings.default_rule_set_id is None:
        settings.default_rule_set = RuleSet.objects.filter(slug="club", club__isnull=True).first()
        settings.save()


def forward(apps, schema_editor):
    club = apps.get_model("members", "Club").objects.order_by("pk").first()
    for name in CLUB_OWNED:
        apps.get_model("scoring", name).objects.filter(club__isnull=True).update(club=club)
    RuleSet = apps.get_model("scoring", "RuleSet")
    RuleSet.objects.filter(is_preset=False, club__isnull=True).update(club=club)
    apps.get_model("scoring", "HistoricalRuleSet").objects.filter(
        is_preset=False, club__isnull=True
    ).update(club=club)
    ClubSettings = apps.get_model("scoring", "ClubSettings")
    first_club_settings(apps, club)
    chosen = RuleSet.objects.filter(is_club_default=True).first()
    if chosen is not None:
        ClubSettings.objects.filter(club=club).update(default_rule_set=chosen)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0018_clubs"),
        ("members", "0009_club_data"),
    ]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
