"""Clubs (schema, first step): every club-owned table gets its club, empty until
scoring 0019 fills it; 0020 makes it required and drops the site-wide default flag."""

import django.db.models.deletion
import members.clubs.scope
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('members', '0008_clubs'),
        ('scoring', '0017_game_ended_early'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='ruleset',
            options={'ordering': ['-is_preset', 'name']},
        ),
        migrations.RemoveIndex(
            model_name='game',
            name='game_status_date_idx',
        ),
        migrations.RemoveIndex(
            model_name='gameteam',
            name='gameteam_total_idx',
        ),
        migrations.RemoveIndex(
            model_name='handconfirmation',
            name='handconfirmation_open_idx',
        ),
        migrations.RemoveIndex(
            model_name='teamhand',
            name='teamhand_score_idx',
        ),
        migrations.RemoveIndex(
            model_name='teamhand',
            name='teamhand_four_red_threes_idx',
        ),
        migrations.AddField(
            model_name='clubsettings',
            name='club',
            field=models.OneToOneField(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='clubsettings',
            name='confirm_hands',
            field=models.BooleanField(blank=True, default=None, help_text="The other team confirms every hand, on every day that does not say otherwise: on, off, or empty for as the day's rule set says.", null=True),
        ),
        migrations.AddField(
            model_name='clubsettings',
            name='default_rule_set',
            field=models.ForeignKey(blank=True, help_text='Played on a club day unless the day chooses another.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='scoring.ruleset'),
        ),
        migrations.AddField(
            model_name='dayrules',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='game',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='gameteam',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='hand',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='handconfirmation',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='historicalhand',
            name='club',
            field=models.ForeignKey(blank=True, db_constraint=False, default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='historicalhandconfirmation',
            name='club',
            field=models.ForeignKey(blank=True, db_constraint=False, default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='historicalruleset',
            name='club',
            field=models.ForeignKey(blank=True, db_constraint=False, default=members.clubs.scope.current_club_id, editable=False, help_text='Empty for the shipped presets.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='keeperchange',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='partnershiptotal',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='persontotal',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='ratingpoint',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='resultsmailing',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='resultsmessage',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='resultsversion',
            name='club',
            field=models.OneToOneField(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='ruleset',
            name='club',
            field=models.ForeignKey(blank=True, default=members.clubs.scope.current_club_id, editable=False, help_text='Empty for the shipped presets.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='season',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='seasontotal',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='submission',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='teamhand',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='teamplayer',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AlterField(
            model_name='historicalruleset',
            name='name',
            field=models.CharField(max_length=80),
        ),
        migrations.AlterField(
            model_name='ruleset',
            name='name',
            field=models.CharField(max_length=80),
        ),
        migrations.AlterField(
            model_name='ruleset',
            name='slug',
            field=models.SlugField(max_length=80),
        ),
        migrations.AlterField(
            model_name='season',
            name='name',
            field=models.CharField(max_length=80),
        ),
        migrations.AddIndex(
            model_name='game',
            index=models.Index(fields=['club', 'status', 'day_date'], name='game_status_date_idx'),
        ),
        migrations.AddIndex(
            model_name='gameteam',
            index=models.Index(fields=['club', '-total'], name='gameteam_total_idx'),
        ),
        migrations.AddIndex(
            model_name='handconfirmation',
            index=models.Index(condition=models.Q(('status__in', ['waiting', 'disputed'])), fields=['club', 'game'], name='handconfirmation_open_idx'),
        ),
        migrations.AddIndex(
            model_name='teamhand',
            index=models.Index(fields=['club', '-hand_score'], name='teamhand_score_idx'),
        ),
        migrations.AddIndex(
            model_name='teamhand',
            index=models.Index(condition=models.Q(('red_threes__gte', 4)), fields=['club', 'red_threes'], name='teamhand_four_red_threes_idx'),
        ),
        migrations.AddConstraint(
            model_name='ruleset',
            constraint=models.UniqueConstraint(fields=('club', 'name'), name='ruleset_unique_name'),
        ),
        migrations.AddConstraint(
            model_name='ruleset',
            constraint=models.UniqueConstraint(fields=('club', 'slug'), name='ruleset_unique_slug'),
        ),
        migrations.AddConstraint(
            model_name='ruleset',
            constraint=models.UniqueConstraint(condition=models.Q(('club__isnull', True)), fields=('name',), name='preset_unique_name'),
        ),
        migrations.AddConstraint(
            model_name='ruleset',
            constraint=models.UniqueConstraint(condition=models.Q(('club__isnull', True)), fields=('slug',), name='preset_unique_slug'),
        ),
        migrations.AddConstraint(
            model_name='ruleset',
            constraint=models.CheckConstraint(condition=models.Q(('is_preset', False), ('club__isnull', True), _connector='OR'), name='ruleset_preset_shared'),
        ),
        migrations.AddConstraint(
            model_name='season',
            constraint=models.UniqueConstraint(fields=('club', 'name'), name='season_unique_name'),
        ),
    ]
