"""Clubs: a club-owned row always has its club."""

import django.db.models.deletion
import members.clubs.scope
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('members', '0009_club_data'),
    ]

    operations = [
        migrations.AlterField(
            model_name='clubday',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='clubrole',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='mergerecord',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='person',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='round',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='seat',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='signin',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='table',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
    ]
