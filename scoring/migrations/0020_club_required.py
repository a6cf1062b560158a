"""Clubs: a club-owned row always has its club."""

import django.db.models.deletion
import members.clubs.scope
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('members', '0010_club_required'),
        ('scoring', '0019_club_data'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='ruleset',
            name='ruleset_one_club_default',
        ),
        migrations.RemoveField(
            model_name='historicalruleset',
            name='is_club_default',
        ),
        migrations.RemoveField(
            model_name='ruleset',
            name='is_club_default',
        ),
        migrations.AlterField(
            model_name='clubsettings',
            name='club',
            field=models.OneToOneField(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='dayrules',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='game',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='gameteam',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='handconfirmation',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='keeperchange',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='partnershiptotal',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='persontotal',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='ratingpoint',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='resultsmailing',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='resultsmessage',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='resultsversion',
            name='club',
            field=models.OneToOneField(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='season',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='seasontotal',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='submission',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='teamhand',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='teamplayer',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
    ]
