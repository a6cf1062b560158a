"""The club scope (``members.clubs.scope``, ``members.clubs.history``): every query path
of a club-owned model, its history included, sees the active club's rows only and
refuses outside a club; scopes disabled sees every club (the admin, site-wide work).
These also pin the private parts of django-scopes the managers lean on
(docs/development.md, "Scoping"): an upgrade that changes them fails here."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.apps import apps
from django_scopes import ScopeError

from members.clubs.scope import ClubScoped, in_club, scopes_disabled
from members.models import Person
from members.tests.factories import MemberFactory

#: Models with a ``club`` field whose default manager is not club-scoped, and why.
NOT_SCOPED = {
    # The address rule finds a club by an old slug across every club, before any club
    # is known (members.clubs.addresses.find_club); only superusers see it in the admin.
    "members.ClubSlugRedirect": "read across clubs by the address rule, before a scope",
}


def club_owned_models():
    return [
        model
        for model in apps.get_models()
        if any(f.name == "club" for f in model._meta.concrete_fields)
    ]


def test_every_club_owned_model_and_its_history_is_scoped():
    """Historical models included: a model with a ``club`` field answers only inside a
    club through its default manager and its ``history`` manager."""
    models = club_owned_models()
    labels = {m._meta.label for m in models}
    assert {"scoring.Hand", "scoring.HistoricalHand", "members.HistoricalPerson"} <= labels
    unscoped = []
    for model in models:
        managers = {"default manager": model._default_manager}
        history = getattr(model._meta, "simple_history_manager_attribute", None)
        if history:
            managers["history"] = getattr(model, history)
        for what, manager in managers.items():
            if not isinstance(manager, ClubScoped) and model._meta.label not in NOT_SCOPED:
                unscoped.append(f"{model._meta.label} ({what})")
    assert not unscoped, f"not club-scoped (scope them, or say why in NOT_SCOPED): {unscoped}"
    stale = set(NOT_SCOPED) - labels
    assert not stale, f"NOT_SCOPED names models without a club field: {stale}"


def test_history_outside_a_club_is_refused():
    """No database needed: the refusal comes before any query."""
    from scoring.models import Hand, RuleSet

    for query in (
        lambda: list(Hand.history.all()),
        lambda: Hand.history.filter(number=1),
        Hand.history.model.objects.count,
    ):
        with pytest.raises(ScopeError):
            query()
    with pytest.raises(ScopeError):
        RuleSet.history.count()
    with pytest.raises(ScopeError):
        Person.objects.active().count()  # a named filter refuses too


@pytest.mark.django_db
def test_history_inside_a_club_sees_its_own_rows(club, other_club):
    ours = MemberFactory(first_name="Ours")
    with in_club(other_club):
        theirs = MemberFactory(first_name="Theirs")
        theirs.first_name = "Theirs again"
        theirs.save()
        assert {h.first_name for h in Person.history.all()} == {"Theirs", "Theirs again"}
    seen = set(Person.history.values_list("id", flat=True))
    assert ours.pk in seen and theirs.pk not in seen
    assert not Person.history.model.objects.filter(id=theirs.pk).exists()
    # A row's own history works in its club, and is empty for another club's row.
    assert [h.first_name for h in ours.history.all()] == ["Ours"]
    assert not theirs.history.exists()
    with scopes_disabled():
        assert theirs.history.count() == 2
        both = set(Person.history.values_list("id", flat=True))
        assert {ours.pk, theirs.pk} <= both


@pytest.mark.django_db
def test_shared_rule_sets_history_shows_presets_and_own(club, other_club):
    from scoring.models import RuleSet

    preset = RuleSet.objects.filter(is_preset=True).first()
    with in_club(other_club):
        theirs = RuleSet.objects.create(name="Theirs", slug="theirs", settings=preset.settings)
    mine = RuleSet.objects.create(name="Mine", slug="mine", settings=preset.settings)
    ids = set(RuleSet.history.values_list("id", flat=True))
    assert mine.pk in ids and theirs.pk not in ids
    assert RuleSet.objects.filter(pk=preset.pk).exists()


ROOT = Path(__file__).resolve().parents[2]
#: What leaves the scope: a call of these, or Django's plain manager.
LEAVING_CALLS = {"scopes_disabled", "with_scopes_disabled"}


def scope_leaving_sites() -> set[tuple[str, str]]:
    """(file, function) of every place production code leaves the club scope."""
    found = set()
    for package in ("clubsite", "members", "scoring"):
        for path in (ROOT / package).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            if {"tests", "migrations", "devtools"} & set(rel.split("/")):
                continue
            _walk(ast.parse(path.read_text()), rel, "", found)
    return found


def _walk(node, rel: str, where: str, found: set) -> None:
    for child in ast.iter_child_nodes(node):
        inner = where
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            inner = f"{where}.{child.name}" if where else child.name
        leaves = isinstance(child, ast.Attribute) and child.attr == "_base_manager"
        if isinstance(child, ast.Call):
            func = child.func
            leaves = getattr(func, "attr", getattr(func, "id", None)) in LEAVING_CALLS
        if leaves:
            found.add((rel, where or "<module>"))
        _walk(child, rel, inner, found)


def documented_sites() -> set[tuple[str, str]]:
    """The list under "Where production code leaves the scope" in docs/development.md:
    each entry names a file, then its functions, in backquotes, before its reason."""
    text = (ROOT / "docs" / "development.md").read_text()
    part = text.split("**Where production code leaves the scope.**", 1)[1].split("\n\n", 2)[1]
    found = set()
    for entry in re.split(r"\n(?=- )", part):
        current = None
        for name in re.findall(r"`([^`]+)`", entry.split(": ", 1)[0]):
            if name.endswith(".py"):
                current = name
            elif current and re.fullmatch(r"[\w.]+", name):
                found.add((current, name))
    return found


def test_every_site_that_leaves_the_scope_is_documented():
    found, documented = scope_leaving_sites(), documented_sites()
    assert ("members/clubs/views.py", "clubs_of") in found  # the scan sees them
    missing = sorted(found - documented)
    assert not missing, (
        "these leave the club scope without a line in docs/development.md "
        f"('Where production code leaves the scope'): {missing}"
    )
    gone = sorted(
        (file, function) for file, function in documented - found if (ROOT / file).exists()
    )
    assert not gone, f"documented but no longer there, take them off the list: {gone}"
