"""The login sessions move to a table of their own with the user's id in a column
(clubsite.models.ClubSession). Sessions still valid are copied from Django's table, so
nobody is logged out by the upgrade, and Django's table is emptied: nothing reads it any
more, and a session ended after the copy must not live on there. (Stop every app server
before this migration: one still running the old code would go on using the old table.)"""

from django.contrib.sessions.backends.db import SessionStore
from django.db import migrations, models
from django.utils import timezone

# django.contrib.auth's SESSION_KEY: the logged-in user's id in a session's data.
USER_ID_KEY = "_auth_user_id"


def user_id_of(data: dict) -> int | None:
    try:
        return int(data[USER_ID_KEY])
    except (KeyError, TypeError, ValueError):
        return None


def copy_sessions(apps, schema_editor):
    Old = apps.get_model("sessions", "Session")
    New = apps.get_model("clubsite", "ClubSession")
    alias = schema_editor.connection.alias
    # Django's own engine decodes them (the salt is its class name, as this site's is).
    decoder = SessionStore()
    rows = Old.objects.using(alias).filter(expire_date__gt=timezone.now()).iterator()
    batch = []
    for old in rows:
        user_id = user_id_of(decoder.decode(old.session_data))  # unreadable: {} (no user)
        batch.append(New(old.session_key, old.session_data, old.expire_date, user_id))
        if len(batch) >= 1000:
            New.objects.using(alias).bulk_create(batch, ignore_conflicts=True)
            batch = []
    New.objects.using(alias).bulk_create(batch, ignore_conflicts=True)
    Old.objects.using(alias).all().delete()



def copy_sessions_back(apps, schema_editor):
    """Undoing the move: the sessions still valid go back to Django's table."""
    Old = apps.get_model("sessions", "Session")
    New = apps.get_model("clubsite", "ClubSession")
    alias = schema_editor.connection.alias
    rows = New.objects.using(alias).filter(expire_date__gt=timezone.now()).iterator()
    batch = []
    for new in rows:
        batch.append(Old(new.session_key, new.session_data, new.expire_date))
        if len(batch) >= 1000:
            Old.objects.using(alias).bulk_create(batch, ignore_conflicts=True)
            batch = []
    Old.objects.using(alias).bulk_create(batch, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [
        ("clubsite", "0001_cache_table"),
        ("sessions", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="ClubSession",
            fields=[
                (
                    "session_key",
                    models.CharField(
                        max_length=40, primary_key=True, serialize=False, verbose_name="session key"
                    ),
                ),
                ("session_data", models.TextField(verbose_name="session data")),
                (
                    "expire_date",
                    models.DateTimeField(db_index=True, verbose_name="expire date"),
                ),
                ("user_id", models.IntegerField(blank=True, null=True)),
            ],
            options={
                "verbose_name": "login session",
                "verbose_name_plural": "login sessions",
                "abstract": False,
            },
        ),
        migrations.RunPython(copy_sessions, copy_sessions_back),
    ]
