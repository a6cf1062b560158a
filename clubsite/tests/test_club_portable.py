"""A club's data in one file and back (export_club, import_club), a club deleted
(delete_club), one club's backup (backup --club): every club-owned model goes along,
a copy equals its original, and other clubs are never touched."""

from __future__ import annotations

import io
import json

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from members.clubs.importer import import_club
from members.clubs.portable import PortableError, club_models, label
from members.clubs.scope import in_club, scopes_disabled
from members.models import Club, ClubRole, Person
from members.services.merge import merge_people
from scoring.models import PartnershipTotal, PersonTotal, RatingPoint, Season, SeasonTotal
from scoring.results.standings.individual import season_individual, season_partnerships
from scoring.tests.devtools.canonical import canonical_rows

pytestmark = pytest.mark.django_db

TINY = ["--people", "24", "--years", "1", "--days-per-year", "3"]
TINY += ["--tables-min", "2", "--tables-max", "3", "--quiet"]


@pytest.fixture(autouse=True)
def _fast(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _counts(club) -> dict[str, int]:
    with scopes_disabled():
        return {label(m): m._base_manager.filter(club=club).count() for m in club_models()}


def _without_ids(value):
    """Standings rows with the database ids left out (a copy has other ids)."""
    if isinstance(value, dict):
        return {
            k: _without_ids(v)
            for k, v in value.items()
            if k not in ("id", "pk", "pair") and not k.endswith("_id")
        }
    if isinstance(value, list | tuple):
        return [_without_ids(v) for v in value]
    return value


def _name(person_id) -> tuple:
    p = Person.objects.get(pk=person_id)
    return (p.first_name, p.last_name, p.membership_number or "")


def _stored_totals() -> dict[str, list]:
    """The stored totals and the standings, keyed by names instead of ids."""

    def stats(row) -> tuple:
        return tuple(row.stats().values())

    seasons = {s.pk: s.name for s in Season.objects.all()}
    return {
        "season": sorted(
            (seasons[t.season_id], _name(t.person_id), stats(t)) for t in SeasonTotal.objects.all()
        ),
        "pairs": sorted(
            (seasons[t.season_id], sorted([_name(t.person_id), _name(t.partner_id)]), stats(t))
            for t in PartnershipTotal.objects.all()
        ),
        "person": sorted(
            (_name(t.person_id), stats(t), t.streak, t.most_canastas, t.best_hand_number)
            for t in PersonTotal.objects.all()
        ),
        "ratings": sorted(
            (_name(r.person_id), str(r.played_on), r.mu, r.sigma) for r in RatingPoint.objects.all()
        ),
        "standings": [  # the rows as read (the pages sort them), in any order
            sorted(repr(_without_ids(row)) for row in season_individual(s) + season_partnerships(s))
            for s in Season.objects.order_by("start")
        ],
    }


def _league_rows() -> dict:
    """What a copy must equal: the generated league's rows (tables without their room
    code and link, which a copy on the same site cannot keep) and every total."""
    rows = canonical_rows()
    rows["tables"] = [row[:3] + row[5:] for row in rows["tables"]]
    return {**rows, **_stored_totals()}


@pytest.fixture
def league(club, officer_user, member_person):
    """The tests' club with a generated league, an officer, a member with a login, a
    merged-away record (pointing at a later one) and a deleted record's history."""
    call_command("generate_league", *TINY, "--seed", "3")
    # Logins are the same on another site by user name and e-mail address.
    for user, email in ((officer_user, "olive@example.org"), (member_person.user, "m@example.org")):
        user.email = email
        user.save(update_fields=["email"])
    removed = Person.objects.create(first_name="Dora", last_name="Double", membership_number="77")
    kept = Person.objects.create(first_name="Dora", last_name="Double", membership_number="78")
    merge_people(kept, removed, by=officer_user)
    Person.objects.create(first_name="Gone", last_name="Soon", kind="guest").delete()
    return club


def test_every_model_that_points_at_a_club_is_exported(league, tmp_path):
    """A model pointing at a club in any way must be one that export_club finds (its
    ``club`` field), and every model pointing at a club-owned row must be club-owned."""
    owned = {label(m) for m in club_models()}
    for model in apps.get_models():
        if model is Club:
            continue
        for field in model._meta.concrete_fields:
            target = getattr(field, "related_model", None)
            if target is Club or (target is not None and label(target) in owned):
                assert label(model) in owned, f"{label(model)}.{field.name} is not exported"
    call_command("export_club", league.slug, str(tmp_path / "club.json"))
    document = json.loads((tmp_path / "club.json").read_text())
    assert set(document["rows"]) == owned
    assert {name for name, rows in document["rows"].items() if rows} >= {
        "members.person",
        "members.mergerecord",
        "members.historicalperson",
        "scoring.hand",
        "scoring.ratingpoint",
        "scoring.partnershiptotal",
        "scoring.clubsettings",
        "members.clubrole",
    }


def test_a_copy_equals_its_original_and_the_original_is_untouched(league, tmp_path):
    before, counts = _league_rows(), _counts(league)
    whole_before = canonical_rows()
    path = tmp_path / "club.json"
    call_command("export_club", league.slug, str(path))
    call_command("import_club", str(path), "--slug", "copy")

    with scopes_disabled():
        copy = Club.objects.get(slug="copy")
    assert copy.name == league.name and copy.time_zone == league.time_zone
    assert _counts(copy) == counts
    with in_club(copy):
        assert _league_rows() == before
        call_command("rebuild_totals", "--club", "copy", stdout=io.StringIO())
        call_command("rebuild_ratings", "--club", "copy", stdout=io.StringIO())
        assert _league_rows() == before  # the copy's derived rows are what its hands give
        trace = Person.objects.get(membership_number__isnull=True, last_name="Double")
        assert trace.merged_into.membership_number == "78"
        gone = Person.history.filter(first_name="Gone", club=copy)
        assert {h.id for h in gone} and all(h.id < 0 for h in gone)
        member = Person.objects.get(membership_number="9001")
        assert member.user.username == "member"  # the same login: name and e-mail match
    assert canonical_rows() == whole_before  # the original, room codes included
    assert _counts(league) == counts
    from members.permissions import is_officer

    with in_club(copy):
        assert is_officer(get_user_model().objects.get(username="officer"))


def test_import_refuses_a_taken_slug_a_stranger_file_and_a_newer_version(league, tmp_path):
    path = tmp_path / "club.json"
    call_command("export_club", league.slug, str(path))
    with pytest.raises(CommandError, match="already has a club with the slug"):
        call_command("import_club", str(path))

    stranger = tmp_path / "notes.json"
    stranger.write_text('{"hello": 1}')
    with pytest.raises(CommandError, match="is not a club export"):
        call_command("import_club", str(stranger), "--slug", "x")
    (tmp_path / "binary").write_bytes(b"\x00\xff SQLite format 3")
    with pytest.raises(CommandError, match="is not a club export"):
        call_command("import_club", str(tmp_path / "binary"), "--slug", "x")

    document = json.loads(path.read_text())
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps({**document, "version": 99}))
    with pytest.raises(CommandError, match="newer version of the site"):
        call_command("import_club", str(newer), "--slug", "x")
    document["migrations"]["scoring"].append("9999_from_the_future")
    newer.write_text(json.dumps(document))
    with pytest.raises(CommandError, match="newer version of the site"):
        call_command("import_club", str(newer), "--slug", "x")
    with scopes_disabled():
        assert not Club.objects.filter(slug="x").exists()


def test_a_damaged_file_leaves_nothing_written(league, tmp_path):
    path = tmp_path / "club.json"
    call_command("export_club", league.slug, str(path))
    document = json.loads(path.read_text())
    document["users"].append({"pk": 10**9, "username": "newcomer", "email": ""})
    document["rows"]["members.seat"][-1]["fields"]["person"] = 10**9  # no such person
    path.write_text(json.dumps(document))
    with scopes_disabled():
        people, users = Person.objects.count(), get_user_model().objects.count()
    with pytest.raises(PortableError, match="not in the file; it is damaged"):
        import_club(path, slug="broken")
    with scopes_disabled():
        assert not Club.objects.filter(slug="broken").exists()
        assert (Person.objects.count(), get_user_model().objects.count()) == (people, users)


def test_a_login_not_on_the_site_is_made_without_a_password(league, tmp_path):
    path = tmp_path / "club.json"
    call_command("export_club", league.slug, str(path))
    document = json.loads(path.read_text())
    for user in document["users"]:
        if user["username"] == "officer":
            user["username"] = "olive-elsewhere"
    path.write_text(json.dumps(document))
    done = import_club(path, slug="moved")
    assert (done.users_made, done.users_matched) == (1, len(document["users"]) - 1)
    made = get_user_model().objects.get(username="olive-elsewhere")
    assert not made.has_usable_password() and not made.is_staff and not made.is_superuser
    assert made.first_name == "Olive"
    from members.permissions import is_officer

    with in_club(done.club):
        assert is_officer(made)


def test_delete_club_deletes_one_club_and_leaves_the_other_untouched(
    league, other_club, monkeypatch, capsys
):
    with in_club(other_club):
        call_command("generate_league", *TINY, "--seed", "4", "--club", other_club.slug)
    theirs, ours = _counts(other_club), _counts(league)
    assert theirs["scoring.hand"] and theirs["members.person"]

    monkeypatch.setattr("builtins.input", lambda prompt: "club")
    with pytest.raises(CommandError, match="not the club's slug"):
        call_command("delete_club", "south")
    with pytest.raises(CommandError, match="names “club”, not “south”"):
        call_command("delete_club", "south", "--yes-i-am-sure", "club")
    assert _counts(other_club) == theirs

    monkeypatch.setattr("builtins.input", lambda prompt: "south")
    call_command("delete_club", "south")
    assert "Deleted South Club" in capsys.readouterr().out
    with scopes_disabled():
        assert not Club.objects.filter(slug="south").exists()
        for model in club_models():
            assert not model._base_manager.filter(club_id=other_club.pk).exists(), model
    assert _counts(league) == ours
    with in_club(league):
        assert Season.objects.exists()


def test_delete_club_for_scripts(other_club):
    call_command("delete_club", "south", "--noinput")
    with scopes_disabled():
        assert not Club.objects.filter(slug="south").exists()


def test_backup_of_one_club_is_its_export(league, tmp_path, capsys):
    call_command("backup", str(tmp_path / "nightly"), "--club", league.slug)
    (written,) = (tmp_path / "nightly").glob(f"{league.slug}-*.json")
    assert str(written) in capsys.readouterr().out
    assert json.loads(written.read_text())["format"] == "canasta-club-export"
    with pytest.raises(CommandError, match="read it back with manage.py import_club"):
        call_command("restore_backup", str(written), "--yes")
    call_command("import_club", str(written), "--slug", "restored")
    assert (
        _counts(Club.objects.get(slug="restored"))["scoring.hand"]
        == _counts(league)["scoring.hand"]
    )


def test_generate_league_makes_many_clubs_each_with_its_own_league(club):
    call_command("generate_league", *TINY, "--clubs", "2")
    with scopes_disabled():
        first, second = Club.objects.get(slug="club-01"), Club.objects.get(slug="club-02")
    with in_club(first):
        one = canonical_rows()
    with in_club(second):
        two = canonical_rows()
    assert one["games"] and two["games"] and one["games"] != two["games"]  # seeds 1 and 2
    assert not _counts(club)["scoring.game"]  # the site's first club is left alone
    with pytest.raises(CommandError, match="already has games"):
        call_command("generate_league", *TINY, "--clubs", "2")


def test_old_addresses_come_along_only_where_they_are_free(other_club, tmp_path):
    from members.models import ClubSlugRedirect

    ClubSlugRedirect.objects.create(old_slug="old-south", club=other_club)
    path = tmp_path / "south.json"
    call_command("export_club", "south", str(path))
    call_command("delete_club", "south", "--noinput")
    assert not ClubSlugRedirect.objects.exists()

    back = import_club(path)  # the slug and its old address are free again
    assert ClubSlugRedirect.objects.get(old_slug="old-south").club == back.club
    with pytest.raises(PortableError, match="was another club's address"):
        import_club(path, slug="old-south")
    twin = import_club(path, slug="south-copy")
    assert ClubSlugRedirect.objects.get(old_slug="old-south").club == back.club
    assert not ClubSlugRedirect.objects.filter(club=twin.club).exists()
    assert twin.notes == ["Old addresses not carried over (taken on this site): old-south."]


def test_a_login_of_the_same_name_but_another_person_is_not_handed_the_club(
    league, tmp_path, django_user_model
):
    """A login is the same here only by user name and e-mail, and never a staff or
    superuser login: a file naming "admin" (or another club's officer) as one of its
    people gets a new login of its own, and the one here is untouched."""
    admin = django_user_model.objects.create_superuser("admin", "root@example.org", "x-pass-1")
    path = tmp_path / "club.json"
    call_command("export_club", league.slug, str(path))
    document = json.loads(path.read_text())
    officer = next(u for u in document["users"] if u["username"] == "officer")
    officer["username"], officer["email"] = "admin", "root@example.org"
    path.write_text(json.dumps(document))
    import_club(path, slug="moved")
    from members.permissions import is_officer

    made = django_user_model.objects.get(username="admin-2")
    assert not made.has_usable_password() and not made.is_superuser
    moved = Club.objects.get(slug="moved")
    with in_club(moved):
        assert is_officer(made)
        assert not ClubRole.objects.filter(user=admin).exists()
    admin.refresh_from_db()
    assert admin.is_superuser and admin.check_password("x-pass-1")


def test_old_addresses_from_a_file_that_the_site_uses_itself_are_dropped(league, tmp_path):
    path = tmp_path / "club.json"
    call_command("export_club", league.slug, str(path))
    document = json.loads(path.read_text())
    rows = document["rows"].setdefault("members.clubslugredirect", [])
    for n, slug in enumerate(["", "healthz", "accounts", "t", "Bad Slug", "old-home"]):
        rows.append(
            {
                "model": "members.clubslugredirect",
                "pk": 900 + n,
                "fields": {"old_slug": slug, "club": 1, "created_at": "2026-01-01T00:00:00Z"},
            }
        )
    path.write_text(json.dumps(document))
    done = import_club(path, slug="moved")
    from members.models import ClubSlugRedirect

    with scopes_disabled():
        kept = set(ClubSlugRedirect.objects.values_list("old_slug", flat=True))
    assert kept == {"old-home"}
    assert any("not a club's short name" in note for note in done.notes)
