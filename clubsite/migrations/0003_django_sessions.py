"""The login sessions go back to Django's own table (``django_session``) and
``clubsite.ClubSession`` is dropped. Every session still valid is copied, so nobody is
logged out by the upgrade: logged-in members and officers, and table phones with their
table grants. A login made through the club's former authentication backend names it in
its data (``_auth_user_backend``), and Django logs out a session whose backend is no
longer listed, so the copy names Django's own backend instead; everything else in the
data is kept as it was. (Stop every app server before this migration: one still running
the old code would go on using the old table.)

Undoing it copies the sessions still valid back into ``ClubSession`` (with the user's id
in its own column, as the old code wrote it) and empties Django's table, as 0002 did."""

from django.contrib.sessions.backends.db import SessionStore
from django.db import migrations
from django.utils import timezone

# django.contrib.auth's keys in a session's data: the user's id and their backend.
USER_ID_KEY = "_auth_user_id"
BACKEND_KEY = "_auth_user_backend"
OLD_BACKEND = "members.backends.ClubBackend"
DJANGO_BACKEND = "django.contrib.auth.backends.ModelBackend"
BATCH = 1000


def session_data_for_django(codec: SessionStore, session_data: str) -> str:
    """``session_data`` as Django's backend reads it: a login naming the former backend
    names Django's instead; any other session (a phone's grant, a login that names
    Django's backend already, data that cannot be read) is copied unchanged."""
    data = codec.decode(session_data)  # unreadable: {}
    if data.get(BACKEND_KEY) != OLD_BACKEND:
        return session_data
    data[BACKEND_KEY] = DJANGO_BACKEND
    return codec.encode(data)


def user_id_of(data: dict) -> int | None:
    try:
        return int(data[USER_ID_KEY])
    except (KeyError, TypeError, ValueError):
        return None


def _copy(rows, model, alias, make) -> None:
    """Each of ``rows`` made into a ``model`` row by ``make``, written in batches; a
    session of the same key already there takes the copied data."""
    fields = [f.name for f in model._meta.concrete_fields if not f.primary_key]
    batch = []
    for row in rows:
        batch.append(make(row))
        if len(batch) >= BATCH:
            model.objects.using(alias).bulk_create(
                batch, update_conflicts=True, unique_fields=["session_key"], update_fields=fields
            )
            batch = []
    if batch:
        model.objects.using(alias).bulk_create(
            batch, update_conflicts=True, unique_fields=["session_key"], update_fields=fields
        )


def copy_to_django(apps, schema_editor):
    Club = apps.get_model("clubsite", "ClubSession")
    Session = apps.get_model("sessions", "Session")
    alias = schema_editor.connection.alias
    # Django's engines sign with the salt "django.contrib.sessions.SessionStore", as the
    # club's engine did (a class of the same name): Django's store decodes and encodes them.
    codec = SessionStore()
    valid = Club.objects.using(alias).filter(expire_date__gt=timezone.now()).iterator()
    _copy(
        valid,
        Session,
        alias,
        lambda old: Session(
            session_key=old.session_key,
            session_data=session_data_for_django(codec, old.session_data),
            expire_date=old.expire_date,
        ),
    )


def copy_back(apps, schema_editor):
    """Undoing it: the sessions still valid go back to ``ClubSession`` (the code before
    this migration lists Django's backend too, so their logins hold), and Django's table
    is emptied: nothing reads it then, and a session ended after the copy must not live
    on there."""
    Club = apps.get_model("clubsite", "ClubSession")
    Session = apps.get_model("sessions", "Session")
    alias = schema_editor.connection.alias
    codec = SessionStore()
    valid = Session.objects.using(alias).filter(expire_date__gt=timezone.now()).iterator()
    _copy(
        valid,
        Club,
        alias,
        lambda new: Club(
            session_key=new.session_key,
            session_data=new.session_data,
            expire_date=new.expire_date,
            user_id=user_id_of(codec.decode(new.session_data)),
        ),
    )
    Session.objects.using(alias).all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("clubsite", "0002_club_sessions"),
        ("sessions", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(copy_to_django, copy_back),
        migrations.DeleteModel(name="ClubSession"),
    ]
