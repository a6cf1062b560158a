"""import_club checks the whole file before it writes: a spoiled or hostile club export
is refused in a plain sentence naming the row and the field, with exit status 2, and
nothing is written (no club, no login, no row)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from members.clubs.importer import import_club
from members.clubs.portable import PortableError
from members.clubs.scope import scopes_disabled
from members.models import Club, Person

pytestmark = pytest.mark.django_db


@pytest.fixture
def exported(club, officer_user, tmp_path):
    """The club's export (with one member, Nora), as a path and its document."""
    officer_user.email = "olive@example.org"
    officer_user.save(update_fields=["email"])
    Person.objects.create(first_name="Nora", last_name="North", membership_number="12")
    path = tmp_path / "club.json"
    call_command("export_club", club.slug, str(path))
    return path, json.loads(path.read_text())


def _nora(document) -> dict:
    return next(
        row["fields"]
        for row in document["rows"]["members.person"]
        if row["fields"]["first_name"] == "Nora"
    )


def _nora_pk(document) -> int:
    return next(
        row["pk"]
        for row in document["rows"]["members.person"]
        if row["fields"]["first_name"] == "Nora"
    )


def refused(path, *messages: str, extra=()) -> str:
    """import_club of ``path`` fails with exit status 2 and each of ``messages`` in its
    words, and writes nothing."""
    with scopes_disabled():
        before = (Club.objects.count(), Person.objects.count(), get_user_model().objects.count())
    with pytest.raises(CommandError) as caught:
        call_command("import_club", str(path), "--slug", "copy", *extra)
    said = str(caught.value)
    assert caught.value.returncode == 2
    assert "Traceback" not in said
    for message in messages:
        assert message in said
    with scopes_disabled():
        after = (Club.objects.count(), Person.objects.count(), get_user_model().objects.count())
        assert not Club.objects.filter(slug="copy").exists()
    assert after == before
    return said


def _spoil(path, document, change) -> None:
    change(document)
    path.write_text(json.dumps(document))


def test_a_good_file_still_imports(exported):
    path, _ = exported
    done = import_club(path, slug="copy")
    assert done.rows["members.person"] == 1


@pytest.mark.parametrize(
    "field, value, words",
    [
        ("joined", "2024-02-30", "the joined cannot be read: “2024-02-30” value has the"),
        ("joined", {"year": 2024}, "the joined must be text, not an object"),
        ("first_name", "No\x00ra", "the first name holds a NUL character"),
        ("first_name", "N" * 81, "the first name is longer than 80 characters"),
        ("first_name", ["Nora"], "the first name must be text, not a list"),
        ("status", "retired", "the status “retired” is not one of: active, lapsed."),
        ("results_by_email", "yes", "the results by email must be true or false, not text."),
        ("email", "not an address", "the email is not accepted (Enter a valid email address)."),
        ("brought_by", "Mary", "the brought by must be the number of a row, not text"),
        ("kind", None, "the kind is empty, and must not be"),
    ],
)
def test_a_spoiled_field_is_refused_naming_the_row_and_the_field(exported, field, value, words):
    path, document = exported
    pk = _nora_pk(document)
    _spoil(path, document, lambda d: _nora(d).update({field: value}))
    refused(path, f"Person {pk} (members.person): {words}")


def test_a_club_name_that_is_an_object_is_refused_not_stored_as_text(exported):
    path, document = exported
    _spoil(path, document, lambda d: d["club"].update(name={"evil": "object"}))
    refused(path, "The club (club): the name must be text, not an object.")


def test_json_nested_five_thousand_deep_is_refused(exported):
    path, document = exported
    deep = "[" * 5000 + "]" * 5000
    text = json.dumps(document).replace('"first_name": "Nora"', f'"first_name": {deep}', 1)
    path.write_text(text)
    refused(path, "is nested too deep to be a club export")


def test_a_json_value_nested_deeper_than_the_site_writes_is_refused(exported):
    path, document = exported
    deep: list = []
    for _ in range(40):
        deep = [deep]

    def change(d):
        d["rows"]["scoring.clubsettings"][0]["fields"]["ranking_measures"] = deep

    _spoil(path, document, change)
    refused(path, "(scoring.clubsettings): the ranking measures is nested more than 32 deep.")


def test_a_file_larger_than_the_limit_is_refused_before_it_is_read(exported, monkeypatch):
    path, _ = exported

    def never(*args, **kwargs):  # pragma: no cover - the point: it is not called
        raise AssertionError("the file was read")

    monkeypatch.setattr("members.clubs.importer.json.loads", never)
    refused(path, "is larger than 0 MB, the most import_club reads", extra=["--max-size", "0"])
    with pytest.raises(PortableError, match="is larger than"):
        import_club(path, slug="copy", max_bytes=path.stat().st_size - 1)


def test_a_row_of_another_model_is_refused(exported):
    """A row slipped in among the people as a login (``auth.user``, staff) is never
    read as anything."""
    path, document = exported

    def change(d):
        d["rows"]["members.person"].append(
            {"model": "auth.user", "pk": 999, "fields": {"username": "x", "is_staff": True}}
        )

    _spoil(path, document, change)
    refused(path, "Person 999 (members.person): the row is of “auth.user”, not of members.person.")


def test_numbers_the_database_cannot_hold_and_nan_are_refused(exported):
    path, document = exported

    def change(d):
        d["rows"]["members.person"][0]["pk"] = "twelve"
        d["users"][0]["username"] = "x" * 151

    _spoil(path, document, change)
    said = refused(path, "The rows of members.person: a row's “pk” must be a whole number")
    assert "(users): the username is longer than 150 characters." in said
    path.write_text(json.dumps(document).replace('"twelve"', "NaN"))
    refused(path, "is not a club export")


def test_many_problems_are_listed_up_to_twenty_then_counted(exported):
    path, document = exported

    def change(d):
        rows = d["rows"]["members.person"]
        for n in range(30):
            rows.append({"model": "members.person", "pk": 5000 + n, "fields": {"status": "x"}})

    _spoil(path, document, change)
    first = "Person 5000 (members.person): the status “x” is not one of"
    said = refused(path, first, "… and 10 more")
    assert said.count("(members.person)") == 20


def test_a_row_the_database_refuses_undoes_the_whole_import(exported):
    """What no single field shows (a member without a membership number: a rule of the
    table) is refused by the database; the import is undone and said in words."""
    path, document = exported
    _spoil(path, document, lambda d: _nora(d).update(membership_number=None))
    refused(path, "The database refused the file's rows of members.person (", "Nothing was")
