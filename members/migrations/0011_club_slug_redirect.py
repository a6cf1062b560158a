"""Clubs: a club's old slugs, which redirect to its slug now (a club moved by the admin)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("members", "0010_club_required"),
    ]

    operations = [
        migrations.CreateModel(
            name="ClubSlugRedirect",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("old_slug", models.SlugField(help_text="The club's former part of the addresses.", max_length=40, unique=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("club", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="slug_redirects", to="members.club")),
            ],
            options={
                "verbose_name": "old club address",
                "ordering": ["old_slug"],
            },
        ),
    ]
