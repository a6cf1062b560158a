"""The Officers group, made on every site (a new production site had none: it was made
by ``load_demo`` or by hand). The site checks the group by its name
(``members.permissions.is_officer``); it needs no permissions."""

from django.db import migrations

OFFICERS_GROUP = "Officers"  # members.models.OFFICERS_GROUP, as it is at this migration


def make_officers_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.get_or_create(name=OFFICERS_GROUP)


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("members", "0006_board_and_mail"),
    ]

    operations = [
        # Reversing leaves the group: it may hold the officers appointed since.
        migrations.RunPython(make_officers_group, migrations.RunPython.noop),
    ]
