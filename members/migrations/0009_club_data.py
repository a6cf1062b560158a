"""Clubs (data): the site's one club, holding every row there is.

An existing database becomes one club: its slug is ``CLUB_SLUG`` or the slugified
``CLUB_NAME`` (``club`` when neither is set), its name ``CLUB_NAME``, its time zone
``TIME_ZONE``; it keeps the site's root addresses (``root_links``), so every old link,
room code and QR code goes on working when a second club is added. The users of the
old "Officers" group become its officers. A new database gets the same club, empty: a
single-club install serves it at ``/``.
"""

import os

from django.conf import settings
from django.db import migrations
from django.utils.text import slugify

#: The members models whose rows belong to a club (their history too).
CLUB_OWNED = (
    "Person",
    "HistoricalPerson",
    "MergeRecord",
    "ClubDay",
    "SignIn",
    "HistoricalSignIn",
    "Round",
    "Table",
    "Seat",
)
#: Never a club's slug (the site's own addresses and the club pages' first parts).
TAKEN = {
    "admin", "accounts", "static", "media", "healthz", "clubs", "sw.js", "app", "api", "www",
    "days", "people", "me", "room", "t", "tables", "games", "rules", "standings", "results",
    "records", "players", "seasons", "board", "manifest.webmanifest", "settings",
}


def first_club_slug() -> str:
    slug = slugify(os.environ.get("CLUB_SLUG", "").strip())[:40]
    slug = slug or slugify(os.environ.get("CLUB_NAME", "").strip())[:40] or "club"
    return f"{slug}-club"[:40] if slug in TAKEN else slug


def create_first_club(apps):
    """The site's first club (made once): the one every existing row belongs to."""
    Club = apps.get_model("members", "Club")
    club = Club.objects.order_by("pk").first()
    if club is None:
        club = Club.objects.create(
            slug=first_club_slug(),
            name=settings.CLUB_NAME,
            time_zone=settings.TIME_ZONE,
            language_code=getattr(settings, "CLUB_LANGUAGE", None) or settings.LANGUAGE_CODE,
            root_links=True,
        )
    return club


def forward(apps, schema_editor):
    club = create_first_club(apps)
    for name in CLUB_OWNED:
        apps.get_model("members", name).objects.filter(club__isnull=True).update(club=club)
    Group = apps.get_model("auth", "Group")
    ClubRole = apps.get_model("members", "ClubRole")
    group = Group.objects.filter(name="Officers").first()
    if group is not None:
        for user_id in group.user_set.values_list("pk", flat=True):
            ClubRole.objects.get_or_create(club=club, user_id=user_id, role="officer")


class Migration(migrations.Migration):
    dependencies = [
        ("members", "0008_clubs"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
