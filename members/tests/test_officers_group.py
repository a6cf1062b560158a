"""A new site has the Officers group (a data migration makes it). Since clubs the group
grants nothing (officers are club roles; members 0009 made the group's users the first
club's officers), but the migration that makes it stays as it was."""

import importlib

import pytest
from django.apps import apps
from django.contrib.auth.models import Group

from members.models import OFFICERS_GROUP

pytestmark = pytest.mark.django_db

migration = importlib.import_module("members.migrations.0007_officers_group")


def test_a_migrated_site_has_the_officers_group():
    assert Group.objects.filter(name=OFFICERS_GROUP).count() == 1


def test_the_migration_makes_the_group_only_where_it_is_missing():
    Group.objects.filter(name=OFFICERS_GROUP).delete()
    migration.make_officers_group(apps, None)
    kept = Group.objects.get(name=OFFICERS_GROUP)
    migration.make_officers_group(apps, None)  # a site that made it by hand keeps its own
    assert list(Group.objects.filter(name=OFFICERS_GROUP)) == [kept]
