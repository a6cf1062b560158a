"""Clubs (schema, first step): the Club and its roles; every club-owned table gets its
club, empty until 0009 fills it; 0010 makes it required."""

import django.core.validators
import django.db.models.deletion
import django.db.models.functions.text
import members.clubs.scope
import members.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('members', '0007_officers_group'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Club',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('slug', models.SlugField(help_text="The club's part of the site's addresses: /<slug>/ on a shared site.", max_length=40, unique=True, validators=[django.core.validators.RegexValidator('^[a-z0-9][a-z0-9-]*$', 'Use small letters, digits and dashes.'), members.models.validate_club_slug])),
                ('name', models.CharField(default=members.models.default_club_name, max_length=120)),
                ('time_zone', models.CharField(default=members.models.default_time_zone, help_text="Where the club plays, e.g. America/New_York: dates and times are shown in it and a day's table links end at its midnight.", max_length=64, validators=[members.models.validate_time_zone])),
                ('language_code', models.CharField(default=members.models.default_language, help_text="The language of the club's pages (stored for now; the pages are in English).", max_length=10)),
                ('results_sender_name', models.CharField(blank=True, help_text="The name the results e-mail comes from (the club's name when empty).", max_length=120)),
                ('results_reply_to', models.EmailField(blank=True, help_text='Where replies to the results e-mail go (none when empty).', max_length=254)),
                ('host', models.CharField(blank=True, help_text="A host name of the club's own (scores.example.org), served at its root. It must also be in the site's ALLOWED_HOSTS.", max_length=253, null=True, unique=True)),
                ('is_active', models.BooleanField(default=True, help_text="A suspended club's pages say so and show nothing else.")),
                ('root_links', models.BooleanField(default=False, help_text="The club whose addresses were at the site's root before the site had more than one club: old links, QR codes and bookmarks (/days/, /t/…) lead to its /<slug>/ addresses. At most one club.")),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'ordering': ['name', 'pk'],
            },
        ),
        migrations.CreateModel(
            name='ClubRole',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('role', models.CharField(choices=[('officer', 'Officer')], default='officer', max_length=20)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'ordering': ['club', 'user', 'role'],
            },
        ),
        migrations.RemoveConstraint(
            model_name='person',
            name='person_unique_membership_number',
        ),
        migrations.RemoveIndex(
            model_name='clubday',
            name='clubday_date_idx',
        ),
        migrations.RemoveIndex(
            model_name='person',
            name='person_name_lower_idx',
        ),
        migrations.RemoveIndex(
            model_name='person',
            name='person_updated_idx',
        ),
        migrations.AlterField(
            model_name='clubday',
            name='board_code',
            field=models.CharField(default=members.models.new_room_code, help_text="Opens the day's room board (the results screen for the wall) while the day's table links work. Unique across the site.", max_length=8, unique=True),
        ),
        migrations.AlterField(
            model_name='historicalperson',
            name='membership_number',
            field=models.CharField(blank=True, help_text='The number on the membership card. Members only; unique in the club.', max_length=20, null=True),
        ),
        migrations.AlterField(
            model_name='historicalperson',
            name='user',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The login this person uses to see their own page (one record per club).', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AlterField(
            model_name='person',
            name='membership_number',
            field=models.CharField(blank=True, help_text='The number on the membership card. Members only; unique in the club.', max_length=20, null=True),
        ),
        migrations.AlterField(
            model_name='person',
            name='user',
            field=models.ForeignKey(blank=True, help_text='The login this person uses to see their own page (one record per club).', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='people', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddConstraint(
            model_name='club',
            constraint=models.UniqueConstraint(condition=models.Q(('root_links', True)), fields=('root_links',), name='club_one_root_links'),
        ),
        migrations.AddField(
            model_name='clubday',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='historicalperson',
            name='club',
            field=models.ForeignKey(blank=True, db_constraint=False, default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='historicalsignin',
            name='club',
            field=models.ForeignKey(blank=True, db_constraint=False, default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='mergerecord',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='person',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='round',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='seat',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='signin',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='table',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddIndex(
            model_name='clubday',
            index=models.Index(fields=['club', 'date'], name='clubday_date_idx'),
        ),
        migrations.AddIndex(
            model_name='person',
            index=models.Index(models.F('club'), django.db.models.functions.text.Lower('last_name'), django.db.models.functions.text.Lower('first_name'), name='person_name_lower_idx'),
        ),
        migrations.AddIndex(
            model_name='person',
            index=models.Index(fields=['club', 'updated_at'], name='person_updated_idx'),
        ),
        migrations.AddConstraint(
            model_name='person',
            constraint=models.UniqueConstraint(condition=models.Q(('membership_number__isnull', False)), fields=('club', 'membership_number'), name='person_unique_membership_number'),
        ),
        migrations.AddConstraint(
            model_name='person',
            constraint=models.UniqueConstraint(condition=models.Q(('user__isnull', False)), fields=('club', 'user'), name='person_one_per_login'),
        ),
        migrations.AddField(
            model_name='clubrole',
            name='club',
            field=models.ForeignKey(default=members.clubs.scope.current_club_id, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='members.club'),
        ),
        migrations.AddField(
            model_name='clubrole',
            name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='club_roles', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddIndex(
            model_name='clubrole',
            index=models.Index(fields=['user'], name='clubrole_user_idx'),
        ),
        migrations.AddConstraint(
            model_name='clubrole',
            constraint=models.UniqueConstraint(fields=('club', 'user', 'role'), name='clubrole_once'),
        ),
        migrations.AddConstraint(
            model_name='clubrole',
            constraint=models.CheckConstraint(condition=models.Q(('role__in', ['officer'])), name='clubrole_role_valid'),
        ),
    ]
