"""A club day says whether it is played as an event (the table pages look for the
event's clock only then)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('members', '0013_club_paper'),
    ]

    operations = [
        migrations.AddField(
            model_name='clubday',
            name='has_event',
            field=models.BooleanField(default=False, help_text="Whether the day is played as an event: the event's services set it when they make the event and clear it when they delete it. A table page looks for the event's clock only when it is set."),
        ),
    ]
