"""Merging two records of the same person: everything moves, nothing is lost, the
merge is recorded, conflicts are refused with nothing changed."""

import pytest
from django.apps import apps
from django.db import IntegrityError
from django.urls import reverse

from members.draw import SIT_OUT
from members.models import MergeRecord, Person, Seat, SignIn
from members.services import merge
from members.services.errors import MergeRefused
from members.services.merge import merge_people
from members.services.people import convert_guest_to_member
from members.services.seating import draw_round
from members.tests.factories import ClubDayFactory, GuestFactory, MemberFactory, SignInFactory


@pytest.fixture
def twins(db):
    """The same woman, once as a member and once as a guest typed in at the door."""
    member = MemberFactory(
        membership_number="1500", first_name="Ruth", last_name="Reed", email="", phone=""
    )
    guest = GuestFactory(first_name="Ruth", last_name="Reed")
    guest.email = "ruth@example.org"
    guest.notes = "Likes table 1"
    guest.save()
    return member, guest


def test_merge_moves_every_sign_in_and_seat_and_records_it(twins, officer_user):
    member, guest = twins
    day1, day2, day3 = (ClubDayFactory(date=f"2026-10-0{i}") for i in (1, 2, 3))
    SignInFactory(day=day1, person=member, card_shown=False)
    SignInFactory(day=day1, person=guest, card_shown=True, brought_by=MemberFactory())
    SignInFactory(day=day2, person=guest, brought_by=member)
    SignInFactory(day=day3, person=guest, brought_by=guest.brought_by)
    for _ in range(3):
        SignInFactory(day=day3)
    round_ = draw_round(day3, SIT_OUT, seed=1).round
    new_guest = GuestFactory(brought_by=guest)  # a guest the guest record brought

    record = merge_people(member, guest, by=officer_user)

    guest.refresh_from_db()
    member.refresh_from_db()
    assert guest.merged_into == member and guest.membership_number is None
    assert SignIn.objects.filter(person=guest).count() == 0
    days = sorted(s.day_id for s in SignIn.objects.filter(person=member))
    assert days == [day1.pk, day2.pk, day3.pk]  # same day made one
    assert SignIn.objects.get(person=member, day=day1).card_shown is True  # OR'ed
    assert SignIn.objects.get(person=member, day=day2).brought_by is None  # not by herself
    assert Seat.objects.filter(round=round_, person=member).count() == 1
    new_guest.refresh_from_db()
    assert new_guest.brought_by == member
    assert member.email == "ruth@example.org"  # blank filled from the other
    assert "Likes table 1" in member.notes

    assert record.kept == member and record.removed == guest
    assert record.merged_by == officer_user
    assert record.removed_snapshot["kind"] == "guest"
    assert record.removed_snapshot["email"] == "ruth@example.org"
    assert record.moved["sign-ins on the same day (made one)"] == 1
    assert record.moved["sign-ins"] == 2
    assert record.moved["seats at tables"] == 1
    assert record.moved["guests they brought"] == 1
    # The trace keeps its history; it is out of lists and searches.
    assert guest.history.count() >= 2
    assert guest not in Person.objects.current()
    assert guest not in Person.objects.search("Ruth")


def test_merge_a_member_into_a_guest_record_hands_over_the_number(twins):
    member, guest = twins
    merge_people(guest, member)
    guest.refresh_from_db()
    assert guest.membership_number == "1500" and guest.is_member


def test_merge_moves_the_login_or_switches_off_the_second(twins, django_user_model):
    member, guest = twins
    member_login = django_user_model.objects.create_user("ruth")
    member.user = member_login
    member.save()
    merge_people(guest, member)
    guest.refresh_from_db()
    assert guest.user == member_login

    a = MemberFactory(user=django_user_model.objects.create_user("a1"))
    b = MemberFactory(user=django_user_model.objects.create_user("b1"))
    record = merge_people(a, b)
    b_login = django_user_model.objects.get(username="b1")
    assert not b_login.is_active and a.user.is_active
    assert any("logins switched off" in key for key in record.moved)


def test_merge_refused_when_both_are_seated_in_the_same_round(twins):
    member, guest = twins
    day = ClubDayFactory()
    SignInFactory(day=day, person=member)
    SignInFactory(day=day, person=guest, brought_by=guest.brought_by)
    for _ in range(2):
        SignInFactory(day=day)
    draw_round(day, SIT_OUT, seed=1)
    with pytest.raises(MergeRefused, match="Both records are seated in round 1"):
        merge_people(member, guest)
    guest.refresh_from_db()
    assert guest.merged_into is None and SignIn.objects.filter(person=guest).count() == 1
    assert not MergeRecord.objects.exists()


def test_a_unique_rule_of_another_app_refuses_the_merge_and_changes_nothing(twins, monkeypatch):
    member, guest = twins
    SignInFactory(day=ClubDayFactory(), person=guest, brought_by=guest.brought_by)

    class Exploding:
        class _base_manager:  # stands in for a manager
            @staticmethod
            def filter(**kwargs):
                class Query:
                    def update(self, **kwargs):
                        raise IntegrityError("UNIQUE constraint failed: game, person")

                    def exists(self):
                        return True

                return Query()

        class _meta:
            verbose_name = "team player"
            verbose_name_plural = "team players"

    real = merge._relations_to_person

    def with_a_conflict():
        yield from real()
        yield Exploding, SignIn._meta.get_field("person")

    monkeypatch.setattr(merge, "_relations_to_person", with_a_conflict)
    with pytest.raises(MergeRefused, match="both appear in team players") as refusal:
        merge_people(member, guest)
    assert "Nothing was changed" in str(refusal.value)
    guest.refresh_from_db()
    assert guest.merged_into is None and guest.email == "ruth@example.org"
    assert SignIn.objects.filter(person=guest).count() == 1  # the move was rolled back
    assert not MergeRecord.objects.exists()


def test_relations_of_every_app_are_found_even_hidden_ones():
    """Games of `scoring` point at Person, some with related_name="+": all must move."""
    found = {(model._meta.label, field.name) for model, field in merge._relations_to_person()}
    for model in apps.get_models():
        if model._meta.label.split(".")[-1].startswith("Historical"):
            continue
        if model is MergeRecord:
            continue
        for field in model._meta.concrete_fields:
            if field.is_relation and field.related_model is Person:
                # Derived rows (stored totals) stay: their app adds them up again.
                moves = not getattr(model, "rebuilt_after_merge", False)
                assert ((model._meta.label, field.name) in found) is moves
    assert ("members.SignIn", "person") in found and ("members.Seat", "person") in found
    assert not any(label.startswith("members.Historical") for label, _ in found)


def test_merge_refusals(twins):
    member, guest = twins
    with pytest.raises(MergeRefused, match="two different"):
        merge_people(member, member)
    merge_people(member, guest)
    guest.refresh_from_db()
    with pytest.raises(MergeRefused, match="already merged"):
        merge_people(member, guest)


def test_merge_page_flow(officer_client, twins):
    member, guest = twins
    SignInFactory(day=ClubDayFactory(), person=guest, brought_by=guest.brought_by)
    url = reverse("members:merge")
    page = officer_client.get(url, {"a": member.pk, "q": "reed"}).content.decode()
    assert f"b={guest.pk}" in page
    page = officer_client.get(url, {"a": member.pk, "b": guest.pk}).content.decode()
    assert "Keep which record?" in page and "sign-ins: 1" in page
    response = officer_client.post(url, {"a": member.pk, "b": guest.pk, "keep": "a"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("members:person", args=[member.pk])
    assert "Merged:" in response.content.decode()
    assert MergeRecord.objects.count() == 1
    # Posting again: the second record is gone, a clear message and no 500.
    response = officer_client.post(url, {"a": member.pk, "b": guest.pk, "keep": "a"})
    assert response.status_code == 200 and "already merged" in response.content.decode()
    # The trace's page says where it went.
    page = officer_client.get(reverse("members:person", args=[guest.pk])).content.decode()
    assert "This record was merged into" in page


def test_merge_keeps_a_guest_who_converted_visits(day, officer_client):
    """Not a merge, but the same promise: a guest who joins keeps their history."""
    guest = GuestFactory(first_name="Nora", last_name="New")
    SignInFactory(day=day, person=guest, brought_by=guest.brought_by)
    other = ClubDayFactory(date="2026-11-26")
    SignInFactory(day=other, person=guest, brought_by=guest.brought_by)
    convert_guest_to_member(guest, "1777")
    guest.refresh_from_db()
    assert guest.is_member and guest.membership_number == "1777"
    assert Person.objects.with_visits().get(pk=guest.pk).visits == 2


def test_other_apps_hear_of_a_merge_after_it_is_committed(
    twins, django_capture_on_commit_callbacks
):
    from members.signals import person_merged

    heard = []

    def listener(sender, kept, removed, record, **kwargs):
        heard.append((kept.pk, removed.pk, record.pk))

    person_merged.connect(listener)
    try:
        member, guest = twins
        with django_capture_on_commit_callbacks(execute=True):
            record = merge_people(member, guest)
    finally:
        person_merged.disconnect(listener)
    assert heard == [(member.pk, guest.pk, record.pk)]
