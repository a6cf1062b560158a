"""Django's ``dumpdata`` works for the operator: the whole site, every club's rows,
although the club-scoped managers refuse a query outside a club's scope."""

import contextvars
import io
import json

import pytest
from django.core.management import call_command

from members.clubs.scope import in_club
from members.models import Person

pytestmark = pytest.mark.django_db


def test_dumpdata_writes_every_clubs_rows(club, other_club):
    Person.objects.create(first_name="Nora", last_name="North", kind="guest")
    with in_club(other_club):
        Person.objects.create(first_name="Sam", last_name="South", kind="guest")
    out = io.StringIO()
    # As from the command line: no club's scope is active (a fresh context).
    contextvars.Context().run(
        call_command, "dumpdata", "members.person", "members.historicalperson", stdout=out
    )
    rows = json.loads(out.getvalue())
    names = {(r["model"], r["fields"]["first_name"]) for r in rows}
    assert names == {
        ("members.person", "Nora"),
        ("members.person", "Sam"),
        ("members.historicalperson", "Nora"),
        ("members.historicalperson", "Sam"),
    }
