"""The paper a club prints on becomes its own setting: each club starts with the
``CLUB_PAPER`` setting when the site had one, else its language's usual paper (Letter
in English, A4 in Spanish and Portuguese), as the pages chose it before."""

from django.conf import settings
from django.db import migrations, models

import members.models


def fill_paper(apps, schema_editor):
    Club = apps.get_model("members", "Club")
    chosen = (getattr(settings, "CLUB_PAPER", "") or "").strip().lower()
    for club in Club.objects.all():
        if chosen in ("a4", "letter"):
            paper = "A4" if chosen == "a4" else "Letter"
        else:
            paper = "Letter" if (club.language_code or "").lower() == "en" else "A4"
        Club.objects.filter(pk=club.pk).update(paper=paper)


class Migration(migrations.Migration):
    dependencies = [
        ("members", "0012_person_language"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="paper",
            field=models.CharField(
                choices=[("A4", "A4"), ("Letter", "Letter")],
                default=members.models.default_paper,
                help_text="The paper the club prints on: the workbook, the day sheet, the "
                "table cards.",
                max_length=6,
            ),
        ),
        migrations.AlterField(
            model_name="club",
            name="language_code",
            field=models.CharField(
                default=members.models.default_language,
                help_text="The language of the club's pages.",
                max_length=10,
            ),
        ),
        migrations.RunPython(fill_paper, migrations.RunPython.noop),
    ]
