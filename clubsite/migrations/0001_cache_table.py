"""The shared cache's table (``CACHES`` in settings: the database cache when no
``REDIS_URL`` is set), made by ``migrate`` so that a new site, the tests and every
deployment have it without a separate step. ``createcachetable`` does nothing when the
table is there already or when the cache is Redis."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = []

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
